/* llmm_exemplars: one exemplar per slot of a fixed bucket layout, many writer shards.
 *
 * Each shard owns (nbounds + 1) slots; only its writer stores to them. A slot is a sequence
 * lock over plain 64-bit words: the writer makes the sequence odd, stores the words, makes it
 * even again (release); a reader retries while the sequence is odd or changed under it, so it
 * never returns a torn exemplar. Every word is an atomic accessed relaxed, which keeps the
 * scheme free of data races in C11 terms. The shard list is a push-front list that never
 * shrinks, as in the recorder; handing out and releasing shards take the store's mutex.
 *
 * The keep rule is applied twice: by the writer against its own slot (latest time, or largest
 * within the current interval) and by readers among the shards' copies of a slot. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "core/abi.h"
#include "export/export_internal.h"

/* Slot words: sequence, value bits, time, trace id (2), span id, interval, labels (8). */
enum { W_SEQ, W_VALUE, W_TIME, W_TRACE, W_SPAN = W_TRACE + 2, W_EPOCH, W_LABELS, SLOT_WORDS = 15 };
_Static_assert(W_LABELS + LLMM_EXEMPLAR_LABELS_MAX / 8 == SLOT_WORDS, "slot layout");

typedef struct slot {
    _Atomic uint64_t w[SLOT_WORDS];
} slot;

struct llmm_exemplar_shard {
    llmm_exemplars *owner;
    slot *slots;
    struct llmm_exemplar_shard *_Atomic next;
    int in_use; /* guarded by owner->lock */
};

struct llmm_exemplars {
    const llmm_ctx *ctx;
    llmm_exemplar_keep keep;
    uint32_t nslots;
    double *bounds; /* nslots − 1 of them */
    _Atomic uint64_t epoch;
    pthread_mutex_t lock;
    llmm_exemplar_shard *_Atomic shards;
};

static int keep_valid(llmm_exemplar_keep k)
{
    return k == LLMM_EXEMPLAR_LATEST || k == LLMM_EXEMPLAR_MAX;
}

llmm_status llmm_exemplars_new(llmm_ctx *ctx, const double *bounds, size_t nbounds,
                               llmm_exemplar_keep keep, llmm_exemplars **out)
{
    llmm_exemplars *ex;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if ((nbounds && !bounds) || nbounds > LLMM_EXEMPLAR_BOUNDS_MAX || !keep_valid(keep) ||
        !llmm__bounds_valid(bounds, nbounds))
        return LLMM_E_INVALID;
    ex = llmm__calloc(ctx, 1, sizeof *ex);
    if (!ex)
        return LLMM_E_NOMEM;
    if (nbounds && !(ex->bounds = llmm__calloc(ctx, nbounds, sizeof *bounds))) {
        llmm__free(ctx, ex, sizeof *ex);
        return LLMM_E_NOMEM;
    }
    if (pthread_mutex_init(&ex->lock, NULL) != 0) {
        if (ex->bounds)
            llmm__free(ctx, ex->bounds, nbounds * sizeof *bounds);
        llmm__free(ctx, ex, sizeof *ex);
        return LLMM_E_NOMEM;
    }
    if (nbounds)
        memcpy(ex->bounds, bounds, nbounds * sizeof *bounds);
    ex->ctx = ctx;
    ex->keep = keep;
    ex->nslots = (uint32_t)nbounds + 1;
    atomic_init(&ex->epoch, 1); /* slots never written hold interval 0 */
    atomic_init(&ex->shards, NULL);
    *out = ex;
    return LLMM_OK;
}

void llmm_exemplars_free(llmm_exemplars *ex)
{
    llmm_exemplar_shard *sh;
    if (!ex)
        return;
    sh = atomic_load_explicit(&ex->shards, memory_order_acquire);
    while (sh) {
        llmm_exemplar_shard *next = atomic_load_explicit(&sh->next, memory_order_relaxed);
        llmm__free(ex->ctx, sh->slots, ex->nslots * sizeof *sh->slots);
        llmm__free(ex->ctx, sh, sizeof *sh);
        sh = next;
    }
    pthread_mutex_destroy(&ex->lock);
    if (ex->bounds)
        llmm__free(ex->ctx, ex->bounds, (ex->nslots - 1) * sizeof *ex->bounds);
    llmm__free(ex->ctx, ex, sizeof *ex);
}

static llmm_exemplar_shard *shard_make(llmm_exemplars *ex)
{
    llmm_exemplar_shard *sh = llmm__calloc(ex->ctx, 1, sizeof *sh);
    uint32_t i, k;
    if (!sh)
        return NULL;
    sh->slots = llmm__calloc(ex->ctx, ex->nslots, sizeof *sh->slots);
    if (!sh->slots) {
        llmm__free(ex->ctx, sh, sizeof *sh);
        return NULL;
    }
    for (i = 0; i < ex->nslots; i++)
        for (k = 0; k < SLOT_WORDS; k++)
            atomic_init(&sh->slots[i].w[k], 0);
    sh->owner = ex;
    return sh;
}

