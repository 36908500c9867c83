/* Sketch lifecycle and recording. llmm_sketch_add is the library's hot path: a value whose
 * bucket lies strictly between the buckets of the current min and max (and inside the
 * allocated store) is counted with one table lookup, one comparison and one increment;
 * everything else (first values, new extremes, zeros, out-of-range values, growth, invalid
 * input, a 32-bit counter wrapping) takes the slow path. */
#include <float.h>

#include "sketch_internal.h"

void llmm__sketch_init_fields(llmm_sketch *s, const llmm_ctx *ctx, int32_t scale)
{
    llmm__store none = {NULL, NULL, 0, 0};
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->gen = 1; /* 0 is the view's "holds nothing" */
    llmm__store_adopt(s, &none, scale);
    s->range_lo = LLMM_SKETCH_RANGE_MIN_DEFAULT;
    s->range_hi = LLMM_SKETCH_RANGE_MAX_DEFAULT;
    llmm__range_indices(scale, s->range_lo, s->range_hi, &s->idx_lo, &s->idx_hi);
}

llmm_status llmm_sketch_new(llmm_ctx *ctx, int32_t scale, llmm_sketch **out)
{
    llmm_sketch *s;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (scale < LLMM_SCALE_MIN || scale > LLMM_SCALE_MAX)
        return LLMM_E_INVALID;
    s = llmm__alloc(ctx, sizeof *s);
    if (!s)
        return LLMM_E_NOMEM;
    llmm__sketch_init_fields(s, ctx, scale);
    *out = s;
    return LLMM_OK;
}

void llmm_sketch_free(llmm_sketch *s)
{
    if (!s)
        return;
    llmm__sketch_release_store(s);
    llmm__free(s->ctx, s, sizeof *s);
}

llmm_status llmm_sketch_set_range(llmm_sketch *s, double lo, double hi)
{
    if (!s || !llmm__is_finite(lo) || !llmm__is_finite(hi) ||
        !(lo >= LLMM_SKETCH_RANGE_MIN_LIMIT) || !(hi <= LLMM_SKETCH_RANGE_MAX_LIMIT) || !(hi > lo))
        return LLMM_E_INVALID;
    if (s->count)
        return LLMM_E_STATE;
    llmm__sketch_release_store(s);
    s->range_lo = lo;
    s->range_hi = hi;
    llmm__range_indices(s->scale, lo, hi, &s->idx_lo, &s->idx_hi);
    return LLMM_OK;
}

llmm_status llmm_sketch_range(const llmm_sketch *s, double *lo, double *hi)
{
    if (!s || !lo || !hi)
        return LLMM_E_INVALID;
    *lo = s->range_lo;
    *hi = s->range_hi;
    return LLMM_OK;
}

/* Classify a valid value (bits of a finite double >= 0): -1 zero, -2 under, -3 over, else 0
 * with *idx set. */
static int classify(const llmm_sketch *s, uint64_t bits, double v, int64_t *idx)
{
    int64_t i;
    if ((bits << 1) == 0)
        return -1;
    i = llmm__map_index(s->scale, v);
    if (i < s->idx_lo)
        return -2;
    if (i > s->idx_hi)
        return -3;
    *idx = i;
    return 0;
}

static void update_extremes(llmm_sketch *s, double lo, double hi)
{
    if (s->count == 0) {
        s->min = lo;
        s->max = hi;
        return;
    }
    if (lo < s->min)
        s->min = lo;
    if (hi > s->max)
        s->max = hi;
}

/* Count `n` values adding up to `sum`. */
static inline void tally(llmm_sketch *s, double sum, uint64_t n)
{
    s->sum += sum;
    s->count += n;
}

/* Record v n times (n >= 1); v already validated. All or nothing. */
static llmm_status record_n(llmm_sketch *s, double v, uint64_t n)
{
    uint64_t bits = llmm__dbits(v);
    int64_t idx = 0;
    int kind = classify(s, bits, v, &idx);
    llmm_status st;
    if (n > UINT64_MAX - s->count)
        return LLMM_E_RANGE;
    if (kind == 0) {
        uint64_t cur = 0;
        int wide;
        if (s->cap && idx >= s->base && idx < s->base + (int64_t)s->cap)
            cur = llmm__store_get(s, idx);
        wide = s->counts64 != NULL || cur + n > UINT32_MAX;
        st = llmm__store_reserve(s, idx, idx, wide);
        if (st != LLMM_OK)
            return st;
        llmm__store_add(s, idx, n);
    } else if (kind == -1) {
        s->zero += n;
    } else if (kind == -2) {
        s->under += n;
    } else {
        s->over += n;
    }
    if (v == 0.0)
        v = 0.0; /* normalise -0.0 */
    update_extremes(s, v, v);
    tally(s, v * (double)n, n);
    llmm__sketch_refresh_fast(s);
    return LLMM_OK;
}

