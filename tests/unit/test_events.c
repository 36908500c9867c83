/* Event log and spike attribution (doc/spec.md §6): the attribute-name table, look-back order and
 * bounds, the bounded ring, LLMM_E_BUFFER, and a random stream checked against a plain list. */
#include "helpers.h"

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

static llmm_event_log *mkl(uint32_t cap)
{
    llmm_event_log *log = NULL;
    assert_ok(llmm_event_log_new(NULL, cap, &log));
    return log;
}

static void test_attribute_names(void **state)
{
    (void)state;
    assert_int_equal(sizeof(llmm_event_type), sizeof(int));
    assert_int_equal(sizeof(llmm_event), 32);
    /* the names doc/spec.md §6 fixes, and the rest of the table in detect.h */
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_TCP_RETRANSMIT), "net.tcp.retrans");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_MAJOR_FAULT), "mem.major_fault");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_SCHED_JITTER), "sched.jitter");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_NUMA_MIGRATION), "mem.numa_migration");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_WEIGHT_SWITCH), "model.weight_switch");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_GC_PAUSE), "runtime.gc_pause");
    assert_string_equal(llmm_event_attr_name(1), LLMM_EVENT_ATTR_TCP_RETRANSMIT);
    assert_string_equal(llmm_event_attr_name(2), LLMM_EVENT_ATTR_MAJOR_FAULT);
    assert_string_equal(llmm_event_attr_name(3), LLMM_EVENT_ATTR_SCHED_JITTER);
    assert_string_equal(llmm_event_attr_name(4), LLMM_EVENT_ATTR_NUMA_MIGRATION);
    assert_string_equal(llmm_event_attr_name(5), LLMM_EVENT_ATTR_WEIGHT_SWITCH);
    assert_string_equal(llmm_event_attr_name(6), LLMM_EVENT_ATTR_GC_PAUSE);
    /* the host sampler's (1.1.0) */
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_CPU_PRESSURE), "cpu.pressure");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_MEMORY_PRESSURE), "mem.pressure");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_IO_PRESSURE), "io.pressure");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_CPU_FREQ_DROP), "cpu.freq_drop");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_CTX_SWITCHES), "sched.ctx_switches");
    assert_string_equal(llmm_event_attr_name(LLMM_EVENT_CPU_THROTTLE), "cpu.throttle");
    assert_string_equal(llmm_event_attr_name(7), LLMM_EVENT_ATTR_CPU_PRESSURE);
    assert_string_equal(llmm_event_attr_name(8), LLMM_EVENT_ATTR_MEMORY_PRESSURE);
    assert_string_equal(llmm_event_attr_name(9), LLMM_EVENT_ATTR_IO_PRESSURE);
    assert_string_equal(llmm_event_attr_name(10), LLMM_EVENT_ATTR_CPU_FREQ_DROP);
    assert_string_equal(llmm_event_attr_name(11), LLMM_EVENT_ATTR_CTX_SWITCHES);
    assert_string_equal(llmm_event_attr_name(12), LLMM_EVENT_ATTR_CPU_THROTTLE);
    /* no name: invalid, reserved and user types */
    const int32_t none[] = {0, -1, INT32_MIN, 13, 100, LLMM_EVENT_USER - 1, LLMM_EVENT_USER,
                            INT32_MAX};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_null(llmm_event_attr_name(none[i]));
}

