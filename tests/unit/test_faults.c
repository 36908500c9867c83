/* Fault injection across every allocating public call (issue 18).
 *
 * Each case builds some state with a counting allocator (no failures), then runs ONE call with
 * the k-th allocation of that call failing, for k = 1, 2, ... until the call gets through
 * without a failure. For every k it checks:
 *   - the call returns LLMM_E_NOMEM;
 *   - the observable state of every object involved is exactly what it was before the call
 *     (compared field by field and bucket by bucket with a run that never made the call);
 *   - retrying the same call without failures succeeds and leaves exactly the state of a run
 *     that never failed (so the failure corrupted nothing hidden, e.g. caches);
 *   - after freeing everything, zero bytes and zero blocks are left and every free named the
 *     size that was allocated.
 * The module tests already run their constructors this way; this file covers the other calls
 * that may allocate (growth, merges, snapshots, window queries, detector re-basing, ...). */
#include "helpers.h"

#define SEC UINT64_C(1000000000)
#define MS UINT64_C(1000000)

/* ---- observable state as bytes ----------------------------------------------------------- */

typedef struct fp {
    uint8_t *p;
    size_t n, cap;
} fp;

static void fp_put(fp *f, const void *d, size_t n)
{
    if (f->n + n > f->cap) {
        size_t c = f->cap ? f->cap * 2 : 256;
        while (c < f->n + n)
            c *= 2;
        f->p = realloc(f->p, c);
        assert_non_null(f->p);
        f->cap = c;
    }
    memcpy(f->p + f->n, d, n);
    f->n += n;
}

static void fp_u64(fp *f, uint64_t v)
{
    fp_put(f, &v, sizeof v);
}

static void fp_f64(fp *f, double v)
{
    fp_put(f, &v, sizeof v); /* bits: the retry must reproduce even the sum exactly */
}

/* Everything the public API shows of a sketch. */
static void fp_sketch(fp *f, const llmm_sketch *s)
{
    uint64_t z, u, o;
    double lo, hi, x;
    int32_t a, b;
    fp_u64(f, s != NULL);
    if (!s)
        return;
    fp_u64(f, (uint64_t)llmm_sketch_scale(s));
    assert_ok(llmm_sketch_range(s, &lo, &hi));
    fp_f64(f, lo);
    fp_f64(f, hi);
    fp_u64(f, llmm_sketch_count(s));
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    fp_u64(f, z);
    fp_u64(f, u);
    fp_u64(f, o);
    if (llmm_sketch_count(s)) {
        assert_ok(llmm_sketch_sum(s, &x));
        fp_f64(f, x);
        assert_ok(llmm_sketch_min(s, &x));
        fp_f64(f, x);
        assert_ok(llmm_sketch_max(s, &x));
        fp_f64(f, x);
    }
    if (llmm_sketch_bucket_span(s, &a, &b) == LLMM_OK) {
        for (int32_t i = a; i <= b; i++) {
            uint64_t c = llmm_sketch_bucket_count(s, i);
            if (c) {
                fp_u64(f, (uint64_t)(int64_t)i);
                fp_u64(f, c);
            }
        }
    }
}

/* ---- one box holds every object a case may use ------------------------------------------- */

typedef struct box {
    llmm_ctx *ctx;
    llmm_sketch *s, *t, *out;
    llmm_recorder *rec;
    llmm_shard *sh[2];
    llmm_window *w;
    llmm_spike *d;
    llmm_scorecard *sc;
    llmm_prom_writer *pw;
    llmm_ratio_window *rw;
    llmm_lii_monitor *lii;
    llmm_slo_window *slo;
    llmm_burn *burn;
    llmm_error_trigger *trig;
    llmm_goodput *gp;
    llmm_kv_hit_tracker *kv;
    llmm_tlb_monitor *tlb;
    llmm_saturation *sat;
    llmm_exemplars *ex;
    uint64_t now;        /* last accepted time stamp of w / d */
    llmm_status last;    /* status of the call under test */
    double res[4];       /* results of the call under test */
    llmm_spike_level lv;
    uint8_t buf[4096];   /* output of an exporter call */
    size_t len;          /* set only when the call succeeded */
} box;

static llmm_sketch *mk(llmm_ctx *ctx, int32_t scale)
{
    llmm_sketch *s = NULL;
    assert_ok(llmm_sketch_new(ctx, scale, &s));
    return s;
}

static void fill(llmm_sketch *s, double lo, double ratio, int n)
{
    for (int i = 0; i < n; i++)
        assert_ok(llmm_sketch_add(s, lo * pow(ratio, i)));
}

static void fp_window(fp *f, llmm_window *w, uint64_t now)
{
    uint64_t slot_ns, c;
    uint32_t slots;
    assert_ok(llmm_window_geometry(w, &slot_ns, &slots));
    const uint32_t spans[3] = {1, slots > 3 ? 3 : slots, slots};
    for (int i = 0; i < 3; i++) {
        uint64_t span = spans[i];
        llmm_sketch *tmp = mk(NULL, LLMM_SCALE_DEFAULT);
        assert_ok(llmm_window_count(w, now, span * slot_ns, &c));
        fp_u64(f, c);
        assert_ok(llmm_window_snapshot(w, now, span * slot_ns, tmp));
        fp_sketch(f, tmp);
        llmm_sketch_free(tmp);
    }
}

