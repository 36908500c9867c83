/* Host sampler on captured trees (tests/data/host): every signal's rate against values worked
 * out by hand from the trees' files, availability on several kernels' layouts, missing files
 * and garbage, refused readings and their recovery, events and thresholds, the caller's
 * clock and log, allocation (none after creation, every failure cleaned up), and the rates
 * fed to llmm_correlation() against a latency window. The real /proc is test_host_live.c's. */
#include "host_tree.h"

#include <inttypes.h>

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)
#define STEP (500 * MS) /* between the trees' steps */
#define NSIG 10

typedef struct expect {
    llmm_status st; /* what llmm_host_signal_rate answers */
    double v;       /* the rate when LLMM_OK */
} expect;

#define OK(v) {LLMM_OK, (v)}
#define NA {LLMM_E_STATE, 0}
#define EMPTY {LLMM_E_EMPTY, 0}
#define REFUSED {LLMM_E_CORRUPT, 0}

/* One step: the rates of signals 1 … 10 after it, and the events it logs, nearest first. */
typedef struct step {
    const char *name;
    expect rate[NSIG];
    int32_t ev_type[6];
    double ev_value[6];
    size_t nev;
} step;

static llmm_host_sampler *mks(const char *root)
{
    llmm_host_sampler *s = NULL;
    assert_ok(llmm_host_sampler_new(NULL, root, &s));
    assert_non_null(s);
    return s;
}

static void check_rates(const llmm_host_sampler *s, const expect *e, const char *where)
{
    for (int i = 0; i < NSIG; i++) {
        double v = -1;
        llmm_status st = llmm_host_signal_rate(s, (llmm_host_signal)(i + 1), &v);
        if (st != e[i].st)
            fail_msg("%s: %s returned %s, expected %s", where,
                     llmm_host_signal_name((llmm_host_signal)(i + 1)), llmm_status_name(st),
                     llmm_status_name(e[i].st));
        if (st == LLMM_OK)
            assert_close(v, e[i].v, 1e-15, 0);
        else
            assert_true(v == -1); /* not written */
    }
}

/* Run a tree's steps: t0 is sampled at 1 s (no rate yet), each later step 0.5 s after the
 * previous one, with its rates and events checked. */
static void run_tree(const char *tree, const expect *first, const step *steps, size_t n)
{
    char dir[4096];
    llmm_host_sampler *s;
    llmm_event_log *log = NULL;
    uint64_t t = SEC;

    host_tree_new(dir, tree);
    s = mks(dir);
    assert_ok(llmm_event_log_new(NULL, 0, &log));
    assert_ok(llmm_host_sample(s, t, log));
    check_rates(s, first, "t0");
    for (size_t k = 0; k < n; k++) {
        llmm_event ev[16];
        size_t len = 99;
        host_tree_step(dir, tree, steps[k].name);
        t += STEP;
        assert_ok(llmm_host_sample(s, t, log));
        check_rates(s, steps[k].rate, steps[k].name);
        assert_ok(llmm_event_log_lookback(log, t, STEP - 1, ev, 16, &len));
        assert_int_equal(len, steps[k].nev);
        for (size_t j = 0; j < len; j++) {
            assert_int_equal(ev[j].time_ns, t);
            assert_int_equal(ev[j].type, steps[k].ev_type[j]);
            assert_close(ev[j].value, steps[k].ev_value[j], 1e-15, 0);
        }
    }
    llmm_event_log_free(log);
    llmm_host_sampler_free(s);
    host_tree_free(dir);
}

/* The test machine's own files (cgroup v1 + v2 hybrid, PSI, no cpufreq). t0 → t1 in 0.5 s:
 * RetransSegs +10, pgmajfault +3, ctxt +2500, schedstat wait +25 ms, numa_pages_migrated +0,
 * PSI cpu +150 ms and io +60 ms, memory +0, v1 throttled_time +5 ms. The run delay, 0.05 s/s,
 * equals its threshold and is not above it: no event. */