static void test_lookback_nearest_first(void **state)
{
    llmm_event_log *log = mkl(0);
    llmm_event ev[8];
    size_t n = 99;
    uint64_t c;
    (void)state;

    /* a scenario: GC pause at 100 ms, a retransmit at 400 ms, a NUMA migration and a major
     * fault both at 900 ms, a user event at 1000 ms, another retransmit at 1500 ms */
    assert_ok(llmm_event_log_add(log, 100 * MS, LLMM_EVENT_GC_PAUSE, 12.5));
    assert_ok(llmm_event_log_add(log, 400 * MS, LLMM_EVENT_TCP_RETRANSMIT, 1));
    assert_ok(llmm_event_log_add(log, 900 * MS, LLMM_EVENT_NUMA_MIGRATION, 0));
    assert_ok(llmm_event_log_add(log, 900 * MS, LLMM_EVENT_MAJOR_FAULT, -3));
    assert_ok(llmm_event_log_add(log, 1000 * MS, LLMM_EVENT_USER + 7, 42));
    assert_ok(llmm_event_log_add(log, 1500 * MS, LLMM_EVENT_TCP_RETRANSMIT, 2));

    /* a spike at 1000 ms, look back 600 ms: [400, 1000] ms, nearest first; among the two at
     * 900 ms the one added last comes first; the 1500 ms event is after the spike */
    assert_ok(llmm_event_log_lookback(log, 1000 * MS, 600 * MS, ev, 8, &n));
    assert_int_equal(n, 4);
    assert_int_equal(ev[0].type, LLMM_EVENT_USER + 7);
    assert_true(ev[0].time_ns == 1000 * MS && ev[0].before_ns == 0 && ev[0].value == 42);
    assert_int_equal(ev[1].type, LLMM_EVENT_MAJOR_FAULT);
    assert_true(ev[1].before_ns == 100 * MS && ev[1].value == -3);
    assert_int_equal(ev[2].type, LLMM_EVENT_NUMA_MIGRATION);
    assert_int_equal(ev[3].type, LLMM_EVENT_TCP_RETRANSMIT);
    assert_true(ev[3].time_ns == 400 * MS && ev[3].before_ns == 600 * MS);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ev[i].reserved, 0);

    /* the interval is closed at both ends */
    assert_ok(llmm_event_log_lookback(log, 1000 * MS, 600 * MS - 1, ev, 8, &n));
    assert_int_equal(n, 3);
    assert_ok(llmm_event_log_lookback(log, 1000 * MS - 1, 1000 * MS, ev, 8, &n));
    assert_int_equal(n, 4); /* 900, 900, 400, 100 */
    assert_int_equal(ev[3].type, LLMM_EVENT_GC_PAUSE);
    assert_true(ev[3].before_ns == 900 * MS - 1);
    /* a look-back longer than the clock clamps at 0; a spike before every event finds none */
    assert_ok(llmm_event_log_lookback(log, 2 * SEC, UINT64_MAX, ev, 8, &n));
    assert_int_equal(n, 6);
    assert_int_equal(ev[0].type, LLMM_EVENT_TCP_RETRANSMIT);
    assert_int_equal(ev[5].type, LLMM_EVENT_GC_PAUSE);
    assert_ok(llmm_event_log_lookback(log, 99 * MS, 50 * MS, ev, 8, &n));
    assert_int_equal(n, 0);
    assert_ok(llmm_event_log_lookback(log, 400 * MS, 0, ev, 8, &n));
    assert_int_equal(n, 1);

    /* LLMM_E_BUFFER: the needed count in *len, nothing written */
    memset(ev, 0xAB, sizeof ev);
    assert_status(llmm_event_log_lookback(log, 1000 * MS, 600 * MS, ev, 3, &n), LLMM_E_BUFFER);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < sizeof ev; i++)
        assert_int_equal(((unsigned char *)ev)[i], 0xAB);
    assert_status(llmm_event_log_lookback(log, 1000 * MS, 600 * MS, NULL, 0, &n), LLMM_E_BUFFER);
    assert_int_equal(n, 4);
    assert_ok(llmm_event_log_lookback(log, 50 * MS, 10 * MS, NULL, 0, &n));
    assert_int_equal(n, 0);

    /* counts by type and interval */
    assert_ok(llmm_event_log_count(log, 0, 0, UINT64_MAX, &c));
    assert_true(c == 6);
    assert_ok(llmm_event_log_count(log, LLMM_EVENT_TCP_RETRANSMIT, 0, UINT64_MAX, &c));
    assert_true(c == 2);
    assert_ok(llmm_event_log_count(log, LLMM_EVENT_TCP_RETRANSMIT, 400 * MS, 1499 * MS, &c));
    assert_true(c == 1);
    assert_ok(llmm_event_log_count(log, 0, 900 * MS, 900 * MS, &c));
    assert_true(c == 2);
    assert_ok(llmm_event_log_count(log, LLMM_EVENT_SCHED_JITTER, 0, UINT64_MAX, &c));
    assert_true(c == 0);
    assert_ok(llmm_event_log_count(log, 13, 0, UINT64_MAX, &c)); /* reserved: none held */
    assert_true(c == 0);
    llmm_event_log_free(log);
}