static void fp_spike(fp *f, llmm_spike *d, uint64_t now)
{
    llmm_spike_stats st;
    double rate = -1.0;
    uint64_t u;
    assert_ok(llmm_spike_stats_init(&st));
    assert_ok(llmm_spike_get_stats(d, now, &st));
    fp_put(f, &st, sizeof st);
    fp_u64(f, (uint64_t)(int64_t)llmm_spike_rate(d, now, &rate));
    fp_f64(f, rate);
    for (int k = LLMM_SPIKE_WARMUP; k <= LLMM_SPIKE_SCALE; k++) {
        assert_ok(llmm_spike_get_u64(d, (llmm_spike_option)k, &u));
        fp_u64(f, u);
    }
}

static void fp_scorecard(fp *f, const llmm_scorecard *sc)
{
    llmm_score_result r;
    double s;
    uint32_t id;
    assert_ok(llmm_score_result_init(&r));
    fp_u64(f, (uint64_t)(int64_t)llmm_scorecard_evaluate(sc, &r));
    fp_put(f, &r, sizeof r);
    for (id = 0; llmm_scorecard_metric_score(sc, id, &s) != LLMM_E_INVALID; id++)
        fp_f64(f, s);
    fp_u64(f, id);
}

/* The state of every object in the box. May change caches (and the writer: it ends the open
 * family), so the driver takes it last. */
static void fp_box(fp *f, box *b)
{
    fp_sketch(f, b->s);
    fp_sketch(f, b->t);
    fp_sketch(f, b->out);
    fp_u64(f, b->rec != NULL);
    if (b->rec) {
        llmm_sketch *tmp = mk(NULL, LLMM_SCALE_DEFAULT);
        assert_ok(llmm_recorder_snapshot(b->rec, tmp));
        fp_sketch(f, tmp);
        llmm_sketch_free(tmp);
    }
    fp_u64(f, b->sh[0] != NULL);
    fp_u64(f, b->sh[1] != NULL);
    fp_u64(f, b->w != NULL);
    if (b->w)
        fp_window(f, b->w, b->now);
    fp_u64(f, b->d != NULL);
    if (b->d)
        fp_spike(f, b->d, b->now);
    fp_u64(f, b->sc != NULL);
    if (b->sc)
        fp_scorecard(f, b->sc);
    fp_u64(f, b->pw != NULL);
    if (b->pw) {
        const uint8_t *data;
        size_t len;
        assert_ok(llmm_prom_writer_data(b->pw, &data, &len));
        fp_u64(f, len);
        fp_put(f, data, len);
    }
    fp_u64(f, b->rw != NULL);
    if (b->rw) {
        uint64_t e, t;
        assert_ok(llmm_ratio_window_counts(b->rw, b->now, SEC, &e, &t));
        fp_u64(f, e);
        fp_u64(f, t);
    }
    fp_u64(f, b->lii != NULL);
    if (b->lii) {
        llmm_lii_reading r;
        assert_ok(llmm_lii_reading_init(&r));
        fp_u64(f, (uint64_t)(int64_t)llmm_lii_monitor_read(b->lii, &r));
        fp_put(f, &r, sizeof r);
    }
    fp_u64(f, b->slo != NULL);
    if (b->slo) {
        llmm_slo_result r;
        const uint64_t spans[3] = {100 * MS, 300 * MS, 800 * MS};
        for (int i = 0; i < 3; i++) {
            assert_ok(llmm_slo_result_init(&r));
            assert_ok(llmm_slo_window_check(b->slo, b->now, spans[i], 0.9, 5.0, 0.1, &r));
            fp_put(f, &r, sizeof r);
        }
    }
    fp_u64(f, b->burn != NULL);
    fp_u64(f, b->trig != NULL);
    fp_u64(f, b->gp != NULL);
    fp_u64(f, b->kv != NULL);
    fp_u64(f, b->tlb != NULL);
    fp_u64(f, b->sat != NULL);
    if (b->sat) {
        uint64_t w;
        assert_ok(llmm_saturation_get_u64(b->sat, LLMM_SATURATION_WINDOW, &w));
        fp_u64(f, w);
    }
    fp_u64(f, b->ex != NULL);
    for (uint32_t i = 0; b->ex && i < llmm_exemplars_slots(b->ex); i++) {
        llmm_exemplar e;
        llmm_exemplar_init(&e);
        fp_u64(f, (uint64_t)(int64_t)llmm_exemplars_get(b->ex, i, &e));
        fp_put(f, &e, sizeof e);
    }
    fp_u64(f, b->len);
    fp_put(f, b->buf, b->len);
    fp_u64(f, b->now);
    fp_put(f, b->res, sizeof b->res);
    fp_u64(f, (uint64_t)b->lv);
}

static void box_free(box *b)
{
    llmm_sketch_free(b->s);
    llmm_sketch_free(b->t);
    llmm_sketch_free(b->out);
    llmm_shard_release(b->sh[0]);
    llmm_shard_release(b->sh[1]);
    llmm_recorder_free(b->rec);
    llmm_window_free(b->w);
    llmm_spike_free(b->d);
    llmm_scorecard_free(b->sc);
    llmm_prom_writer_free(b->pw);
    llmm_ratio_window_free(b->rw);
    llmm_lii_monitor_free(b->lii);
    llmm_slo_window_free(b->slo);
    llmm_burn_free(b->burn);
    llmm_error_trigger_free(b->trig);
    llmm_goodput_free(b->gp);
    llmm_kv_hit_tracker_free(b->kv);
    llmm_tlb_monitor_free(b->tlb);
    llmm_saturation_free(b->sat);
    llmm_exemplars_free(b->ex);
}

/* ---- the driver -------------------------------------------------------------------------- */

typedef struct fault_case {
    const char *name;
    void (*setup)(box *b);            /* allocations here never fail */
    llmm_status (*call)(box *b);      /* the call under test */
    size_t min_allocs;                /* the call must allocate at least this often */
} fault_case;