static void test_tree_linux_6_18(void **state)
{
    static const expect first[NSIG] = {EMPTY, EMPTY, EMPTY, EMPTY, EMPTY,
                                       EMPTY, EMPTY, EMPTY, NA,    EMPTY};
    static const step steps[] = {
        {"t1",
         {OK(20), OK(6), OK(5000), OK(0.05), OK(0), OK(0.3), OK(0), OK(0.12), NA, OK(0.01)},
         {LLMM_EVENT_CPU_THROTTLE, LLMM_EVENT_IO_PRESSURE, LLMM_EVENT_CPU_PRESSURE,
          LLMM_EVENT_MAJOR_FAULT, LLMM_EVENT_TCP_RETRANSMIT},
         {0.01, 0.12, 0.3, 6, 20},
         5},
    };
    (void)state;
    run_tree("linux-6.18", first, steps, 1);
}

/* A 5.10 layout (cgroup v2, pgmigrate_success, cpufreq on 4 CPUs). t0 → t1: ctxt +100000,
 * wait +50 ms, pgmigrate_success +7, memory PSI +30 ms, throttled_usec +20000, frequencies
 * 3000/2800/3200/3000 → 2000/2100/1900/2000 MHz (mean 3000 → 2000: a drop of a third).
 * t2 cuts vmstat inside the pgmajfault line (major faults and migrations refused) and puts
 * ctxt back by 1000 (refused, and its new base); t3: ctxt +500 has a rate again, the vmstat
 * signals do not yet (their previous reading was refused); t4: pgmajfault +4 (since t3). */
static void test_tree_linux_5_10(void **state)
{
    static const expect first[NSIG] = {EMPTY, EMPTY, EMPTY, EMPTY, EMPTY,
                                       EMPTY, EMPTY, EMPTY, OK(3000), EMPTY};
    static const step steps[] = {
        {"t1",
         {OK(0), OK(0), OK(200000), OK(0.1), OK(14), OK(0), OK(0.06), OK(0), OK(2000),
          OK(0.04)},
         {LLMM_EVENT_CPU_THROTTLE, LLMM_EVENT_CPU_FREQ_DROP, LLMM_EVENT_MEMORY_PRESSURE,
          LLMM_EVENT_NUMA_MIGRATION, LLMM_EVENT_SCHED_JITTER},
         {0.04, 2000, 0.06, 14, 0.1},
         5},
        {"t2",
         {OK(0), REFUSED, REFUSED, OK(0), REFUSED, OK(0), OK(0), OK(0), OK(2000), OK(0)},
         {0},
         {0},
         0},
        {"t3",
         {OK(0), EMPTY, OK(1000), OK(0), EMPTY, OK(0), OK(0), OK(0), OK(2000), OK(0)},
         {0},
         {0},
         0},
        {"t4",
         {OK(0), OK(8), OK(0), OK(0), OK(0), OK(0), OK(0), OK(0), OK(2000), OK(0)},
         {LLMM_EVENT_MAJOR_FAULT},
         {8},
         1},
    };
    (void)state;
    run_tree("linux-5.10", first, steps, sizeof steps / sizeof steps[0]);
}

/* An old layout: no PSI, no migration counters, Tcp: without InCsumErrors, cgroup v1 at
 * cpu,cpuacct, cpufreq for cpu0 only. t0 → t1: RetransSegs 31 → 32, pgmajfault +50, ctxt +10,
 * wait +0, throttled_time +0, cpu0 at 1600 MHz throughout. */
static void test_tree_linux_3_2(void **state)
{
    static const expect first[NSIG] = {EMPTY, EMPTY, EMPTY, EMPTY, NA,
                                       NA,    NA,    NA,    OK(1600), EMPTY};
    static const step steps[] = {
        {"t1",
         {OK(2), OK(100), OK(20), OK(0), NA, NA, NA, NA, OK(1600), OK(0)},
         {LLMM_EVENT_MAJOR_FAULT, LLMM_EVENT_TCP_RETRANSMIT},
         {100, 2},
         2},
    };
    (void)state;
    run_tree("linux-3.2", first, steps, 1);
}

/* Only /proc/stat and /proc/vmstat: ctxt +600, pgmajfault +2, pgmigrate_success +0. */
static void test_tree_missing(void **state)
{
    static const expect first[NSIG] = {NA, EMPTY, EMPTY, NA, EMPTY, NA, NA, NA, NA, NA};
    static const step steps[] = {
        {"t1",
         {NA, OK(4), OK(1200), NA, OK(0), NA, NA, NA, NA, NA},
         {LLMM_EVENT_MAJOR_FAULT},
         {4},
         1},
    };
    (void)state;
    run_tree("missing", first, steps, 1);
}

