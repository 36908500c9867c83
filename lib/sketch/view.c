/* The cumulative view: running totals of the store, one per block of LLMM__VIEW_BLOCK slots,
 * so that a quantile or rank query on a sketch that has not changed since the previous query
 * finds its bucket by a binary search over the blocks and a scan of one block, instead of
 * summing the buckets up to it.
 *
 * Which state the view holds. Every change to a sketch ends in llmm__sketch_refresh_fast,
 * which increments `gen`, except those that only count values in place: the fast path of
 * llmm_sketch_add (which must not gain an instruction), its 64-bit twin in add_slow and the
 * pairs llmm_sketch_add_many counts inline. These always raise `count`. `gen` never goes
 * back and `count` only grows between two increments of `gen` (the fast paths are off from
 * 2^63 on), so the pair (gen, count) never names two different states: a view built for
 * (gen, count) holds the current counts exactly when both still match. The count alone would
 * not do: a reset, subtract, downscale or snapshot can give the same count with other
 * contents. A store replaced by llmm__store_adopt brings a new view that holds nothing.
 *
 * When it is built. A query that finds the view stale answers by the scan (as before the view
 * existed) and notes the state it saw; the next query of the same state fills the view and
 * uses it. A sketch queried once after each change therefore never pays for a view, one
 * queried again pays once. Nothing is allocated: the view lives at the end of the store's
 * allocation, made with the store by the writer.
 *
 * Concurrent readers. Queries take a const sketch and may run in many threads at once while
 * no one writes (sketch.h); they are the only writers of the view, and they coordinate as a
 * sequence lock in C11 atomics: a reader that fills it first moves `seq` from even to odd
 * with a compare-and-swap (only one can), writes the totals and the state they hold with
 * release stores, and stores the next even `seq`. A reader that finds `seq` odd, or loses the
 * race, scans instead. A reader of the view loads `seq`, checks the state, reads the totals
 * (relaxed loads), and after an acquire fence checks `seq` again: if any total it read came
 * from a later fill, that fill's odd `seq` happened before the second check, which then fails
 * and the answer is computed again by the scan. Every access to the view is atomic, so
 * concurrent readers are race-free in the C11 model and under ThreadSanitizer; on x86-64 and
 * AArch64 these loads and stores are plain moves. Within one read phase the state is fixed,
 * so the view is filled at most once and readers practically never retry. Between a write and
 * the readers the caller's own synchronisation (which the sketch needs anyway) orders
 * everything. Every loop over the view is bounded by the store, so even a view torn by a
 * concurrent fill cannot lead a read out of bounds. */
#include "sketch_internal.h"

static inline uint64_t get(_Atomic uint64_t *p)
{
    return atomic_load_explicit(p, memory_order_acquire);
}

static inline void put(_Atomic uint64_t *p, uint64_t x)
{
    atomic_store_explicit(p, x, memory_order_release);
}

/* Count of slots [i, end) of the store. */
static uint64_t sum_slots(const llmm_sketch *s, size_t i, size_t end)
{
    uint64_t b = 0;
    if (s->counts64)
        for (; i < end; i++)
            b += s->counts64[i];
    else
        for (; i < end; i++)
            b += s->counts32[i];
    return b;
}

static void fill(const llmm_sketch *s, llmm__view *v)
{
    size_t nb = llmm__view_blocks(s->cap);
    uint64_t cum = 0;
    put(&v->sums[0], 0);
    /* whole blocks (the padding past cap is zero): a fixed trip count the compiler vectorises */
    for (size_t k = 0; k < nb; k++) {
        cum += sum_slots(s, k * LLMM__VIEW_BLOCK, (k + 1) * LLMM__VIEW_BLOCK);
        put(&v->sums[k + 1], cum);
    }
    put(&v->gen, s->gen);
    put(&v->count, s->count);
}

int llmm__view_open(const llmm_sketch *s, uint64_t *seq)
{
    llmm__view *v = s->view;
    uint64_t q;
    if (!v)
        return 0; /* no store: the scan has nothing to scan */
    q = get(&v->seq);
    if (q & 1)
        return 0;
    if (get(&v->gen) == s->gen && get(&v->count) == s->count) {
        *seq = q;
        return 1;
    }
    /* first query of this state: scan, and remember it (racing readers store the same) */
    if (atomic_load_explicit(&v->seen_gen, memory_order_relaxed) != s->gen ||
        atomic_load_explicit(&v->seen_count, memory_order_relaxed) != s->count) {
        atomic_store_explicit(&v->seen_gen, s->gen, memory_order_relaxed);
        atomic_store_explicit(&v->seen_count, s->count, memory_order_relaxed);
        return 0;
    }
    if (!atomic_compare_exchange_strong_explicit(&v->seq, &q, q + 1, memory_order_acquire,
                                                 memory_order_relaxed))
        return 0;
    fill(s, v);
    put(&v->seq, q + 2);
    *seq = q + 2;
    return 1;
}