typedef enum { RUN_PLAIN, RUN_FAIL, RUN_FAIL_RETRY } run_mode;

/* One run; returns 1 when an allocation was failed. The state is appended to f. */
static int run_once(const fault_case *c, run_mode mode, size_t k, int call, fp *f,
                    size_t *allocs)
{
    llmm_test_alloc t;
    box b;
    llmm_status st;
    int failed;
    memset(&b, 0, sizeof b);
    b.ctx = llmm_test_ctx(&t, 0);
    assert_non_null(b.ctx);
    if (c->setup)
        c->setup(&b);
    if (!call) {
        fp_box(f, &b);
        box_free(&b);
        llmm_ctx_free(b.ctx);
        assert_int_equal(t.live_bytes, 0);
        return 0;
    }
    t.fail_at = mode == RUN_PLAIN ? 0 : t.calls + k;
    {
        size_t before = t.calls;
        st = c->call(&b);
        if (allocs)
            *allocs = t.calls - before;
    }
    t.fail_at = 0;
    failed = t.failures != 0;
    if (!failed) {
        if (st != LLMM_OK)
            fail_msg("%s: the call returned %s without a failed allocation", c->name,
                     llmm_status_name(st));
    } else {
        if (st != LLMM_E_NOMEM)
            fail_msg("%s: allocation %zu failed but the call returned %s", c->name, k,
                     llmm_status_name(st));
        if (mode == RUN_FAIL_RETRY) {
            st = c->call(&b);
            if (st != LLMM_OK)
                fail_msg("%s: retry after failing allocation %zu returned %s", c->name, k,
                         llmm_status_name(st));
        }
    }
    fp_box(f, &b);
    box_free(&b);
    assert_int_equal(t.size_mismatch, 0);
    assert_int_equal(t.live_blocks, 1); /* the ctx itself */
    llmm_ctx_free(b.ctx);
    assert_int_equal(t.live_bytes, 0);
    return failed;
}

static void expect_same(const fp *got, const fp *want, const char *name, const char *what,
                        size_t k)
{
    if (got->n != want->n || memcmp(got->p, want->p, got->n) != 0)
        fail_msg("%s: failing allocation %zu: %s differs", name, k, what);
}

static void run_case(void **state)
{
    const fault_case *c = (const fault_case *)*state;
    fp before = {0}, after = {0};
    size_t allocs = 0, k;
    run_once(c, RUN_PLAIN, 0, 0, &before, NULL); /* state without the call */
    run_once(c, RUN_PLAIN, 0, 1, &after, &allocs);
    if (allocs < c->min_allocs)
        fail_msg("%s: the call allocated %zu times, expected >= %zu (the case no longer "
                 "reaches the allocating path)", c->name, allocs, c->min_allocs);
    print_message("# %s: %zu allocations in the call, each failed in turn\n", c->name, allocs);
    for (k = 1; k <= allocs + 1; k++) {
        fp f1 = {0}, f2 = {0};
        int failed = run_once(c, RUN_FAIL, k, 1, &f1, NULL);
        if (!failed) {
            assert_true(k == allocs + 1);
            expect_same(&f1, &after, c->name, "state after success", k);
        } else {
            assert_true(k <= allocs);
            expect_same(&f1, &before, c->name, "state after the failed call", k);
            assert_true(run_once(c, RUN_FAIL_RETRY, k, 1, &f2, NULL));
            expect_same(&f2, &after, c->name, "state after the retry", k);
        }
        free(f1.p);
        free(f2.p);
    }
    free(before.p);
    free(after.p);
}

/* ---- sketch ------------------------------------------------------------------------------ */