/* Every file garbage: every signal unavailable, the sampler works and logs nothing. */
static void test_tree_garbage(void **state)
{
    static const expect none[NSIG] = {NA, NA, NA, NA, NA, NA, NA, NA, NA, NA};
    static const step steps[] = {{"t0", {NA, NA, NA, NA, NA, NA, NA, NA, NA, NA}, {0}, {0}, 0}};
    (void)state;
    run_tree("garbage", none, steps, 1);
}

/* A root that does not exist, a trailing slash, the real root. */
static void test_roots(void **state)
{
    char dir[4096], slash[4200];
    llmm_host_sampler *s, *t;
    double a = 0, b = 0;
    (void)state;

    s = mks("/nonexistent/llmm/root");
    for (int i = 1; i <= NSIG; i++)
        assert_status(llmm_host_signal_rate(s, (llmm_host_signal)i, &a), LLMM_E_STATE);
    assert_ok(llmm_host_sample(s, 1, NULL));
    llmm_host_sampler_free(s);

    host_tree_new(dir, "missing");
    snprintf(slash, sizeof slash, "%s//", dir);
    s = mks(dir);
    t = mks(slash);
    assert_ok(llmm_host_sample(s, SEC, NULL));
    assert_ok(llmm_host_sample(t, SEC, NULL));
    host_tree_step(dir, "missing", "t1");
    assert_ok(llmm_host_sample(s, SEC + STEP, NULL));
    assert_ok(llmm_host_sample(t, SEC + STEP, NULL));
    assert_ok(llmm_host_signal_rate(s, LLMM_HOST_CTX_SWITCHES, &a));
    assert_ok(llmm_host_signal_rate(t, LLMM_HOST_CTX_SWITCHES, &b));
    assert_true(a == 1200 && b == 1200);
    llmm_host_sampler_free(s);
    llmm_host_sampler_free(t);
    host_tree_free(dir);

    /* NULL, "" and "/" are the real root: /proc/stat always has ctxt on Linux */
    s = mks(NULL);
    assert_status(llmm_host_signal_rate(s, LLMM_HOST_CTX_SWITCHES, &a), LLMM_E_EMPTY);
    llmm_host_sampler_free(s);
    s = mks("/");
    assert_status(llmm_host_signal_rate(s, LLMM_HOST_CTX_SWITCHES, &a), LLMM_E_EMPTY);
    llmm_host_sampler_free(s);
}

static void test_names_and_events(void **state)
{
    static const char *const names[NSIG] = {
        "tcp_retrans", "major_faults", "ctx_switches", "run_delay", "numa_migrations",
        "psi_cpu",     "psi_memory",   "psi_io",       "cpu_freq_mhz", "cpu_throttle"};
    static const int32_t types[NSIG] = {
        LLMM_EVENT_TCP_RETRANSMIT, LLMM_EVENT_MAJOR_FAULT,     LLMM_EVENT_CTX_SWITCHES,
        LLMM_EVENT_SCHED_JITTER,   LLMM_EVENT_NUMA_MIGRATION,  LLMM_EVENT_CPU_PRESSURE,
        LLMM_EVENT_MEMORY_PRESSURE, LLMM_EVENT_IO_PRESSURE,    LLMM_EVENT_CPU_FREQ_DROP,
        LLMM_EVENT_CPU_THROTTLE};
    (void)state;
    assert_int_equal(sizeof(llmm_host_signal), sizeof(int));
    assert_int_equal(sizeof(llmm_host_option), sizeof(int));
    for (int i = 0; i < NSIG; i++) {
        assert_string_equal(llmm_host_signal_name((llmm_host_signal)(i + 1)), names[i]);
        assert_int_equal(llmm_host_signal_event((llmm_host_signal)(i + 1)), types[i]);
        assert_non_null(llmm_event_attr_name(types[i]));
    }
    const int bad[] = {0, -1, NSIG + 1, 1000, INT32_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_null(llmm_host_signal_name((llmm_host_signal)bad[i]));
        assert_int_equal(llmm_host_signal_event((llmm_host_signal)bad[i]), 0);
    }
}