static void test_ring_drops_oldest(void **state)
{
    llmm_event_log *log = mkl(4);
    llmm_event ev[6];
    uint64_t held, total, dropped;
    size_t n;
    (void)state;

    for (int i = 0; i < 6; i++)
        assert_ok(llmm_event_log_add(log, (uint64_t)i * MS, LLMM_EVENT_SCHED_JITTER, i));
    assert_ok(llmm_event_log_counts(log, &held, &total, &dropped));
    assert_true(held == 4 && total == 6 && dropped == 2);
    assert_ok(llmm_event_log_lookback(log, 10 * MS, 10 * MS, ev, 6, &n));
    assert_int_equal(n, 4);
    for (int i = 0; i < 4; i++)
        assert_true(ev[i].value == 5 - i);
    assert_ok(llmm_event_log_counts(log, NULL, NULL, NULL));

    /* reset forgets events, counts and the clock; the capacity stays */
    assert_ok(llmm_event_log_reset(log));
    assert_ok(llmm_event_log_counts(log, &held, &total, &dropped));
    assert_true(held == 0 && total == 0 && dropped == 0);
    assert_ok(llmm_event_log_lookback(log, 10 * MS, 10 * MS, ev, 6, &n));
    assert_int_equal(n, 0);
    assert_ok(llmm_event_log_add(log, 0, LLMM_EVENT_GC_PAUSE, 0));
    for (int i = 1; i < 9; i++)
        assert_ok(llmm_event_log_add(log, (uint64_t)i, LLMM_EVENT_GC_PAUSE, i));
    assert_ok(llmm_event_log_counts(log, &held, &total, &dropped));
    assert_true(held == 4 && total == 9 && dropped == 5);

    /* capacity 1 */
    llmm_event_log_free(log);
    log = mkl(1);
    assert_ok(llmm_event_log_add(log, 5, LLMM_EVENT_GC_PAUSE, 1));
    assert_ok(llmm_event_log_add(log, 6, LLMM_EVENT_GC_PAUSE, 2));
    assert_ok(llmm_event_log_lookback(log, 6, 6, ev, 6, &n));
    assert_int_equal(n, 1);
    assert_true(ev[0].value == 2);
    llmm_event_log_free(log);
}

/* A random stream against a plain list of every event: each look-back must return the events
 * of the last `cap` in the interval, by descending time, later additions first on ties. */
static void test_random_stream_against_list(void **state)
{
    enum { N = 3000, CAP = 257 };
    static uint64_t t_of[N];
    static int32_t type_of[N];
    static llmm_event ev[CAP];
    llmm_event_log *log = mkl(CAP);
    uint64_t r = 11, t = 0;
    (void)state;

    for (int i = 0; i < N; i++) {
        size_t n, k = 0;
        uint64_t at, lb, from, cnt;
        int32_t type = (int32_t)(1 + rng_next(&r) % 6);
        if (rng_next(&r) % 5 == 0)
            type = LLMM_EVENT_USER + (int32_t)(rng_next(&r) % 1000);
        t += rng_next(&r) % 3 == 0 ? 0 : rng_next(&r) % (5 * MS); /* many equal stamps */
        assert_ok(llmm_event_log_add(log, t, type, (double)i));
        t_of[i] = t;
        type_of[i] = type;
        if (i % 7 != 0)
            continue;
        at = t_of[rng_next(&r) % (uint64_t)(i + 1)] + rng_next(&r) % (3 * MS);
        lb = rng_next(&r) % (200 * MS);
        from = at >= lb ? at - lb : 0;
        assert_ok(llmm_event_log_lookback(log, at, lb, ev, CAP, &n));
        /* reference: scan the last CAP events backwards (time order = insertion order) */
        for (int j = i; j >= 0 && j > i - CAP; j--) {
            if (t_of[j] > at || t_of[j] < from)
                continue;
            assert_true(k < n);
            assert_true(ev[k].value == (double)j);
            assert_true(ev[k].time_ns == t_of[j]);
            assert_true(ev[k].before_ns == at - t_of[j]);
            assert_int_equal(ev[k].type, type_of[j]);
            k++;
        }
        assert_int_equal(k, n);
        /* count of one type over the same interval */
        assert_ok(llmm_event_log_count(log, type, from, at, &cnt));
        k = 0;
        for (int j = i; j >= 0 && j > i - CAP; j--)
            k += t_of[j] >= from && t_of[j] <= at && type_of[j] == type;
        assert_true(cnt == k);
    }
    llmm_event_log_free(log);
}