static void set_sketch_1_100(box *b)
{
    b->s = mk(b->ctx, 6);
    fill(b->s, 1.0, 1.05, 95); /* 1 ... 100 */
}
static llmm_status call_new(box *b)
{
    return llmm_sketch_new(b->ctx, 6, &b->s);
}
static void set_empty(box *b)
{
    b->s = mk(b->ctx, 6);
}
static llmm_status call_add_first(box *b)
{
    return llmm_sketch_add(b->s, 0.25);
}
static llmm_status call_add_below(box *b)
{
    return llmm_sketch_add(b->s, 1e-6);
}
static llmm_status call_add_above(box *b)
{
    return llmm_sketch_add(b->s, 1e9);
}
static llmm_status call_add_n_widen(box *b)
{
    return llmm_sketch_add_n(b->s, 50.0, UINT64_C(5000000000));
}
static llmm_status call_add_many_spread(box *b)
{
    const double v[] = {3.0, 0.0, 1e-12, 1e-7, 2e-3, 40.0, 7e5, 1e11, 1e16, 5.5};
    return llmm_sketch_add_many(b->s, v, sizeof v / sizeof *v);
}
static void set_nearly_wide(box *b)
{
    b->s = mk(b->ctx, 6);
    assert_ok(llmm_sketch_add_n(b->s, 10.0, UINT64_C(4294967000)));
}
static llmm_status call_add_many_widen(box *b)
{
    double v[400];
    for (int i = 0; i < 400; i++)
        v[i] = 1.0 + i * 0.1;
    return llmm_sketch_add_many(b->s, v, 400);
}
static void set_two_disjoint(box *b)
{
    set_sketch_1_100(b);
    b->t = mk(b->ctx, 6);
    fill(b->t, 1e3, 1.1, 100);
}
static llmm_status call_merge(box *b)
{
    return llmm_sketch_merge(b->s, b->t);
}
static void set_wide_src(box *b)
{
    set_sketch_1_100(b);
    b->t = mk(b->ctx, 6);
    assert_ok(llmm_sketch_add_n(b->t, 7.0, UINT64_C(5000000000)));
    fill(b->t, 0.01, 1.3, 30);
}
static void set_narrow_overflow(box *b)
{
    b->s = mk(b->ctx, 6);
    b->t = mk(b->ctx, 6);
    assert_ok(llmm_sketch_add_n(b->s, 3.0, UINT64_C(3000000000)));
    assert_ok(llmm_sketch_add_n(b->t, 3.0, UINT64_C(3000000000)));
    fill(b->t, 2.0, 1.01, 50);
}
static void set_finer_into_coarser(box *b)
{
    b->s = mk(b->ctx, 3);
    fill(b->s, 0.5, 1.2, 40);
    b->t = mk(b->ctx, 8);
    fill(b->t, 2.0, 1.07, 200);
}
static void set_coarser_into_finer(box *b)
{
    b->s = mk(b->ctx, 8);
    fill(b->s, 0.5, 1.02, 300);
    b->t = mk(b->ctx, 2);
    fill(b->t, 0.1, 1.5, 30);
}
static void set_other_range(box *b)
{
    b->s = mk(b->ctx, 6);
    assert_ok(llmm_sketch_set_range(b->s, 1e-3, 1e3));
    fill(b->s, 0.01, 1.2, 30);
    b->t = mk(b->ctx, 6);
    fill(b->t, 1e-6, 1.5, 60); /* 1e-6 ... 2e4: some below, some above s's range */
}
static void set_fine(box *b)
{
    b->s = mk(b->ctx, 8);
    fill(b->s, 0.001, 1.03, 500);
}
static llmm_status call_downscale(box *b)
{
    return llmm_sketch_downscale(b->s, 3);
}
static llmm_status call_copy(box *b)
{
    return llmm_sketch_copy(b->s, b->t);
}
static llmm_status call_clone(box *b)
{
    return llmm_sketch_clone(b->t, &b->out);
}

/* ---- recorder ---------------------------------------------------------------------------- */

static llmm_status call_recorder_new(box *b)
{
    return llmm_recorder_new(b->ctx, 6, &b->rec);
}
static void set_recorder(box *b)
{
    assert_ok(llmm_recorder_new(b->ctx, 6, &b->rec));
}
static llmm_status call_shard(box *b)
{
    return llmm_recorder_shard(b->rec, &b->sh[b->sh[0] ? 1 : 0]);
}
static void set_recorder_shard(box *b)
{
    const double v[] = {0.5, 1.0, 2.0, 3.0};
    set_recorder(b);
    assert_ok(llmm_recorder_shard(b->rec, &b->sh[0]));
    assert_ok(llmm_shard_add_many(b->sh[0], v, 4));
}
static llmm_status call_shard_add(box *b)
{
    return llmm_shard_add(b->sh[0], 1e6);
}
static llmm_status call_shard_add_many(box *b)
{
    double v[24];
    for (int i = 0; i < 24; i++)
        v[i] = 1e-8 * pow(10.0, i * 0.9); /* 1e-8 ... 1e13: a new page for most */
    v[5] = 0.0;
    return llmm_shard_add_many(b->sh[0], v, 24);
}
static llmm_status call_shard_add_many_long(box *b)
{
    /* longer than one internal chunk: the pages of the last values are made last */
    static double v[3000];
    for (int i = 0; i < 3000; i++)
        v[i] = i < 2990 ? 1.0 + (i % 7) : 1e-8 * pow(10.0, (i - 2990) * 2.0);
    return llmm_shard_add_many(b->sh[0], v, 3000);
}
static void set_recorder_and_into(box *b)
{
    set_recorder_shard(b);
    assert_ok(llmm_shard_add(b->sh[0], 1e4));
    b->s = mk(b->ctx, 4);
    fill(b->s, 1e-3, 2.0, 20);
}
static llmm_status call_recorder_snapshot(box *b)
{
    return llmm_recorder_snapshot(b->rec, b->s);
}

/* ---- window ------------------------------------------------------------------------------ */