llmm_status llmm_exemplars_shard(llmm_exemplars *ex, llmm_exemplar_shard **out)
{
    llmm_exemplar_shard *sh;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (!ex)
        return LLMM_E_INVALID;
    pthread_mutex_lock(&ex->lock);
    for (sh = atomic_load_explicit(&ex->shards, memory_order_relaxed); sh;
         sh = atomic_load_explicit(&sh->next, memory_order_relaxed))
        if (!sh->in_use)
            break;
    if (!sh && (sh = shard_make(ex)) != NULL) {
        atomic_init(&sh->next, atomic_load_explicit(&ex->shards, memory_order_relaxed));
        atomic_store_explicit(&ex->shards, sh, memory_order_release);
    }
    if (sh)
        sh->in_use = 1;
    pthread_mutex_unlock(&ex->lock);
    *out = sh;
    return sh ? LLMM_OK : LLMM_E_NOMEM;
}

void llmm_exemplar_shard_release(llmm_exemplar_shard *sh)
{
    if (!sh)
        return;
    pthread_mutex_lock(&sh->owner->lock);
    sh->in_use = 0;
    pthread_mutex_unlock(&sh->owner->lock);
}

llmm_status llmm_exemplars_roll(llmm_exemplars *ex)
{
    if (!ex)
        return LLMM_E_INVALID;
    atomic_fetch_add_explicit(&ex->epoch, 1, memory_order_relaxed);
    return LLMM_OK;
}

uint32_t llmm_exemplars_slots(const llmm_exemplars *ex)
{
    return ex ? ex->nslots : 0;
}