static int valid_bits(uint64_t bits)
{
    /* finite and >= 0; -0.0 is accepted as zero */
    return bits - 1 < LLMM__DBL_MAX_BITS || (bits << 1) == 0;
}

/* v's offset in a window of buckets that starts at biased index `lo` (any offset at or above
 * the window's span means "not in it": see llmm_sketch_add). The slow paths map the value
 * again rather than take the index from llmm_sketch_add, where keeping it live would cost the
 * fast path an instruction. */
static inline uint64_t window_offset(const llmm_sketch *s, double v, uint64_t lo)
{
    return llmm__map_biased(s->cells, s->key_shift, s->cell_mask, llmm__dbits(v)) - lo;
}

LLMM__NOINLINE
static llmm_status add_slow(llmm_sketch *s, double v)
{
    /* a wide store's window (same rule as the fast path's; 0 span when the store is narrow) */
    uint64_t rel = window_offset(s, v, s->wide_lo);
    if (rel < s->wide_span) {
        s->wide_counts[rel]++;
        tally(s, v, 1);
        return LLMM_OK;
    }
    if (!valid_bits(llmm__dbits(v)))
        return LLMM_E_INVALID;
    return record_n(s, v, 1);
}

/* A 32-bit counter of the fast window just wrapped: undo and let the slow path widen. */
LLMM__NOINLINE
static llmm_status add_wrapped(llmm_sketch *s, double v)
{
    s->fast_counts[window_offset(s, v, s->fast_lo)] = UINT32_MAX;
    return record_n(s, v, 1);
}

/* The increment of a fast-window counter, jumping to `wrapped` when it wraps to 0. GCC (12)
 * turns the plain C form into a separate address computation plus the increment when the
 * flags of the increment are used; on x86-64 one `addl` with the indexed operand and a `jz`
 * do it in two instructions (clang already emits exactly these from the C form). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 11
#define LLMM__INC_OR_GOTO(counter, wrapped)                                                        \
    __asm__ goto("addl $1, %0\n\tjz %l[" #wrapped "]" : "+m"(counter) : : "cc" : wrapped)
#else
#define LLMM__INC_OR_GOTO(counter, wrapped)                                                        \
    do {                                                                                           \
        if (LLMM__UNLIKELY(++(counter) == 0))                                                      \
            goto wrapped;                                                                          \
    } while (0)
#endif

/* The hot path: 23 instructions for a value in the fast window (doc/spec.md §10 counts 25 with
 * the caller's call and PLT jump). The handle is not checked here (documented in sketch.h):
 * its test and branch alone would be 2 of them. */
llmm_status llmm_sketch_add(llmm_sketch *s, double v)
{
    /* The fast window holds only normal doubles inside the range, strictly between the top
     * and bottom buckets in use; every 0, -0, subnormal, negative, Inf and NaN maps to a
     * table index outside it (sign bit -> far above, zero/subnormal -> far below, Inf/NaN ->
     * above the largest finite bucket), so one unsigned compare validates and locates. */
    uint64_t rel = window_offset(s, v, s->fast_lo);
    if (LLMM__LIKELY(rel < s->fast_span)) {
        LLMM__INC_OR_GOTO(s->fast_counts[rel], wrapped);
        s->count++;
        s->sum += v;
        return LLMM_OK;
    wrapped:
        return add_wrapped(s, v);
    }
    return add_slow(s, v);
}

llmm_status llmm_sketch_add_n(llmm_sketch *s, double v, uint64_t n)
{
    if (!s || !valid_bits(llmm__dbits(v)))
        return LLMM_E_INVALID;
    if (n == 0)
        return LLMM_OK;
    return record_n(s, v, n);
}

/* Take back the bucket count of one value that add_many recorded (valid); the caller restores
 * count, sum, min, max and the zero / range counts. */
static void unrecord(llmm_sketch *s, double v)
{
    int64_t idx = 0;
    if (classify(s, llmm__dbits(v), v, &idx) == 0)
        llmm__store_sub(s, idx, 1);
}

/* Before n more values of a batch: if a 32-bit counter could pass 2^32 - 1 during them, widen
 * the store now (so the batch loop needs no wrap check). Widening ends the single-add fast path, so it
 * happens only when some bucket's count plus the whole batch could really overflow, not
 * merely because the total passed 2^32. */
static llmm_status widen_if_needed(llmm_sketch *s, size_t n)
{
    uint32_t top = 0;
    size_t i;
    if (!s->counts32 || s->count - s->zero - s->under - s->over + (uint64_t)n <= UINT32_MAX)
        return LLMM_OK;
    for (i = 0; i < s->cap; i++)
        top = s->counts32[i] > top ? s->counts32[i] : top;
    if ((uint64_t)top + n <= UINT32_MAX)
        return LLMM_OK;
    return llmm__store_reserve(s, s->base, s->base + (int64_t)s->cap - 1, 1);
}