static llmm_status call_window_new(box *b)
{
    return llmm_window_new(b->ctx, 100 * MS, 8, 6, &b->w);
}
static void set_window_empty(box *b)
{
    assert_ok(llmm_window_new(b->ctx, 100 * MS, 8, 6, &b->w));
}
/* slots 0 ... n-1 filled with a drifting distribution, 20 values each */
static void set_window_n(box *b, uint64_t n)
{
    set_window_empty(b);
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t i = 0; i < 20; i++) {
            b->now = s * 100 * MS + i * MS;
            assert_ok(llmm_window_add(b->w, b->now, 1.0 + (double)s + 0.05 * (double)i));
        }
}
static void set_window_6(box *b)
{
    set_window_n(b, 6);
}
static void set_window_11(box *b)
{
    uint64_t c;
    double q;
    set_window_n(b, 11);
    /* move the running merge to slot 10 so that a later query advances it */
    assert_ok(llmm_window_quantile(b->w, b->now, 800 * MS, 0.5, &q));
    assert_ok(llmm_window_count(b->w, b->now, 800 * MS, &c));
}
static llmm_status window_add_at(box *b, uint64_t t, double v)
{
    llmm_status st = llmm_window_add(b->w, t, v);
    if (st == LLMM_OK)
        b->now = t;
    return st;
}
static llmm_status call_window_add_first(box *b)
{
    return window_add_at(b, 50 * MS, 2.0);
}
static llmm_status call_window_add_same_slot_far(box *b)
{
    return window_add_at(b, b->now + MS, 1e7);
}
static llmm_status call_window_add_new_slot(box *b)
{
    return window_add_at(b, b->now + 100 * MS, 1e-4);
}
static llmm_status call_window_add_recycle(box *b)
{
    /* slot 13 reuses the entry of slot 5, which the running merge covers */
    return window_add_at(b, 13 * 100 * MS + 5 * MS, 1e5);
}
static llmm_status call_window_add_many(box *b)
{
    const double v[] = {0.0, 1e-3, 5.0, 3e4, 2.0};
    uint64_t t = b->now + 250 * MS;
    llmm_status st = llmm_window_add_many(b->w, t, v, 5);
    if (st == LLMM_OK)
        b->now = t;
    return st;
}
static llmm_status window_query(box *b, uint64_t t, uint64_t span)
{
    const double q[4] = {0.0, 0.5, 0.99, 1.0};
    llmm_status st = llmm_window_quantiles(b->w, t, span, q, 4, b->res);
    if (st == LLMM_OK)
        b->now = t;
    return st;
}
static llmm_status call_window_query_whole(box *b)
{
    return window_query(b, b->now, 800 * MS);
}
static llmm_status call_window_query_partial(box *b)
{
    return window_query(b, b->now, 300 * MS);
}
static llmm_status call_window_query_advance(box *b)
{
    return window_query(b, b->now + 300 * MS, 800 * MS);
}
static void set_window_and_into(box *b)
{
    set_window_n(b, 6);
    b->s = mk(b->ctx, 2);
    fill(b->s, 1e-3, 3.0, 20);
}
static llmm_status call_window_snapshot(box *b)
{
    llmm_status st = llmm_window_snapshot(b->w, b->now + 100 * MS, 800 * MS, b->s);
    if (st == LLMM_OK)
        b->now += 100 * MS;
    return st;
}

/* ---- spike detector ---------------------------------------------------------------------- */

static void set_spike_geometry(box *b)
{
    assert_ok(llmm_spike_new(b->ctx, &b->d));
}
static llmm_status call_spike_slots(box *b)
{
    return llmm_spike_set_u64(b->d, LLMM_SPIKE_SLOTS, 16);
}
static llmm_status call_spike_slot_ns(box *b)
{
    return llmm_spike_set_u64(b->d, LLMM_SPIKE_SLOT_NS, 250 * MS);
}
static llmm_status call_spike_scale(box *b)
{
    return llmm_spike_set_u64(b->d, LLMM_SPIKE_SCALE, 4);
}
/* 8 slots of 100 ms, warm-up 30, 40 samples in each of slots 0 ... n-1 */
static void set_spike_n(box *b, uint64_t n)
{
    uint64_t x = 7;
    assert_ok(llmm_spike_new(b->ctx, &b->d));
    assert_ok(llmm_spike_set_u64(b->d, LLMM_SPIKE_SLOT_NS, 100 * MS));
    assert_ok(llmm_spike_set_u64(b->d, LLMM_SPIKE_SLOTS, 8));
    assert_ok(llmm_spike_set_u64(b->d, LLMM_SPIKE_WARMUP, 30));
    for (uint64_t s = 0; s < n; s++)
        for (uint64_t i = 0; i < 40; i++) {
            b->now = s * 100 * MS + i * 2 * MS;
            assert_ok(llmm_spike_observe(b->d, b->now, lognormal(&x, 1.0 + 0.1 * (double)s,
                                                                  0.5), NULL));
        }
}
static void set_spike_0(box *b)
{
    set_spike_n(b, 0);
}
static void set_spike_5(box *b)
{
    set_spike_n(b, 5);
}
static void set_spike_11(box *b)
{
    set_spike_n(b, 11);
}
static llmm_status spike_observe_at(box *b, uint64_t t, double v)
{
    llmm_status st = llmm_spike_observe(b->d, t, v, &b->lv);
    if (st == LLMM_OK)
        b->now = t;
    return st;
}
static llmm_status call_spike_observe_first(box *b)
{
    return spike_observe_at(b, 5 * MS, 1.5);
}
static llmm_status call_spike_observe_same_slot(box *b)
{
    return spike_observe_at(b, b->now + MS, 1e4); /* a new extreme: the slot sketch grows */
}
static llmm_status call_spike_observe_new_slot(box *b)
{
    return spike_observe_at(b, b->now + 100 * MS, 40.0); /* re-basing, then the spare */
}
static llmm_status call_spike_observe_jump(box *b)
{
    return spike_observe_at(b, b->now + 300 * MS, 1e-3);
}
static llmm_status call_spike_stats_later(box *b)
{
    llmm_spike_stats st;
    uint64_t t = b->now + 200 * MS;
    llmm_status r;
    llmm_spike_stats_init(&st);
    r = llmm_spike_get_stats(b->d, t, &st);
    if (r == LLMM_OK) {
        b->now = t;
        b->res[0] = st.base_threshold;
        b->res[1] = st.severe_threshold;
    }
    return r;
}

/* ---- scorecard --------------------------------------------------------------------------- */