int llmm__view_intact(const llmm_sketch *s, uint64_t seq)
{
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&s->view->seq, memory_order_relaxed) == seq;
}

/* How many of the LLMM__VIEW_BLOCK counts from a[0] keep their running total below `need`
 * (the slots a rank passes over in its block): one add, compare and carry per slot, no
 * branch. (Counters past the store's end are allocated and stay zero.) */
#define PASSED(a, need, passed)                                                                \
    do {                                                                                       \
        uint64_t run_ = 0;                                                                     \
        _Pragma("GCC unroll 16") for (size_t i_ = 0; i_ < LLMM__VIEW_BLOCK; i_++)              \
            (passed) += (run_ += (a)[i_]) < (need);                                            \
    } while (0)

/* The sums are read with relaxed loads; llmm__view_intact's acquire fence orders them before
 * its second look at `seq` (a seqlock's reader side in C11 atomics). */
static inline uint64_t sum_at(_Atomic uint64_t *sums, size_t k)
{
    return atomic_load_explicit(&sums[k], memory_order_relaxed);
}

/* One probe of the search below: keep k, or move it up by `step`. */
#define PROBE(sums, k, step, t) ((k) = sum_at((sums), (k) + (step)) < (t) ? (k) + (step) : (k))

/* The block that holds the t-th value, 1 <= t <= sums[nb]: the last k with sums[k] < t (the
 * values before block k). Halving steps from `top`, the largest power of two <= nb: after
 * the first probe the candidates are [k, k + top), all below nb; each probe is a conditional
 * move, not a branch. */
static size_t find_block(_Atomic uint64_t *sums, size_t nb, size_t top, uint64_t t)
{
    size_t k = sum_at(sums, top) < t ? nb - top : 0;
    for (size_t step = top >> 1; step; step >>= 1)
        PROBE(sums, k, step, t);
    return k;
}

/* The same for four targets at once: the four searches do not depend on each other, so their
 * loads overlap instead of each waiting for the one before. */
static void find_blocks4(_Atomic uint64_t *sums, size_t nb, size_t top, const uint64_t *t,
                         size_t *k)
{
    uint64_t t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3], first = sum_at(sums, top);
    size_t k0 = first < t0 ? nb - top : 0, k1 = first < t1 ? nb - top : 0;
    size_t k2 = first < t2 ? nb - top : 0, k3 = first < t3 ? nb - top : 0;
    for (size_t step = top >> 1; step; step >>= 1) {
        PROBE(sums, k0, step, t0);
        PROBE(sums, k1, step, t1);
        PROBE(sums, k2, step, t2);
        PROBE(sums, k3, step, t3);
    }
    k[0] = k0;
    k[1] = k1;
    k[2] = k2;
    k[3] = k3;
}

/* The slot of the t-th value, given the block k that holds it. */
static size_t slot_in_block(const llmm_sketch *s, size_t k, uint64_t t)
{
    uint64_t need = t - sum_at(s->view->sums, k);
    size_t first = k * LLMM__VIEW_BLOCK, passed = 0;
    if (s->counts64)
        PASSED(s->counts64 + first, need, passed);
    else
        PASSED(s->counts32 + first, need, passed);
    return first + passed < s->cap ? first + passed : s->cap - 1;
}

void llmm__view_slots(const llmm_sketch *s, const uint64_t *t, size_t *at, size_t m)
{
    _Atomic uint64_t *sums = s->view->sums;
    size_t nb = llmm__view_blocks(s->cap), j = 0;
    size_t top = (size_t)1 << (63 - __builtin_clzll((unsigned long long)nb));
    for (; j + 4 <= m; j += 4) /* four at a time, then one by one */
        find_blocks4(sums, nb, top, t + j, at + j);
    for (; j < m; j++)
        at[j] = find_block(sums, nb, top, t[j]);
    for (j = 0; j < m; j++)
        at[j] = slot_in_block(s, at[j], t[j]);
}

uint64_t llmm__view_through(const llmm_sketch *s, size_t slot)
{
    size_t k = slot / LLMM__VIEW_BLOCK;
    return sum_at(s->view->sums, k) + sum_slots(s, k * LLMM__VIEW_BLOCK, slot + 1);
}