static void test_arguments(void **state)
{
    char longroot[2100];
    llmm_host_sampler *s = (llmm_host_sampler *)&s;
    double v = 7;
    (void)state;

    assert_status(llmm_host_sampler_new(NULL, NULL, NULL), LLMM_E_INVALID);
    memset(longroot, 'a', sizeof longroot - 1);
    longroot[sizeof longroot - 1] = '\0';
    assert_status(llmm_host_sampler_new(NULL, longroot, &s), LLMM_E_INVALID);
    assert_null(s);
    longroot[2048] = '\0'; /* 2048 bytes: accepted (and exposes nothing) */
    s = mks(longroot);
    assert_status(llmm_host_sample(NULL, 1, NULL), LLMM_E_INVALID);
    assert_status(llmm_host_signal_rate(NULL, LLMM_HOST_PSI_CPU, &v), LLMM_E_INVALID);
    assert_status(llmm_host_signal_rate(s, LLMM_HOST_PSI_CPU, NULL), LLMM_E_INVALID);
    assert_status(llmm_host_signal_rate(s, (llmm_host_signal)0, &v), LLMM_E_INVALID);
    assert_status(llmm_host_signal_rate(s, (llmm_host_signal)(NSIG + 1), &v), LLMM_E_INVALID);
    assert_true(v == 7);
    llmm_host_sampler_free(s);
    llmm_host_sampler_free(NULL);
}

/* Every threshold's default and bounds as the option listing says, through the setters. */
static void test_options(void **state)
{
    llmm_host_sampler *s = mks("/nonexistent");
    llmm_option_info d;
    double v;
    uint32_t n = 0;
    (void)state;

    for (;; n++) {
        llmm_option_info_init(&d);
        llmm_status st = llmm_option_describe(LLMM_KIND_HOST_SAMPLER, n, &d);
        if (st == LLMM_E_RANGE)
            break;
        assert_ok(st);
        assert_int_equal(d.key, (int32_t)n + 1); /* key = the signal's value */
        assert_int_equal(d.type, LLMM_OPTION_F64);
        assert_false(d.fixed_once_started);
        assert_ok(llmm_host_sampler_get_f64(s, (llmm_host_option)d.key, &v));
        assert_true(v == d.default_f64);
        assert_true(d.min_f64 == 0);
        assert_status(llmm_host_sampler_set_f64(s, (llmm_host_option)d.key, -0.5),
                      LLMM_E_RANGE);
        assert_status(llmm_host_sampler_set_f64(s, (llmm_host_option)d.key, NAN),
                      LLMM_E_INVALID);
        assert_ok(llmm_host_sampler_set_f64(s, (llmm_host_option)d.key, d.max_f64));
        assert_ok(llmm_host_sampler_get_f64(s, (llmm_host_option)d.key, &v));
        assert_true(v == d.max_f64);
    }
    assert_int_equal(n, NSIG);
    /* the documented defaults */
    static const double defaults[NSIG] = {0, 0, INFINITY, 0.05, 0, 0.2, 0.05, 0.1, 0.2, 0};
    llmm_host_sampler_free(s);
    s = mks("/nonexistent");
    for (int i = 0; i < NSIG; i++) {
        assert_ok(llmm_host_sampler_get_f64(s, (llmm_host_option)(i + 1), &v));
        assert_true(v == defaults[i]);
    }
    assert_status(llmm_host_sampler_set_f64(s, LLMM_HOST_CPU_FREQ_DROP, 1.01), LLMM_E_RANGE);
    assert_status(llmm_host_sampler_set_f64(s, (llmm_host_option)0, 1), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_host_sampler_set_f64(s, (llmm_host_option)11, 1),
                  LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_host_sampler_get_f64(s, (llmm_host_option)11, &v),
                  LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_host_sampler_set_f64(NULL, LLMM_HOST_PSI_CPU_ABOVE, 1), LLMM_E_INVALID);
    assert_status(llmm_host_sampler_get_f64(s, LLMM_HOST_PSI_CPU_ABOVE, NULL), LLMM_E_INVALID);
    llmm_host_sampler_free(s);
}

/* Thresholds decide the events: on the 5.10 tree's t0 → t1, enable context switches at
 * 100000/s, raise the run delay's to its rate (0.1 is not above 0.1), allow a frequency drop
 * of 50 % (the third is less), turn the throttle off with +Inf. */