static void set_scorecard(box *b)
{
    assert_ok(llmm_scorecard_new(b->ctx, LLMM_SCENARIO_CODE_ASSISTANT, &b->sc));
    assert_ok(llmm_scorecard_set_i32(b->sc, LLMM_SCORECARD_MISSING, LLMM_MISSING_RENORMALIZE));
}
static void set_scorecard_8(box *b)
{
    char name[16];
    set_scorecard(b);
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "m%d", i);
        assert_ok(llmm_scorecard_add_metric(b->sc, (llmm_layer)(i % 4), name,
                                            LLMM_HIGHER_IS_BETTER, 1.0, 0.0, 1.0 + i, NULL));
        assert_ok(llmm_scorecard_observe(b->sc, name, 0.1 * i));
    }
}
static llmm_status call_add_metric(box *b)
{
    llmm_status st = llmm_scorecard_add_metric(b->sc, LLMM_LAYER_PERFORMANCE, "p95_latency_s",
                                               LLMM_LOWER_IS_BETTER, 0.2, 2.0, 2.0, NULL);
    if (st == LLMM_OK)
        st = llmm_scorecard_observe(b->sc, "p95_latency_s", 0.5);
    return st;
}

/* ---- Prometheus writer ------------------------------------------------------------------- */

static void set_writer(box *b, llmm_prom_format f, llmm_prom_type type, const double *pts,
                       size_t n)
{
    b->t = mk(b->ctx, 6);
    fill(b->t, 1e-3, 1.1, 120);
    assert_ok(llmm_sketch_add(b->t, 0.0));
    assert_ok(llmm_prom_writer_new(b->ctx, f, &b->pw));
    assert_ok(llmm_prom_writer_family(b->pw, "llm_up", "Up.", LLMM_PROM_GAUGE, NULL, 0));
    assert_ok(llmm_prom_writer_value(b->pw, "a=\"1\"", 1.0));
    assert_ok(llmm_prom_writer_family(b->pw, "llm_latency_seconds", "Latency.", type, pts, n));
}
static const double QS[] = {0.5, 0.9, 0.99};
static const double EDGES[] = {0.01, 0.1, 1.0, 10.0};
static void set_writer_text_summary(box *b)
{
    set_writer(b, LLMM_PROM_TEXT, LLMM_PROM_SUMMARY, QS, 3);
}
static void set_writer_text_hist(box *b)
{
    set_writer(b, LLMM_PROM_TEXT, LLMM_PROM_HISTOGRAM, NULL, 0);
}
static void set_writer_pb_native(box *b)
{
    set_writer(b, LLMM_PROM_PROTOBUF, LLMM_PROM_NATIVE_HISTOGRAM, EDGES, 4);
}
static void set_writer_pb_hist(box *b)
{
    set_writer(b, LLMM_PROM_PROTOBUF, LLMM_PROM_HISTOGRAM, NULL, 0);
}
static llmm_status call_writer_family(box *b);
static void set_writer_om_hist(box *b)
{
    static const uint8_t trace[16] = {1, 2, 3}, span[8] = {4};
    llmm_exemplar_shard *xs;
    set_writer(b, LLMM_PROM_OPENMETRICS, LLMM_PROM_HISTOGRAM, EDGES, 4);
    assert_ok(llmm_exemplars_new(b->ctx, EDGES, 4, LLMM_EXEMPLAR_LATEST, &b->ex));
    assert_ok(llmm_exemplars_shard(b->ex, &xs));
    assert_ok(llmm_exemplar_shard_record(xs, 0.05, trace, span, 1733300000461000000u, NULL));
    assert_ok(llmm_exemplar_shard_record(xs, 5.0, trace, NULL, 1733300000461000001u, "k=\"v\""));
    llmm_exemplar_shard_release(xs);
}
static void set_writer_pb_native_ex(box *b)
{
    set_writer_om_hist(b);
    assert_ok(llmm_prom_writer_reset(b->pw, LLMM_PROM_PROTOBUF));
    assert_ok(llmm_prom_writer_family(b->pw, "n_seconds", NULL, LLMM_PROM_NATIVE_HISTOGRAM, NULL,
                                      0));
}
static llmm_status call_writer_sketch_ex(box *b)
{
    return llmm_prom_writer_sketch_exemplars(b->pw, "model=\"m\"", b->t, 1.0, b->ex);
}
static void set_writer_om_counter(box *b)
{
    set_writer_om_hist(b);
    assert_ok(call_writer_family(b));
}
static llmm_status call_writer_counter_ex(box *b)
{
    llmm_exemplar e;
    llmm_exemplar_init(&e);
    assert_ok(llmm_exemplars_get(b->ex, 1, &e)); /* 0.05 in (0.01, 0.1] */
    return llmm_prom_writer_value_exemplar(b->pw, "code=\"200\"", 12345.0, &e);
}
static llmm_status call_exemplars_new(box *b)
{
    return llmm_exemplars_new(b->ctx, EDGES, 4, LLMM_EXEMPLAR_MAX, &b->ex);
}
static void set_exemplars(box *b)
{
    assert_ok(call_exemplars_new(b));
}
static llmm_status call_exemplars_shard(box *b)
{
    llmm_exemplar_shard *xs = NULL;
    llmm_status st = llmm_exemplars_shard(b->ex, &xs);
    if (st == LLMM_OK)
        st = llmm_exemplar_shard_record(xs, 0.5, NULL, NULL, 7, NULL);
    return st;
}
static llmm_status call_writer_sketch(box *b)
{
    return llmm_prom_writer_sketch(b->pw, "model=\"m\\\"x\",gpu=\"0\"", b->t, 1.0);
}
static llmm_status call_writer_family(box *b)
{
    return llmm_prom_writer_family(b->pw, "llm_requests_total", "Requests.",
                                   LLMM_PROM_COUNTER, NULL, 0);
}
static llmm_status call_writer_family_value(box *b)
{
    llmm_status st = call_writer_family(b);
    if (st == LLMM_OK)
        st = llmm_prom_writer_value(b->pw, "code=\"200\"", 12345.0);
    return st;
}

/* ---- the remaining constructors and the OTLP delta (a clone inside) --------------------- */