/* Attribution end to end: a spike found by the spike detector, its causes from the log. */
static void test_spike_attribution(void **state)
{
    llmm_spike *d = NULL;
    llmm_event_log *log = mkl(64);
    llmm_event ev[4];
    uint64_t t = 0, spike_at = 0;
    size_t n;
    (void)state;

    assert_ok(llmm_spike_new(NULL, &d));
    assert_ok(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 100));
    /* three seconds of steady 10 ms latencies, 1 ms apart; a retransmit 3 ms and a GC pause
     * 40 ms before one 500 ms latency */
    for (int i = 0; i < 3500; i++) {
        llmm_spike_level lv;
        double v = 10.0;
        t += MS;
        if (i == 3000 - 40)
            assert_ok(llmm_event_log_add(log, t, LLMM_EVENT_GC_PAUSE, 35.0));
        if (i == 3000 - 3)
            assert_ok(llmm_event_log_add(log, t, LLMM_EVENT_TCP_RETRANSMIT, 1.0));
        if (i == 3000)
            v = 500.0;
        assert_ok(llmm_spike_observe(d, t, v, &lv));
        if (lv != LLMM_SPIKE_NONE) {
            assert_int_equal(i, 3000);
            spike_at = t;
        }
    }
    assert_true(spike_at == 3001 * MS);
    assert_ok(llmm_event_log_lookback(log, spike_at, 50 * MS, ev, 4, &n));
    assert_int_equal(n, 2);
    assert_string_equal(llmm_event_attr_name(ev[0].type), "net.tcp.retrans");
    assert_true(ev[0].before_ns == 3 * MS);
    assert_string_equal(llmm_event_attr_name(ev[1].type), "runtime.gc_pause");
    assert_true(ev[1].before_ns == 40 * MS);
    assert_ok(llmm_event_log_lookback(log, spike_at, 10 * MS, ev, 4, &n));
    assert_int_equal(n, 1);
    llmm_spike_free(d);
    llmm_event_log_free(log);
}

static void test_bad_input_changes_nothing(void **state)
{
    llmm_event_log *log = mkl(8), *out = (llmm_event_log *)(uintptr_t)1;
    llmm_event ev[8], ev2[8];
    uint64_t held, total, dropped, c;
    size_t n = 77, n2;
    (void)state;

    assert_status(llmm_event_log_new(NULL, LLMM_EVENT_LOG_CAPACITY_MAX + 1, &out), LLMM_E_RANGE);
    assert_null(out);
    assert_status(llmm_event_log_new(NULL, 4, NULL), LLMM_E_INVALID);

    for (int i = 0; i < 5; i++)
        assert_ok(llmm_event_log_add(log, 10 * MS + (uint64_t)i, LLMM_EVENT_MAJOR_FAULT, i));
    assert_ok(llmm_event_log_lookback(log, 20 * MS, 20 * MS, ev, 8, &n));

    const int32_t bad_types[] = {0, -1, INT32_MIN, 13, 1000, LLMM_EVENT_USER - 1};
    for (size_t i = 0; i < sizeof bad_types / sizeof bad_types[0]; i++)
        assert_status(llmm_event_log_add(log, 11 * MS, bad_types[i], 0), LLMM_E_INVALID);
    assert_status(llmm_event_log_add(log, 11 * MS, LLMM_EVENT_GC_PAUSE, NAN), LLMM_E_INVALID);
    assert_status(llmm_event_log_add(log, 11 * MS, LLMM_EVENT_GC_PAUSE, INFINITY), LLMM_E_INVALID);
    assert_status(llmm_event_log_add(log, 11 * MS, LLMM_EVENT_GC_PAUSE, -INFINITY),
                  LLMM_E_INVALID);
    assert_status(llmm_event_log_add(log, 10 * MS + 3, LLMM_EVENT_GC_PAUSE, 0), LLMM_E_INVALID);
    assert_status(llmm_event_log_add(NULL, 11 * MS, LLMM_EVENT_GC_PAUSE, 0), LLMM_E_INVALID);
    assert_status(llmm_event_log_lookback(NULL, 0, 0, ev2, 8, &n2), LLMM_E_INVALID);
    assert_status(llmm_event_log_lookback(log, 0, 0, ev2, 8, NULL), LLMM_E_INVALID);
    assert_status(llmm_event_log_lookback(log, 0, 0, NULL, 1, &n2), LLMM_E_INVALID);
    assert_status(llmm_event_log_count(NULL, 0, 0, 1, &c), LLMM_E_INVALID);
    assert_status(llmm_event_log_count(log, 0, 0, 1, NULL), LLMM_E_INVALID);
    assert_status(llmm_event_log_count(log, -2, 0, 1, &c), LLMM_E_INVALID);
    assert_status(llmm_event_log_count(log, 0, 2, 1, &c), LLMM_E_INVALID);
    assert_status(llmm_event_log_counts(NULL, &held, &total, &dropped), LLMM_E_INVALID);
    assert_status(llmm_event_log_reset(NULL), LLMM_E_INVALID);

    assert_ok(llmm_event_log_counts(log, &held, &total, &dropped));
    assert_true(held == 5 && total == 5 && dropped == 0);
    assert_ok(llmm_event_log_lookback(log, 20 * MS, 20 * MS, ev2, 8, &n2));
    assert_int_equal(n, n2);
    assert_memory_equal(ev, ev2, n * sizeof ev[0]);
    /* equal time stamps are fine; a user id at the top of the range too */
    assert_ok(llmm_event_log_add(log, 10 * MS + 4, INT32_MAX, 0));
    llmm_event_log_free(log);
    llmm_event_log_free(NULL);
}