/* Slot of a value: the number of bounds below it. */
static uint32_t slot_of(const llmm_exemplars *ex, double v)
{
    uint32_t lo = 0, hi = ex->nslots - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v <= ex->bounds[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static uint64_t dbits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double bitsd(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* One exemplar as the slot holds it, with its interval; `seen` is 0 for a never-written slot. */
typedef struct held {
    llmm_exemplar e;
    uint64_t epoch;
    int seen;
} held;

/* Whether `a` should be kept rather than `b` (b already held). */
static int better(llmm_exemplar_keep keep, uint64_t epoch, const held *a, const held *b)
{
    if (!b->seen)
        return a->seen;
    if (!a->seen)
        return 0;
    if (keep == LLMM_EXEMPLAR_MAX) {
        int ac = a->epoch == epoch, bc = b->epoch == epoch;
        if (ac != bc)
            return ac;
        return a->e.value > b->e.value;
    }
    return a->e.time_unix_nano > b->e.time_unix_nano;
}

llmm_status llmm_exemplar_shard_record(llmm_exemplar_shard *sh, double value,
                                       const uint8_t *trace_id, const uint8_t *span_id,
                                       uint64_t time_unix_nano, const char *labels)
{
    const llmm_exemplars *ex;
    slot *sl;
    uint64_t seq, epoch, words[LLMM_EXEMPLAR_LABELS_MAX / 8];
    size_t n, k;

    if (!sh || !llmm__is_finite(value) || (trace_id && llmm__all_zero(trace_id, 16)) ||
        (span_id && llmm__all_zero(span_id, 8)))
        return LLMM_E_INVALID;
    if (llmm__exemplar_labels_check(labels, trace_id != NULL, span_id != NULL) != LLMM_OK)
        return LLMM_E_INVALID;
    ex = sh->owner;
    sl = &sh->slots[slot_of(ex, value)];
    epoch = atomic_load_explicit(&ex->epoch, memory_order_relaxed);
    /* the writer reads its own slot: no retry needed */
    if (ex->keep == LLMM_EXEMPLAR_MAX &&
        atomic_load_explicit(&sl->w[W_EPOCH], memory_order_relaxed) == epoch &&
        !(value > bitsd(atomic_load_explicit(&sl->w[W_VALUE], memory_order_relaxed))))
        return LLMM_OK;
    if (ex->keep == LLMM_EXEMPLAR_LATEST &&
        atomic_load_explicit(&sl->w[W_TIME], memory_order_relaxed) > time_unix_nano)
        return LLMM_OK; /* a shard handed from thread to thread may see older times */

    memset(words, 0, sizeof words);
    n = labels ? strlen(labels) : 0;
    memcpy(words, labels ? labels : "", n);
    seq = atomic_load_explicit(&sl->w[W_SEQ], memory_order_relaxed);
    atomic_store_explicit(&sl->w[W_SEQ], seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&sl->w[W_VALUE], dbits(value), memory_order_relaxed);
    atomic_store_explicit(&sl->w[W_TIME], time_unix_nano, memory_order_relaxed);
    for (k = 0; k < 3; k++) {
        uint64_t v = 0;
        const uint8_t *src = k < 2 ? trace_id : span_id;
        if (src)
            memcpy(&v, src + (k < 2 ? 8 * k : 0), 8);
        atomic_store_explicit(&sl->w[W_TRACE + k], v, memory_order_relaxed);
    }
    atomic_store_explicit(&sl->w[W_EPOCH], epoch, memory_order_relaxed);
    for (k = 0; k < LLMM_EXEMPLAR_LABELS_MAX / 8; k++)
        atomic_store_explicit(&sl->w[W_LABELS + k], words[k], memory_order_relaxed);
    atomic_store_explicit(&sl->w[W_SEQ], seq + 2, memory_order_release);
    return LLMM_OK;
}

/* A consistent copy of one shard's slot. */
static void read_slot(const slot *sl, held *h)
{
    uint64_t w[SLOT_WORDS], s1, s2;
    size_t k;
    for (;;) {
        s1 = atomic_load_explicit(&sl->w[W_SEQ], memory_order_acquire);
        for (k = 1; k < SLOT_WORDS; k++)
            w[k] = atomic_load_explicit(&sl->w[k], memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        s2 = atomic_load_explicit(&sl->w[W_SEQ], memory_order_relaxed);
        if (s1 == s2 && !(s1 & 1))
            break;
    }
    memset(h, 0, sizeof *h);
    h->seen = s1 != 0;
    h->epoch = w[W_EPOCH];
    h->e.struct_size = (uint32_t)sizeof h->e;
    h->e.value = bitsd(w[W_VALUE]);
    h->e.time_unix_nano = w[W_TIME];
    memcpy(h->e.trace_id, &w[W_TRACE], 8);
    memcpy(h->e.trace_id + 8, &w[W_TRACE + 1], 8);
    memcpy(h->e.span_id, &w[W_SPAN], 8);
    memcpy(h->e.labels, &w[W_LABELS], LLMM_EXEMPLAR_LABELS_MAX);
    h->e.labels[LLMM_EXEMPLAR_LABELS_MAX - 1] = '\0';
}

/* The best copy of slot i among the shards. */
static void merged(const llmm_exemplars *ex, uint32_t i, held *best)
{
    uint64_t epoch = atomic_load_explicit(&ex->epoch, memory_order_relaxed);
    const llmm_exemplar_shard *sh;
    held h;
    best->seen = 0;
    for (sh = atomic_load_explicit(&ex->shards, memory_order_acquire); sh;
         sh = atomic_load_explicit(&sh->next, memory_order_acquire)) {
        read_slot(&sh->slots[i], &h);
        if (better(ex->keep, epoch, &h, best))
            *best = h;
    }
}

llmm_status llmm_exemplars_get(const llmm_exemplars *ex, uint32_t slot_i, llmm_exemplar *e)
{
    held h;
    llmm_status st;
    if (!ex || !e || slot_i >= ex->nslots)
        return LLMM_E_INVALID;
    if ((st = LLMM__SIZED_CHECK(llmm_exemplar, e)) != LLMM_OK)
        return st;
    merged(ex, slot_i, &h);
    if (!h.seen)
        return LLMM_E_EMPTY;
    LLMM__SIZED_PUT(llmm_exemplar, e, &h.e);
    return LLMM_OK;
}

/* ---- selection for the encoders ------------------------------------------------------- */

void llmm__exsel_init(llmm__exsel *x, const llmm_exemplars *ex, double f)
{
    memset(x, 0, sizeof *x);
    x->ex = ex;
    x->f = f;
}

int llmm__exsel_pick(llmm__exsel *x, double lo, double hi, llmm_exemplar *out)
{
    const llmm_exemplars *ex = x->ex;
    uint64_t epoch;
    held best, h;
    if (!ex)
        return 0;
    epoch = atomic_load_explicit(&ex->epoch, memory_order_relaxed);
    best.seen = 0;
    while (x->slot < ex->nslots) {
        double v;
        merged(ex, x->slot, &h);
        v = h.e.value * x->f;
        if (h.seen && v > hi)
            break; /* a later bucket's: read again then */
        if (h.seen && v > lo && better(ex->keep, epoch, &h, &best))
            best = h;
        x->slot++;
    }
    if (best.seen)
        *out = best.e;
    return best.seen;
}

int llmm__exemplars_best(const llmm_exemplars *ex, llmm_exemplar *out)
{
    llmm__exsel x;
    llmm__exsel_init(&x, ex, 1.0);
    return llmm__exsel_pick(&x, -HUGE_VAL, HUGE_VAL, out);
}