static llmm_status call_ratio_new(box *b)
{
    return llmm_ratio_window_new(b->ctx, 100 * MS, 10, &b->rw);
}
static llmm_status call_lii_new(box *b)
{
    return llmm_lii_monitor_new(b->ctx, 16, &b->lii);
}
static llmm_status call_spike_new(box *b)
{
    return llmm_spike_new(b->ctx, &b->d);
}
static llmm_status call_scorecard_new(box *b)
{
    return llmm_scorecard_new(b->ctx, LLMM_SCENARIO_CUSTOMER_SERVICE, &b->sc);
}
static llmm_status call_writer_new(box *b)
{
    return llmm_prom_writer_new(b->ctx, LLMM_PROM_PROTOBUF, &b->pw);
}
static void set_interval(box *b)
{
    b->s = mk(b->ctx, 6);
    fill(b->s, 0.01, 1.2, 40);
    assert_ok(llmm_sketch_clone(b->s, &b->t));
    fill(b->t, 0.3, 1.1, 60);
}
static llmm_status call_otlp_delta(box *b)
{
    llmm_otlp_options o;
    size_t len = 0;
    llmm_status st;
    llmm_otlp_options_init(&o);
    o.temporality = LLMM_OTLP_DELTA;
    o.start_time_unix_nano = 1;
    o.time_unix_nano = 2;
    st = llmm_export_otlp_json(b->t, b->s, "llm_latency", &o, b->buf, sizeof b->buf, &len);
    if (st == LLMM_OK)
        b->len = len;
    return st;
}

/* ---- SLO window and the windowed monitors ------------------------------------------------ */

static llmm_status call_slo_new(box *b)
{
    return llmm_slo_window_new(b->ctx, 100 * MS, 8, 6, &b->slo);
}
static void set_slo(box *b)
{
    assert_ok(llmm_slo_window_new(b->ctx, 100 * MS, 8, 6, &b->slo));
    for (uint64_t s = 0; s < 6; s++) {
        for (uint64_t i = 0; i < 10; i++) {
            b->now = s * 100 * MS + i * MS;
            assert_ok(llmm_slo_window_add(b->slo, b->now, 0.5 + 0.1 * (double)(s + i)));
        }
        assert_ok(llmm_slo_window_add_errors(b->slo, b->now, s));
    }
}
static llmm_status call_slo_add_far(box *b)
{
    llmm_status st = llmm_slo_window_add(b->slo, b->now + MS, 1e6);
    if (st == LLMM_OK)
        b->now += MS;
    return st;
}
static llmm_status call_slo_check(box *b)
{
    llmm_slo_result r;
    llmm_status st;
    llmm_slo_result_init(&r);
    st = llmm_slo_window_check(b->slo, b->now + 100 * MS, 500 * MS, 0.95, 2.0, 0.05, &r);
    if (st == LLMM_OK) {
        b->now += 100 * MS;
        b->res[0] = r.latency;
        b->res[1] = r.error_rate;
    }
    return st;
}
static llmm_status call_burn_new(box *b)
{
    return llmm_burn_new(b->ctx, 0.999, 0, 0, &b->burn);
}
static llmm_status call_trigger_new(box *b)
{
    return llmm_error_trigger_new(b->ctx, 10 * SEC, &b->trig);
}
static llmm_status call_goodput_new(box *b)
{
    return llmm_goodput_new(b->ctx, &b->gp);
}
static llmm_status call_kv_new(box *b)
{
    return llmm_kv_hit_tracker_new(b->ctx, 10 * SEC, &b->kv);
}
static llmm_status call_tlb_new(box *b)
{
    return llmm_tlb_monitor_new(b->ctx, LLMM_TLB_OLTP_DATABASE, &b->tlb);
}
static llmm_status call_tlb_new_custom(box *b)
{
    return llmm_tlb_monitor_new_custom(b->ctx, 0.05, 2 * SEC, &b->tlb);
}

/* ---- saturation window, sketch decoding ------------------------------------------------- */

static void set_saturation(box *b)
{
    assert_ok(llmm_saturation_new(b->ctx, &b->sat));
}
static llmm_status call_saturation_window(box *b)
{
    return llmm_saturation_set_u64(b->sat, LLMM_SATURATION_WINDOW, 40);
}
static void set_encoded(box *b)
{
    llmm_sketch *s = mk(NULL, 5);
    fill(s, 1e-4, 1.3, 60);
    assert_ok(llmm_sketch_add_n(s, 0.0, 3));
    assert_status(llmm_sketch_serialize(s, NULL, 0, &b->len), LLMM_E_BUFFER);
    assert_true(b->len <= sizeof b->buf);
    assert_ok(llmm_sketch_serialize(s, b->buf, sizeof b->buf, &b->len));
    llmm_sketch_free(s);
}
static llmm_status call_deserialize(box *b)
{
    return llmm_sketch_deserialize(b->ctx, b->buf, b->len, &b->out);
}

/* ---- the cases --------------------------------------------------------------------------- */