/* One pass: pairs of values that both fall in the fast window are counted inline (the sum
 * stays in a register, added in arrival order); any other pair goes value by value through
 * llmm_sketch_add. On the first invalid value (or allocation failure) every
 * value already recorded is taken back, so the call is all or nothing. */
llmm_status llmm_sketch_add_many(llmm_sketch *s, const double *v, size_t n)
{
    uint64_t count0, zero0, under0, over0;
    double sum0, min0, max0;
    size_t i = 0, safe = 0;
    llmm_status st;

    if (!s || (!v && n))
        return LLMM_E_INVALID;
    if (n == 0)
        return LLMM_OK;
    if ((uint64_t)n > UINT64_MAX - s->count)
        return LLMM_E_RANGE;
    count0 = s->count;
    zero0 = s->zero;
    under0 = s->under;
    over0 = s->over;
    sum0 = s->sum;
    min0 = s->min;
    max0 = s->max;
    while (i < n) {
        const llmm__map_cell *cells;
        uint32_t shift, *fc;
        uint64_t mask, lo, span;
        double a;
        size_t start = i;
        /* The pairs below count without a wrap check: make sure none can wrap. Once checked
         * against a store, the rest of the batch is safe (it adds at most n - i to any
         * counter); before there is a store, look again on the next round. */
        if (safe < n - i) {
            st = widen_if_needed(s, n - i);
            if (st != LLMM_OK)
                goto fail;
            safe = s->counts32 || s->counts64 ? n - i : 0;
        }
        /* locals: stores to the counters could alias the sketch's fields and force reloads */
        cells = s->cells;
        shift = s->key_shift;
        fc = s->fast_counts;
        mask = s->cell_mask;
        lo = s->fast_lo;
        span = s->fast_span;
        a = s->sum;
        for (; i + 1 < n; i += 2) {
            uint64_t r0 = llmm__map_biased(cells, shift, mask, llmm__dbits(v[i])) - lo;
            uint64_t r1 = llmm__map_biased(cells, shift, mask, llmm__dbits(v[i + 1])) - lo;
            if (LLMM__UNLIKELY(r0 >= span || r1 >= span))
                break;
            fc[r0]++;
            fc[r1]++;
            a += v[i]; /* in arrival order, as one-by-one adds would */
            a += v[i + 1];
        }
        s->sum = a;
        s->count += i - start;
        /* the pair that left the window (or the last odd value): one by one */
        for (size_t end = i + 2 < n ? i + 2 : n; i < end; i++) {
            st = llmm_sketch_add(s, v[i]);
            if (st != LLMM_OK)
                goto fail;
        }
    }
    return LLMM_OK;
fail:
    /* v[0 .. i-1] are recorded: take them back */
    for (size_t j = 0; j < i; j++)
        unrecord(s, v[j]);
    s->count = count0;
    s->zero = zero0;
    s->under = under0;
    s->over = over0;
    s->sum = sum0;
    s->min = min0;
    s->max = max0;
    llmm__sketch_refresh_fast(s);
    return st;
}

llmm_status llmm_sketch_reset(llmm_sketch *s)
{
    if (!s)
        return LLMM_E_INVALID;
    llmm__store_clear(s);
    s->count = s->zero = s->under = s->over = 0;
    s->sum = 0.0;
    s->min = s->max = 0.0;
    llmm__sketch_refresh_fast(s);
    return LLMM_OK;
}

llmm_status llmm_sketch_copy(llmm_sketch *dst, const llmm_sketch *src)
{
    llmm__store st;
    llmm_status rc;
    if (!dst || !src)
        return LLMM_E_INVALID;
    if (dst == src)
        return LLMM_OK;
    rc = llmm__store_dup(dst->ctx, src, &st);
    if (rc != LLMM_OK)
        return rc;
    /* field by field: src may be read by other threads meanwhile, and its view is its own */
    llmm__store_adopt(dst, &st, src->scale);
    dst->range_lo = src->range_lo;
    dst->range_hi = src->range_hi;
    dst->idx_lo = src->idx_lo;
    dst->idx_hi = src->idx_hi;
    dst->count = src->count;
    dst->sum = src->sum;
    dst->min = src->min;
    dst->max = src->max;
    dst->zero = src->zero;
    dst->under = src->under;
    dst->over = src->over;
    llmm__sketch_refresh_fast(dst);
    return LLMM_OK;
}

llmm_status llmm_sketch_clone(const llmm_sketch *s, llmm_sketch **out)
{
    llmm_sketch *c;
    llmm_status st;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (!s)
        return LLMM_E_INVALID;
    st = llmm_sketch_new((llmm_ctx *)(uintptr_t)s->ctx, s->scale, &c);
    if (st != LLMM_OK)
        return st;
    st = llmm_sketch_copy(c, s);
    if (st != LLMM_OK) {
        llmm_sketch_free(c);
        return st;
    }
    *out = c;
    return LLMM_OK;
}