static void test_thresholds(void **state)
{
    char dir[4096];
    llmm_host_sampler *s;
    llmm_event_log *log;
    llmm_event ev[16];
    size_t len = 0;
    (void)state;

    host_tree_new(dir, "linux-5.10");
    s = mks(dir);
    assert_ok(llmm_event_log_new(NULL, 0, &log));
    assert_ok(llmm_host_sampler_set_f64(s, LLMM_HOST_CTX_SWITCHES_ABOVE, 100000));
    assert_ok(llmm_host_sampler_set_f64(s, LLMM_HOST_RUN_DELAY_ABOVE, 0.1));
    assert_ok(llmm_host_sampler_set_f64(s, LLMM_HOST_CPU_FREQ_DROP, 0.5));
    assert_ok(llmm_host_sampler_set_f64(s, LLMM_HOST_CPU_THROTTLE_ABOVE, INFINITY));
    assert_ok(llmm_host_sample(s, SEC, log));
    host_tree_step(dir, "linux-5.10", "t1");
    assert_ok(llmm_host_sample(s, SEC + STEP, log));
    assert_ok(llmm_event_log_lookback(log, SEC + STEP, SEC, ev, 16, &len));
    assert_int_equal(len, 3);
    assert_int_equal(ev[0].type, LLMM_EVENT_MEMORY_PRESSURE);
    assert_int_equal(ev[1].type, LLMM_EVENT_NUMA_MIGRATION);
    assert_int_equal(ev[2].type, LLMM_EVENT_CTX_SWITCHES);
    assert_close(ev[2].value, 200000, 1e-15, 0);
    llmm_event_log_free(log);
    llmm_host_sampler_free(s);
    host_tree_free(dir);
}

/* The caller's clock must move forward, the log must not be ahead of it; a refused call
 * changes nothing (the rates stay those of the last accepted sample). */
static void test_clock_and_log(void **state)
{
    char dir[4096];
    llmm_host_sampler *s;
    llmm_event_log *log;
    uint64_t held;
    double v;
    (void)state;

    host_tree_new(dir, "missing");
    s = mks(dir);
    assert_ok(llmm_event_log_new(NULL, 0, &log));
    assert_ok(llmm_host_sample(s, 0, log)); /* the first sample may be at 0 */
    assert_status(llmm_host_sample(s, 0, log), LLMM_E_INVALID);
    host_tree_step(dir, "missing", "t1");
    assert_ok(llmm_event_log_add(log, 2 * SEC, LLMM_EVENT_GC_PAUSE, 1));
    assert_status(llmm_host_sample(s, SEC, log), LLMM_E_INVALID); /* log ahead */
    assert_status(llmm_host_signal_rate(s, LLMM_HOST_CTX_SWITCHES, &v), LLMM_E_EMPTY);
    assert_ok(llmm_host_sample(s, SEC, NULL)); /* without the log it may */
    assert_ok(llmm_host_signal_rate(s, LLMM_HOST_CTX_SWITCHES, &v));
    assert_true(v == 600);
    assert_status(llmm_host_sample(s, SEC - 1, NULL), LLMM_E_INVALID);
    assert_ok(llmm_host_sample(s, 2 * SEC, log)); /* same time as the log's latest: fine */
    assert_ok(llmm_host_signal_rate(s, LLMM_HOST_CTX_SWITCHES, &v));
    assert_true(v == 0);
    assert_ok(llmm_event_log_counts(log, &held, NULL, NULL));
    assert_int_equal(held, 1); /* no event: nothing moved */
    llmm_event_log_free(log);
    llmm_host_sampler_free(s);
    host_tree_free(dir);
}

static llmm_status make_and_sample(llmm_ctx *ctx, void *dir)
{
    llmm_host_sampler *s = NULL;
    llmm_status st = llmm_host_sampler_new(ctx, dir, &s);
    double v;
    if (st != LLMM_OK) {
        assert_null(s);
        return st;
    }
    assert_ok(llmm_host_sample(s, SEC, NULL));
    assert_ok(llmm_host_signal_rate(s, LLMM_HOST_CPU_FREQ_MHZ, &v));
    assert_true(v == 3000);
    llmm_host_sampler_free(s);
    return LLMM_OK;
}

/* Every allocation failure during creation is cleaned up (and closes what was opened); after
 * creation, samples allocate nothing. */
static void test_allocation(void **state)
{
    char dir[4096];
    llmm_test_alloc t;
    llmm_ctx *ctx;
    llmm_host_sampler *s;
    size_t calls, k;
    (void)state;

    host_tree_new(dir, "linux-5.10");
    k = llmm_test_each_failure(make_and_sample, dir);
    assert_true(k >= 9); /* the sampler, eight file buffers and their growth, the CPU list */
    ctx = llmm_test_ctx(&t, 0);
    assert_ok(llmm_host_sampler_new(ctx, dir, &s));
    calls = t.calls;
    for (uint64_t i = 1; i <= 1000; i++)
        assert_ok(llmm_host_sample(s, i * MS, NULL));
    assert_int_equal(t.calls, calls);
    llmm_host_sampler_free(s);
    assert_int_equal(t.live_blocks, 1);
    llmm_ctx_free(ctx);
    host_tree_free(dir);
}

