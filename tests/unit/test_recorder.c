/* Recorder: shards per writer thread, snapshots while writers run, exact final totals. */
#include <pthread.h>

#include "helpers.h"

static llmm_sketch *mk(int scale)
{
    llmm_sketch *s = NULL;
    assert_ok(llmm_sketch_new(NULL, scale, &s));
    return s;
}

/* deterministic per-thread value stream: log-spaced values with zeros and out-of-range ones */
static double value_at(unsigned tid, uint64_t i)
{
    uint64_t x = (i + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ ((uint64_t)tid << 40);
    x ^= x >> 29;
    x *= UINT64_C(0xBF58476D1CE4E5B9);
    x ^= x >> 32;
    if ((x & 1023) == 0)
        return 0.0;
    if ((x & 1023) == 1)
        return 1e-12; /* below the default range */
    if ((x & 1023) == 2)
        return 1e18; /* above it */
    return 1e-4 * exp2((double)(x >> 40) / (double)(1 << 24) * 24.0);
}

static void assert_snapshot_consistent(const llmm_sketch *s)
{
    uint64_t z, u, o, sum = 0;
    int32_t a, b;
    assert_ok(llmm_sketch_special_counts(s, &z, &u, &o));
    if (llmm_sketch_bucket_span(s, &a, &b) == LLMM_OK)
        for (int32_t i = a; i <= b; i++)
            sum += llmm_sketch_bucket_count(s, i);
    assert_int_equal(llmm_sketch_count(s), sum + z + u + o);
}

typedef struct {
    llmm_recorder *rec;
    unsigned tid;
    uint64_t n;
    int batch;
} writer_arg;

static void *writer(void *p)
{
    writer_arg *w = p;
    llmm_shard *sh = NULL;
    double buf[64];
    if (llmm_recorder_shard(w->rec, &sh) != LLMM_OK)
        return (void *)1;
    for (uint64_t i = 0; i < w->n;) {
        if (w->batch) {
            size_t m = 0;
            for (; m < 64 && i < w->n; m++, i++)
                buf[m] = value_at(w->tid, i);
            if (llmm_shard_add_many(sh, buf, m) != LLMM_OK)
                return (void *)1;
        } else {
            if (llmm_shard_add(sh, value_at(w->tid, i)) != LLMM_OK)
                return (void *)1;
            i++;
        }
    }
    llmm_shard_release(sh);
    return NULL;
}

static void test_stress_writers_and_reader(void **state)
{
    enum { WRITERS = 4 };
    const uint64_t per = 200000;
    llmm_recorder *rec = NULL;
    pthread_t th[WRITERS];
    writer_arg args[WRITERS];
    llmm_sketch *snap = mk(6), *expect = mk(6);
    uint64_t last = 0;
    int snaps = 0;
    (void)state;
    assert_ok(llmm_recorder_new(NULL, 6, &rec));
    for (unsigned t = 0; t < WRITERS; t++) {
        args[t] = (writer_arg){rec, t, per, (int)(t & 1)};
        assert_int_equal(pthread_create(&th[t], NULL, writer, &args[t]), 0);
    }
    /* read while they write: counts only grow and every snapshot is consistent */
    for (int k = 0; k < 2000; k++) {
        assert_ok(llmm_recorder_snapshot(rec, snap));
        assert_snapshot_consistent(snap);
        assert_true(llmm_sketch_count(snap) >= last);
        last = llmm_sketch_count(snap);
        snaps++;
        if (last == WRITERS * per)
            break;
    }
    for (unsigned t = 0; t < WRITERS; t++) {
        void *ret;
        pthread_join(th[t], &ret);
        assert_null(ret);
    }
    print_message("# %d snapshots taken while writers ran\n", snaps);
    /* exact final totals: equal to one sketch fed the same values */
    for (unsigned t = 0; t < WRITERS; t++)
        for (uint64_t i = 0; i < per; i++)
            assert_ok(llmm_sketch_add(expect, value_at(t, i)));
    assert_ok(llmm_recorder_snapshot(rec, snap));
    assert_int_equal(llmm_sketch_count(snap), WRITERS * per);
    assert_same_sketch(snap, expect, 1e-9);
    llmm_sketch_free(snap);
    llmm_sketch_free(expect);
    llmm_recorder_free(rec);
}

static void test_interval_by_subtract(void **state)
{
    llmm_recorder *rec = NULL;
    llmm_shard *sh = NULL;
    llmm_sketch *t0 = mk(6), *t1 = mk(6), *direct = mk(6);
    (void)state;
    assert_ok(llmm_recorder_new(NULL, 6, &rec));
    assert_ok(llmm_recorder_shard(rec, &sh));
    for (int i = 0; i < 1000; i++)
        assert_ok(llmm_shard_add(sh, value_at(9, (uint64_t)i)));
    assert_ok(llmm_recorder_snapshot(rec, t0));
    for (int i = 1000; i < 3000; i++) {
        assert_ok(llmm_shard_add(sh, value_at(9, (uint64_t)i)));
        assert_ok(llmm_sketch_add(direct, value_at(9, (uint64_t)i)));
    }
    assert_ok(llmm_recorder_snapshot(rec, t1));
    assert_ok(llmm_sketch_subtract(t1, t0));
    assert_int_equal(llmm_sketch_count(t1), 2000);
    for (int32_t i = -2000; i < 3000; i++)
        assert_int_equal(llmm_sketch_bucket_count(t1, i), llmm_sketch_bucket_count(direct, i));
    llmm_sketch_free(t0);
    llmm_sketch_free(t1);
    llmm_sketch_free(direct);
    llmm_recorder_free(rec);
}

static void test_release_and_reuse(void **state)
{
    llmm_recorder *rec = NULL;
    llmm_shard *a = NULL, *b = NULL, *c = NULL;
    llmm_sketch *snap = mk(3);
    double x;
    (void)state;
    assert_ok(llmm_recorder_new(NULL, 6, &rec));
    assert_ok(llmm_recorder_shard(rec, &a));
    assert_ok(llmm_recorder_shard(rec, &b));
    assert_true(a != b);
    assert_ok(llmm_shard_add(a, 1.0));
    assert_ok(llmm_shard_add(b, 2.0));
    llmm_shard_release(a);
    assert_ok(llmm_recorder_shard(rec, &c));
    assert_ptr_equal(a, c); /* reused, counts kept */
    assert_ok(llmm_shard_add(c, 3.0));
    assert_ok(llmm_recorder_snapshot(rec, snap));
    assert_int_equal(llmm_sketch_scale(snap), 6); /* takes the recorder's scale */
    assert_int_equal(llmm_sketch_count(snap), 3);
    assert_ok(llmm_sketch_sum(snap, &x));
    assert_true(x == 6.0);
    assert_ok(llmm_sketch_min(snap, &x));
    assert_true(x == 1.0);
    assert_ok(llmm_sketch_max(snap, &x));
    assert_true(x == 3.0);
    assert_status(llmm_recorder_set_range(rec, 1.0, 10.0), LLMM_E_STATE);
    llmm_shard_release(NULL);
    llmm_sketch_free(snap);
    llmm_recorder_free(rec);
    llmm_recorder_free(NULL);
}

static void test_invalid_input(void **state)
{
    llmm_recorder *rec = NULL;
    llmm_shard *sh = NULL;
    llmm_sketch *snap = mk(6);
    double batch[3] = {1.0, NAN, 2.0};
    (void)state;
    assert_status(llmm_recorder_new(NULL, 11, &rec), LLMM_E_INVALID);
    assert_null(rec);
    assert_status(llmm_recorder_new(NULL, 6, NULL), LLMM_E_INVALID);
    assert_ok(llmm_recorder_new(NULL, 6, &rec));
    assert_status(llmm_recorder_set_range(rec, -1.0, 10.0), LLMM_E_INVALID);
    assert_ok(llmm_recorder_set_range(rec, 1e-3, 1e3));
    assert_ok(llmm_recorder_shard(rec, &sh));
    assert_status(llmm_shard_add(sh, NAN), LLMM_E_INVALID);
    assert_status(llmm_shard_add(sh, -1.0), LLMM_E_INVALID);
    assert_status(llmm_shard_add(sh, INFINITY), LLMM_E_INVALID);
    assert_status(llmm_shard_add(NULL, 1.0), LLMM_E_INVALID);
    assert_status(llmm_shard_add_many(sh, batch, 3), LLMM_E_INVALID);
    assert_status(llmm_shard_add_many(sh, NULL, 3), LLMM_E_INVALID);
    assert_status(llmm_shard_add_many(NULL, batch, 1), LLMM_E_INVALID);
    assert_ok(llmm_shard_add_many(sh, NULL, 0));
    assert_ok(llmm_shard_add_many(sh, batch, 0));
    assert_status(llmm_recorder_shard(rec, NULL), LLMM_E_INVALID);
    assert_ok(llmm_recorder_snapshot(rec, snap));
    assert_int_equal(llmm_sketch_count(snap), 0);
    assert_ok(llmm_shard_add(sh, 1e4));   /* over */
    assert_ok(llmm_shard_add(sh, 1e-4));  /* under */
    assert_ok(llmm_shard_add(sh, -0.0));  /* zero */
    assert_ok(llmm_shard_add(sh, 999.0)); /* top of the range: last page */
    assert_ok(llmm_recorder_snapshot(rec, snap));
    assert_int_equal(llmm_sketch_count(snap), 4);
    assert_status(llmm_recorder_snapshot(rec, NULL), LLMM_E_INVALID);
    assert_status(llmm_recorder_shard(NULL, &sh), LLMM_E_INVALID);
    llmm_sketch_free(snap);
    llmm_recorder_free(rec);
}

static llmm_status step_recorder(llmm_ctx *ctx, void *arg)
{
    llmm_recorder *rec = NULL;
    llmm_shard *sh = NULL;
    llmm_sketch *snap = NULL;
    double v[32];
    llmm_status st;
    (void)arg;
    for (int i = 0; i < 32; i++)
        v[i] = 1e-3 * exp2(i * 0.7);
    st = llmm_recorder_new(ctx, 6, &rec);
    if (st != LLMM_OK)
        return st;
    st = llmm_sketch_new(ctx, 6, &snap);
    if (st != LLMM_OK)
        goto out;
    st = llmm_recorder_shard(rec, &sh);
    if (st != LLMM_OK)
        goto out;
    for (int i = 0; i < 32; i++) {
        st = llmm_shard_add(sh, v[i]);
        if (st != LLMM_OK)
            goto out;
    }
    st = llmm_shard_add_many(sh, v, 32);
    if (st != LLMM_OK)
        goto out;
    st = llmm_sketch_add(snap, 5.0);
    if (st != LLMM_OK)
        goto out;
    st = llmm_recorder_snapshot(rec, snap);
    if (st != LLMM_OK) {
        assert_int_equal(llmm_sketch_count(snap), 1); /* unchanged */
        goto out;
    }
    assert_int_equal(llmm_sketch_count(snap), 64);
out:
    llmm_sketch_free(snap);
    llmm_recorder_free(rec);
    return st;
}

static void test_long_batches(void **state)
{
    /* batches longer than one internal chunk: all or nothing as a whole, and the same buckets
     * as a sketch given the same values */
    enum { N = 5000 };
    static double v[N];
    llmm_recorder *rec = NULL;
    llmm_shard *sh = NULL;
    llmm_sketch *snap = mk(6), *want = mk(6);
    uint64_t z, u, o;
    (void)state;
    for (int i = 0; i < N; i++)
        v[i] = value_at(7, (uint64_t)i);
    assert_ok(llmm_recorder_new(NULL, 6, &rec));
    assert_ok(llmm_recorder_shard(rec, &sh));
    v[N - 1] = NAN; /* in the last chunk: nothing of the batch may be counted */
    assert_status(llmm_shard_add_many(sh, v, N), LLMM_E_INVALID);
    assert_ok(llmm_recorder_snapshot(rec, snap));
    assert_int_equal(llmm_sketch_count(snap), 0);
    v[N - 1] = 0.5;
    assert_ok(llmm_shard_add_many(sh, v, N));
    assert_ok(llmm_shard_add_many(sh, v, 1)); /* an odd one between, then again */
    assert_ok(llmm_shard_add_many(sh, v, N));
    assert_ok(llmm_sketch_add_many(want, v, N));
    assert_ok(llmm_sketch_add_many(want, v, 1));
    assert_ok(llmm_sketch_add_many(want, v, N));
    assert_ok(llmm_recorder_snapshot(rec, snap));
    assert_same_sketch(snap, want, 1e-12);
    assert_ok(llmm_sketch_special_counts(snap, &z, &u, &o));
    assert_true(z > 0 && u > 0 && o > 0);
    llmm_shard_release(sh);
    llmm_sketch_free(snap);
    llmm_sketch_free(want);
    llmm_recorder_free(rec);
}

static void test_failing_allocator(void **state)
{
    (void)state;
    assert_true(llmm_test_each_failure(step_recorder, NULL) >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress_writers_and_reader),
        cmocka_unit_test(test_interval_by_subtract),
        cmocka_unit_test(test_release_and_reuse),
        cmocka_unit_test(test_invalid_input),
        cmocka_unit_test(test_long_batches),
        cmocka_unit_test(test_failing_allocator),
    };
    return cmocka_run_group_tests_name("recorder", tests, NULL, NULL);
}