static const fault_case cases[] = {
    {"sketch_new", NULL, call_new, 1},
    {"sketch_add_first", set_empty, call_add_first, 1},
    {"sketch_add_grows_down", set_sketch_1_100, call_add_below, 1},
    {"sketch_add_grows_up", set_sketch_1_100, call_add_above, 1},
    {"sketch_add_n_widens", set_sketch_1_100, call_add_n_widen, 1},
    {"sketch_add_many_grows", set_sketch_1_100, call_add_many_spread, 1},
    {"sketch_add_many_widens", set_nearly_wide, call_add_many_widen, 1},
    {"sketch_merge_outside_store", set_two_disjoint, call_merge, 1},
    {"sketch_merge_wide_src", set_wide_src, call_merge, 1},
    {"sketch_merge_overflows_narrow", set_narrow_overflow, call_merge, 1},
    {"sketch_merge_finer_into_coarser", set_finer_into_coarser, call_merge, 2},
    {"sketch_merge_coarser_into_finer", set_coarser_into_finer, call_merge, 2},
    {"sketch_merge_other_range", set_other_range, call_merge, 2},
    {"sketch_downscale", set_fine, call_downscale, 2},
    {"sketch_copy", set_two_disjoint, call_copy, 1},
    {"sketch_clone", set_two_disjoint, call_clone, 2},
    {"recorder_new", NULL, call_recorder_new, 1},
    {"recorder_shard_first", set_recorder, call_shard, 2},
    {"recorder_shard_second", set_recorder_shard, call_shard, 2},
    {"shard_add_new_page", set_recorder_shard, call_shard_add, 1},
    {"shard_add_many_pages", set_recorder_shard, call_shard_add_many, 3},
    {"shard_add_many_long_batch", set_recorder_shard, call_shard_add_many_long, 3},
    {"recorder_snapshot_into", set_recorder_and_into, call_recorder_snapshot, 1},
    {"window_new", NULL, call_window_new, 6},
    {"window_add_first", set_window_empty, call_window_add_first, 1},
    {"window_add_grows_slot", set_window_6, call_window_add_same_slot_far, 1},
    {"window_add_new_slot", set_window_6, call_window_add_new_slot, 1},
    {"window_add_recycles_slot", set_window_11, call_window_add_recycle, 1},
    {"window_add_many", set_window_6, call_window_add_many, 1},
    {"window_quantiles_whole_ring", set_window_6, call_window_query_whole, 2},
    {"window_quantiles_partial", set_window_6, call_window_query_partial, 2},
    {"window_quantiles_advance", set_window_11, call_window_query_advance, 2},
    {"window_snapshot_into", set_window_and_into, call_window_snapshot, 2},
    {"spike_set_slots", set_spike_geometry, call_spike_slots, 6},
    {"spike_set_slot_ns", set_spike_geometry, call_spike_slot_ns, 6},
    {"spike_set_scale", set_spike_geometry, call_spike_scale, 6},
    {"spike_observe_first", set_spike_0, call_spike_observe_first, 1},
    {"spike_observe_same_slot", set_spike_5, call_spike_observe_same_slot, 1},
    {"spike_observe_new_slot", set_spike_5, call_spike_observe_new_slot, 1},
    {"spike_observe_recycles", set_spike_11, call_spike_observe_jump, 2},
    {"spike_get_stats_rebases", set_spike_11, call_spike_stats_later, 1},
    {"scorecard_add_first_metric", set_scorecard, call_add_metric, 2},
    {"scorecard_add_grows_array", set_scorecard_8, call_add_metric, 2},
    {"writer_text_summary", set_writer_text_summary, call_writer_sketch, 1},
    {"writer_text_histogram", set_writer_text_hist, call_writer_sketch, 1},
    {"writer_text_family_value", set_writer_text_summary, call_writer_family_value, 1},
    {"writer_pb_native", set_writer_pb_native, call_writer_sketch, 1},
    {"writer_pb_histogram", set_writer_pb_hist, call_writer_sketch, 1},
    {"writer_pb_family_value", set_writer_pb_native, call_writer_family_value, 1},
    {"writer_om_histogram_exemplars", set_writer_om_hist, call_writer_sketch_ex, 1},
    {"writer_om_counter_exemplar", set_writer_om_counter, call_writer_counter_ex, 1},
    {"writer_pb_native_exemplars", set_writer_pb_native_ex, call_writer_sketch_ex, 1},
    {"exemplars_new", NULL, call_exemplars_new, 2},
    {"exemplars_shard", set_exemplars, call_exemplars_shard, 2},
    {"ratio_window_new", NULL, call_ratio_new, 2},
    {"lii_monitor_new", NULL, call_lii_new, 2},
    {"spike_new", NULL, call_spike_new, 60},
    {"scorecard_new", NULL, call_scorecard_new, 1},
    {"prom_writer_new", NULL, call_writer_new, 1},
    {"otlp_json_delta", set_interval, call_otlp_delta, 2},
    {"slo_window_new", NULL, call_slo_new, 10},
    {"slo_window_add_grows", set_slo, call_slo_add_far, 1},
    {"slo_window_check", set_slo, call_slo_check, 2},
    {"burn_new", NULL, call_burn_new, 2},
    {"error_trigger_new", NULL, call_trigger_new, 2},
    {"goodput_new", NULL, call_goodput_new, 1},
    {"kv_hit_tracker_new", NULL, call_kv_new, 2},
    {"tlb_monitor_new", NULL, call_tlb_new, 2},
    {"tlb_monitor_new_custom", NULL, call_tlb_new_custom, 2},
    {"saturation_set_window", set_saturation, call_saturation_window, 1},
    {"sketch_deserialize", set_encoded, call_deserialize, 2},
};

#define NCASES (sizeof cases / sizeof *cases)

int main(void)
{
    struct CMUnitTest tests[NCASES];
    for (size_t i = 0; i < NCASES; i++) {
        memset(&tests[i], 0, sizeof tests[i]);
        tests[i].name = cases[i].name;
        tests[i].test_func = run_case;
        tests[i].initial_state = (void *)(uintptr_t)&cases[i];
    }
    return cmocka_run_group_tests_name("faults", tests, NULL, NULL);
}