/* Write RetransSegs = v into the 6.18 tree's snmp copy (the file keeps its inode). */
static void set_retrans(const char *dir, uint64_t v)
{
    char path[4200], text[4096], *p;
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "%s/proc/net/snmp", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* the value line: "Tcp: 1 200 120000 -1 a b c d e f g RETRANS …", field 12 */
    p = strstr(strstr(text, "Tcp:") + 4, "Tcp:");
    assert_non_null(p);
    f = fopen(path, "w");
    assert_non_null(f);
    int fields = 0;
    char *q = p;
    while (fields < 12)
        fields += *q++ == ' ';
    char *end = strchr(q, ' ');
    fprintf(f, "%.*s%" PRIu64 "%s", (int)(q - text), text, v, end);
    fclose(f);
}

/* Pearson's r by its definition, in long double: the independent reference. */
static double pearson_ref(const double *x, const double *y, size_t n)
{
    long double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    return (double)(sxy / sqrtl(sxx * syy));
}

/* The rates feed llmm_correlation() against a latency window: eight 0.5 s intervals with
 * known retransmit counts and known latencies; each sample pairs the interval's retransmit
 * rate with the interval's P99 from a llmm_window, and the correlation of the pairs matches
 * Pearson's r of the exact values within the sketch's error. */
static void test_correlation_with_latency_window(void **state)
{
    static const uint64_t retrans[8] = {0, 3, 1, 8, 0, 5, 2, 12};
    static const double p99[8] = {0.020, 0.041, 0.026, 0.090, 0.020, 0.070, 0.030, 0.160};
    double rate[8], q[8], exact_rate[8], r, rho;
    char dir[4096];
    llmm_host_sampler *s;
    llmm_window *w;
    uint64_t t = SEC, total = 22;
    (void)state;

    host_tree_new(dir, "linux-6.18");
    s = mks(dir);
    assert_ok(llmm_window_new(NULL, STEP, 4, 6, &w));
    set_retrans(dir, total);
    assert_ok(llmm_host_sample(s, t, NULL));
    for (int k = 0; k < 8; k++) {
        /* 100 latencies in the interval: 98 at 10 ms, two at its P99 (nearest rank 99) */
        for (int i = 0; i < 100; i++)
            assert_ok(llmm_window_add(w, t + (uint64_t)i * MS, i < 98 ? 0.010 : p99[k]));
        t += STEP;
        total += retrans[k];
        set_retrans(dir, total);
        assert_ok(llmm_host_sample(s, t, NULL));
        assert_ok(llmm_host_signal_rate(s, LLMM_HOST_TCP_RETRANS, &rate[k]));
        assert_ok(llmm_window_quantile(w, t - 1, STEP, 0.99, &q[k]));
        exact_rate[k] = (double)retrans[k] * 2;
        assert_true(rate[k] == exact_rate[k]);
        assert_close(q[k], p99[k], REL_ERR_S6, 0);
    }
    assert_ok(llmm_correlation(NULL, rate, q, 8, LLMM_CORRELATION_PEARSON, &r));
    assert_close(r, pearson_ref(exact_rate, p99, 8), 0.01, 0);
    assert_true(r > 0.95);
    /* both series rise in the same order, with their ties (intervals 0 and 4) in the same
     * places: Spearman's rho is 1 */
    assert_ok(llmm_correlation(NULL, rate, q, 8, LLMM_CORRELATION_SPEARMAN, &rho));
    assert_close(rho, 1.0, 1e-12, 0);
    llmm_window_free(w);
    llmm_host_sampler_free(s);
    host_tree_free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_events),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_tree_linux_6_18),
        cmocka_unit_test(test_tree_linux_5_10),
        cmocka_unit_test(test_tree_linux_3_2),
        cmocka_unit_test(test_tree_missing),
        cmocka_unit_test(test_tree_garbage),
        cmocka_unit_test(test_roots),
        cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_clock_and_log),
        cmocka_unit_test(test_allocation),
        cmocka_unit_test(test_correlation_with_latency_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