static llmm_status step_new(llmm_ctx *ctx, void *arg)
{
    llmm_event_log *log = (llmm_event_log *)(uintptr_t)1;
    llmm_status st = llmm_event_log_new(ctx, 16, &log);
    (void)arg;
    if (st != LLMM_OK) {
        assert_null(log);
        return st;
    }
    for (int i = 0; i < 40; i++)
        assert_ok(llmm_event_log_add(log, (uint64_t)i, LLMM_EVENT_GC_PAUSE, i));
    llmm_event_log_free(log);
    return LLMM_OK;
}

static void test_new_failing_allocator(void **state)
{
    (void)state;
    assert_int_equal(llmm_test_each_failure(step_new, NULL), 2);
}

/* Traced events (1.2): ids kept per ring slot, the same events and order as the 1.0 look-back,
 * untraced events with zero ids, bad
 * records refused before anything is written. */
static void test_traced_events(void **state)
{
    llmm_event_log *log = mkl(4);
    llmm_traced_event tr[6];
    llmm_event ev[6];
    uint8_t trace[16], span[8], zero[24] = {0};
    size_t n, m;
    (void)state;

    for (int i = 0; i < 6; i++) { /* 6 into a ring of 4: slots reused, ids with them */
        memset(trace, 0xa0 + i, sizeof trace);
        memset(span, 0xb0 + i, sizeof span);
        if (i == 3)
            assert_ok(llmm_event_log_add(log, (uint64_t)i * MS, LLMM_EVENT_MAJOR_FAULT, i));
        else if (i == 4)
            assert_ok(llmm_event_log_add_traced(log, (uint64_t)i * MS, LLMM_EVENT_MAJOR_FAULT, i,
                                                trace, NULL));
        else
            assert_ok(llmm_event_log_add_traced(log, (uint64_t)i * MS, LLMM_EVENT_TCP_RETRANSMIT,
                                                i, trace, span));
    }
    for (int i = 0; i < 6; i++)
        llmm_traced_event_init(&tr[i]);
    assert_ok(llmm_event_log_lookback(log, 10 * MS, 10 * MS, ev, 6, &n));
    assert_ok(llmm_event_log_lookback_traced(log, 10 * MS, 10 * MS, tr, 6, &m));
    assert_int_equal(n, 4);
    assert_int_equal(m, 4);
    for (size_t k = 0; k < 4; k++) { /* nearest first: events 5, 4, 3, 2 */
        int i = 5 - (int)k;
        assert_int_equal(tr[k].struct_size, sizeof tr[k]);
        assert_true(tr[k].time_ns == ev[k].time_ns && tr[k].before_ns == ev[k].before_ns);
        assert_true(tr[k].value == i && tr[k].type == ev[k].type);
        memset(trace, 0xa0 + i, sizeof trace);
        memset(span, 0xb0 + i, sizeof span);
        if (i == 3) {
            assert_memory_equal(tr[k].trace_id, zero, 16);
            assert_memory_equal(tr[k].span_id, zero, 8);
        } else {
            assert_memory_equal(tr[k].trace_id, trace, 16);
            if (i == 4)
                assert_memory_equal(tr[k].span_id, zero, 8);
            else
                assert_memory_equal(tr[k].span_id, span, 8);
        }
    }

    /* too small: the size needed, nothing written */
    tr[0].value = -1;
    assert_int_equal(llmm_event_log_lookback_traced(log, 10 * MS, 10 * MS, tr, 2, &m),
                     LLMM_E_BUFFER);
    assert_int_equal(m, 4);
    assert_true(tr[0].value == -1);
    /* records of unequal or unreleased sizes, NULLs */
    tr[1].struct_size = 8;
    assert_int_equal(llmm_event_log_lookback_traced(log, 10 * MS, 10 * MS, tr, 6, &m),
                     LLMM_E_INVALID);
    tr[0].struct_size = tr[1].struct_size = 12;
    assert_int_equal(llmm_event_log_lookback_traced(log, 10 * MS, 10 * MS, tr, 1, &m),
                     LLMM_E_ABI);
    assert_true(tr[0].value == -1);
    assert_int_equal(llmm_event_log_lookback_traced(NULL, 0, 0, NULL, 0, &m), LLMM_E_INVALID);
    assert_int_equal(llmm_event_log_lookback_traced(log, 0, 0, NULL, 1, &m), LLMM_E_INVALID);
    assert_int_equal(llmm_event_log_lookback_traced(log, 0, 0, NULL, 0, NULL), LLMM_E_INVALID);
    assert_ok(llmm_event_log_lookback_traced(log, 10 * MS, 0, NULL, 0, &m));
    assert_int_equal(m, 0);
    /* bad adds change nothing, as llmm_event_log_add's */
    assert_int_equal(llmm_event_log_add_traced(log, 0, LLMM_EVENT_GC_PAUSE, 0, trace, span),
                     LLMM_E_INVALID);
    assert_int_equal(llmm_event_log_add_traced(log, 9 * MS, 0, 0, trace, span), LLMM_E_INVALID);
    assert_int_equal(llmm_event_log_add_traced(NULL, 9 * MS, 1, 0, trace, span), LLMM_E_INVALID);
    llmm_event_log_free(log);
}

/* The ids' storage comes on the first traced add; its failure changes nothing. */
static llmm_status step_traced(llmm_ctx *ctx, void *arg)
{
    llmm_event_log *log = NULL;
    uint8_t trace[16] = {1}, span[8] = {2};
    llmm_status st;
    uint64_t total;
    (void)arg;
    if ((st = llmm_event_log_new(ctx, 8, &log)) != LLMM_OK)
        return st;
    assert_ok(llmm_event_log_add(log, 1, LLMM_EVENT_GC_PAUSE, 1));
    st = llmm_event_log_add_traced(log, 2, LLMM_EVENT_GC_PAUSE, 2, trace, span);
    assert_ok(llmm_event_log_counts(log, NULL, &total, NULL));
    assert_int_equal(total, st == LLMM_OK ? 2 : 1);
    llmm_event_log_free(log);
    return st;
}

static void test_traced_failing_allocator(void **state)
{
    (void)state;
    assert_int_equal(llmm_test_each_failure(step_traced, NULL), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attribute_names),
        cmocka_unit_test(test_lookback_nearest_first),
        cmocka_unit_test(test_ring_drops_oldest),
        cmocka_unit_test(test_random_stream_against_list),
        cmocka_unit_test(test_spike_attribution),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_new_failing_allocator),
        cmocka_unit_test(test_traced_events),
        cmocka_unit_test(test_traced_failing_allocator),
    };
    return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
