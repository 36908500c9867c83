/* metrics_server: an inference-server simulation exposing its latencies on /metrics.
 *
 * Worker threads play the part of an inference server's request handlers: each records the
 * time to first token (TTFT), time per output token (TPOT) and end-to-end latency (E2E) of
 * its simulated requests, in seconds, into its own shard of three llmm_recorder objects. The
 * HTTP endpoint (libmicrohttpd) snapshots the recorders on every scrape and answers in the
 * format the scraper asks for: Prometheus protobuf with native histograms when the Accept
 * header offers it (Prometheus with --enable-feature=native-histograms), text 0.0.4
 * otherwise.
 *
 * `metrics_server --help` lists the flags (the table `options` below).
 *
 * The endpoint runs through the project's HTTP guard (tools/http/guard.h, admitting by the
 * one policy of tools/http/admit.h) so that slow or idle clients cannot starve the scraper,
 * even from its own address: epoll; a complete request is always served; at most 16
 * connections from one address waiting for their request and 4096 in all, past which the one
 * waiting longest gives way to the new one; a 10 s idle timeout and a deadline for a whole
 * request (--request-deadline, 10 s by default). GET and HEAD /metrics are served (HEAD: the
 * same headers, no body); other methods get 405.
 *
 * Families: llm_ttft_seconds, llm_tpot_seconds, llm_e2e_seconds (native histograms in
 * protobuf; in text the bounded classic fallback: the OpenTelemetry GenAI TTFT, TPOT and
 * duration bucket lists, or with --classic-max N each sketch's grid downscaled to at most N
 * bounds), llm_e2e_classic_seconds (classic histogram on vLLM's end-to-end bucket list, in
 * both formats), llm_e2e_quantiles_seconds (summary), llm_requests_total and
 * llm_request_errors_total (counters; about 1 % of simulated requests fail and record no
 * latency), llm_spike_ratio (share of the last minute's requests above the P99 baseline in
 * force when they arrived, from an llmm_spike detector over E2E; 0 to 1) and
 * llm_spikes_total{level}. Per scrape that is 38 samples with native histograms and 87 in
 * text with the lists (with --classic-max N at most 3·N + 44).
 *
 * Exemplars: every simulated request gets a random W3C trace id and span id, and offers an
 * exemplar (its latency, its ids, the wall-clock time) to each latency family, whose store
 * keeps the latest one per bucket of that family's list; the request counters carry the
 * latest request's (the error counter the latest failed one's). They are served in
 * OpenMetrics (asked for first by Prometheus without native histograms) on every classic
 * bucket and counter, and in protobuf on classic buckets, counters and as the native
 * histograms' one exemplar; text 0.0.4 has none. --exemplar-dump FILE (test mode) writes
 * every offered exemplar.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdatomic.h>
#include <unistd.h>

#include <llmmetrics/llmmetrics.h>

#include "guard.h"
#include "respond.h"

enum { TTFT, TPOT, E2E, NSERIES };
static const char *const family_name[NSERIES] = {"llm_ttft_seconds", "llm_tpot_seconds",
                                                 "llm_e2e_seconds"};
static const char *const family_help[NSERIES] = {
    "Time to first token of each request, in seconds.",
    "Time per output token after the first, in seconds.",
    "End-to-end request latency, in seconds."};
/* The text (classic) fallback of each family: OpenTelemetry GenAI's list for that latency. */
static const llmm_bucket_list family_list[NSERIES] = {
    LLMM_BUCKETS_OTEL_GENAI_TTFT, LLMM_BUCKETS_OTEL_GENAI_TPOT, LLMM_BUCKETS_OTEL_GENAI_DURATION};

/* Exemplar stores: one per latency family (on its bucket list), one for the classic E2E
 * family (vLLM's list), one slot each for the two counters. */
enum { EX_CLASSIC = NSERIES, EX_REQUESTS, EX_ERRORS, NEXSTORES };

typedef struct server {
    llmm_exemplars *ex[NEXSTORES];
    llmm_recorder *rec[NSERIES];
    llmm_sketch *snap[NSERIES];
    llmm_prom_writer *writer;
    pthread_mutex_t scrape_lock; /* one scrape at a time uses snap[] and writer */
    volatile sig_atomic_t stop;
    uint64_t seed;
    double rate;
    _Atomic uint64_t requests, errors;
    /* One spike detector for the whole server, behind a lock: the simulation's request rate
     * is low. A busy server gives each worker its own detector instead. */
    pthread_mutex_t spike_lock;
    llmm_spike *spike;
    uint64_t spike_clock; /* test mode: the data set's synthetic clock, frozen after recording */
    int test_mode;
    unsigned classic_max; /* 0: the families' bucket lists; else the downscaled grid's bound */
} server;

/* ---- exemplars ---------------------------------------------------------------------------- */

typedef struct trace {
    uint8_t trace_id[16], span_id[8];
    uint64_t unix_ns;
} trace;

static uint64_t rng(uint64_t *x);

/* A request's ids: random, never all zero (the xorshift state never is). */
static void new_trace(uint64_t *x, uint64_t unix_ns, trace *t)
{
    uint64_t a = rng(x), b = rng(x), c = rng(x) | 1u;
    memcpy(t->trace_id, &a, 8);
    memcpy(t->trace_id + 8, &b, 8);
    memcpy(t->span_id, &c, 8);
    t->unix_ns = unix_ns;
}

static uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Exemplar layouts: each latency family's bucket list, vLLM's for the classic family, one
 * slot for each counter. */
static int exemplars_new(server *srv)
{
    static const llmm_bucket_list lists[EX_REQUESTS] = {
        LLMM_BUCKETS_OTEL_GENAI_TTFT, LLMM_BUCKETS_OTEL_GENAI_TPOT,
        LLMM_BUCKETS_OTEL_GENAI_DURATION, LLMM_BUCKETS_VLLM_REQUEST_LATENCY};
    for (int k = 0; k < NEXSTORES; k++) {
        double b[64];
        size_t nb = 0;
        if ((k < EX_REQUESTS && llmm_prom_buckets(lists[k], b, 64, &nb) != LLMM_OK) ||
            llmm_exemplars_new(NULL, b, nb, LLMM_EXEMPLAR_LATEST, &srv->ex[k]) != LLMM_OK)
            return -1;
    }
    return 0;
}

static int exemplar_shards(server *srv, llmm_exemplar_shard *xs[])
{
    for (int k = 0; k < NEXSTORES; k++)
        if (llmm_exemplars_shard(srv->ex[k], &xs[k]) != LLMM_OK)
            return -1;
    return 0;
}

static void exemplar_shards_release(llmm_exemplar_shard *xs[])
{
    for (int k = 0; k < NEXSTORES; k++)
        llmm_exemplar_shard_release(xs[k]);
}

/* One request's exemplars: its latencies, and the counters' (the value 1: one request). */
static void record_exemplars(llmm_exemplar_shard *const xs[], const double v[], int failed,
                             const trace *t, FILE *dump)
{
    static const char *const name[NEXSTORES] = {"llm_ttft_seconds", "llm_tpot_seconds",
                                                "llm_e2e_seconds", "llm_e2e_classic_seconds",
                                                "llm_requests_total", "llm_request_errors_total"};
    for (int k = 0; k < NEXSTORES; k++) {
        double x = k < NSERIES ? v[k] : k == EX_CLASSIC ? v[E2E] : 1.0;
        if ((k <= EX_CLASSIC && failed) || (k == EX_ERRORS && !failed))
            continue;
        llmm_exemplar_shard_record(xs[k], x, t->trace_id, t->span_id, t->unix_ns, NULL);
        if (dump) {
            fprintf(dump, "%s %.17g ", name[k], x);
            for (int i = 0; i < 16; i++)
                fprintf(dump, "%02x", t->trace_id[i]);
            fputc(' ', dump);
            for (int i = 0; i < 8; i++)
                fprintf(dump, "%02x", t->span_id[i]);
            fprintf(dump, " %llu\n", (unsigned long long)t->unix_ns);
        }
    }
}

/* Count one finished request: errors record no latency. */
static void finish_request(server *srv, llmm_shard *const sh[], const double v[], int failed,
                           uint64_t now_ns)
{
    atomic_fetch_add(&srv->requests, 1);
    if (failed) {
        atomic_fetch_add(&srv->errors, 1);
        return;
    }
    for (int k = 0; k < NSERIES; k++)
        llmm_shard_add(sh[k], v[k]);
    pthread_mutex_lock(&srv->spike_lock);
    llmm_spike_observe(srv->spike, now_ns, v[E2E], NULL);
    pthread_mutex_unlock(&srv->spike_lock);
}

/* ---- simulated requests ------------------------------------------------------------------ */

static uint64_t rng(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(2685821657736338717);
}

static double unit(uint64_t *x)
{
    return ((double)(rng(x) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static double gauss(uint64_t *x)
{
    return sqrt(-2.0 * log(unit(x))) * cos(6.283185307179586 * unit(x));
}

/* One request: TTFT log-normal around 150 ms, TPOT around 25 ms, 20..500 output tokens. */
static void simulate(uint64_t *x, double *ttft, double *tpot, double *e2e)
{
    int tokens = 20 + (int)(unit(x) * 480.0);
    *ttft = 0.150 * exp(0.6 * gauss(x));
    *tpot = 0.025 * exp(0.3 * gauss(x));
    *e2e = *ttft + *tpot * (tokens - 1);
}

typedef struct {
    server *srv;
    unsigned id;
} worker_arg;

static void *worker(void *p)
{
    worker_arg *a = p;
    server *srv = a->srv;
    llmm_shard *sh[NSERIES];
    llmm_exemplar_shard *xs[NEXSTORES];
    uint64_t x = srv->seed * 0x9E3779B97F4A7C15u + a->id + 1;
    uint64_t tx = (wall_ns() ^ (uint64_t)a->id << 56) | 1u; /* trace ids: random per run */
    struct timespec pause;
    double gap = 1.0 / srv->rate;
    for (int k = 0; k < NSERIES; k++)
        if (llmm_recorder_shard(srv->rec[k], &sh[k]) != LLMM_OK)
            return NULL;
    if (exemplar_shards(srv, xs) != 0)
        return NULL;
    pause.tv_sec = (time_t)gap;
    pause.tv_nsec = (long)((gap - (double)pause.tv_sec) * 1e9);
    while (!srv->stop) {
        double v[NSERIES];
        int failed;
        trace t;
        simulate(&x, &v[TTFT], &v[TPOT], &v[E2E]);
        failed = unit(&x) < 0.01;
        new_trace(&tx, wall_ns(), &t);
        finish_request(srv, sh, v, failed, llmm_now_ns());
        record_exemplars(xs, v, failed, &t, NULL);
        nanosleep(&pause, NULL);
    }
    for (int k = 0; k < NSERIES; k++)
        llmm_shard_release(sh[k]);
    exemplar_shards_release(xs);
    return NULL;
}

/* Test mode: a fixed data set recorded once (through one shard per series). */
static FILE *open_dump(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "metrics_server: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static int record_fixed(server *srv, unsigned n, const char *dump, const char *ex_dump)
{
    llmm_shard *sh[NSERIES];
    llmm_exemplar_shard *xs[NEXSTORES];
    uint64_t x = srv->seed * 0x9E3779B97F4A7C15u + 12345, tx = x | 1u, t0 = wall_ns();
    FILE *f = NULL, *xf = NULL;
    if ((dump && !(f = open_dump(dump))) || (ex_dump && !(xf = open_dump(ex_dump))))
        return -1;
    for (int k = 0; k < NSERIES; k++)
        if (llmm_recorder_shard(srv->rec[k], &sh[k]) != LLMM_OK)
            return -1;
    if (exemplar_shards(srv, xs) != 0)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        double v[NSERIES];
        int failed;
        simulate(&x, &v[TTFT], &v[TPOT], &v[E2E]);
        failed = unit(&x) < 0.01;
        /* one request per millisecond on a synthetic clock: a deterministic spike rate */
        srv->spike_clock = (uint64_t)(i + 1) * 1000000u;
        finish_request(srv, sh, v, failed, srv->spike_clock);
        {
            trace t; /* one microsecond apart on the wall clock: distinct, ordered times */
            new_trace(&tx, t0 + (uint64_t)i * 1000u, &t);
            record_exemplars(xs, v, failed, &t, xf);
        }
        if (f && !failed)
            fprintf(f, "%.17g\n", v[E2E]);
    }
    for (int k = 0; k < NSERIES; k++)
        llmm_shard_release(sh[k]);
    exemplar_shards_release(xs);
    if (f)
        fclose(f);
    if (xf)
        fclose(xf);
    return 0;
}

/* ---- /metrics ---------------------------------------------------------------------------- */

static llmm_status write_spikes(server *srv);
static llmm_status counter_with_exemplar(server *srv, double value, const llmm_exemplars *ex);

static llmm_status build_exposition(server *srv, llmm_prom_format fmt)
{
    static const double summary_q[] = {0.5, 0.9, 0.99, 0.999};
    double bounds[64];
    size_t nb = 0;
    llmm_status st;
    for (int k = 0; k < NSERIES; k++)
        if ((st = llmm_recorder_snapshot(srv->rec[k], srv->snap[k])) != LLMM_OK)
            return st;
    if ((st = llmm_prom_writer_reset(srv->writer, fmt)) != LLMM_OK)
        return st;
    for (int k = 0; k < NSERIES; k++) {
        /* no bounds of their own: protobuf sends pure native histograms, text the bounded
         * classic fallback chosen here */
        st = srv->classic_max ? llmm_prom_writer_set_classic_max(srv->writer, srv->classic_max)
                              : llmm_prom_writer_set_classic_list(srv->writer, family_list[k]);
        if (st != LLMM_OK ||
            (st = llmm_prom_writer_family(srv->writer, family_name[k], family_help[k],
                                          LLMM_PROM_NATIVE_HISTOGRAM, NULL, 0)) != LLMM_OK ||
            (st = llmm_prom_writer_sketch_exemplars(srv->writer, NULL, srv->snap[k], 1.0,
                                                    srv->ex[k])) != LLMM_OK)
            return st;
    }
    if ((st = llmm_prom_buckets(LLMM_BUCKETS_VLLM_REQUEST_LATENCY, bounds, 64, &nb)) != LLMM_OK)
        return st;
    if ((st = llmm_prom_writer_family(srv->writer, "llm_e2e_classic_seconds",
                                      "End-to-end latency against vLLM's bucket list.",
                                      LLMM_PROM_HISTOGRAM, bounds, nb)) != LLMM_OK ||
        (st = llmm_prom_writer_sketch_exemplars(srv->writer, NULL, srv->snap[E2E], 1.0,
                                                srv->ex[EX_CLASSIC])) != LLMM_OK)
        return st;
    if ((st = llmm_prom_writer_family(srv->writer, "llm_e2e_quantiles_seconds",
                                      "End-to-end latency quantiles (nearest rank).",
                                      LLMM_PROM_SUMMARY, summary_q, 4)) != LLMM_OK ||
        (st = llmm_prom_writer_sketch(srv->writer, NULL, srv->snap[E2E], 1.0)) != LLMM_OK)
        return st;
    if ((st = llmm_prom_writer_family(srv->writer, "llm_requests_total",
                                      "Requests finished, failed ones included.",
                                      LLMM_PROM_COUNTER, NULL, 0)) != LLMM_OK ||
        (st = counter_with_exemplar(srv, (double)atomic_load(&srv->requests),
                                    srv->ex[EX_REQUESTS])) != LLMM_OK)
        return st;
    if ((st = llmm_prom_writer_family(srv->writer, "llm_request_errors_total",
                                      "Requests that failed.", LLMM_PROM_COUNTER, NULL, 0)) !=
            LLMM_OK ||
        (st = counter_with_exemplar(srv, (double)atomic_load(&srv->errors),
                                    srv->ex[EX_ERRORS])) != LLMM_OK)
        return st;
    return write_spikes(srv);
}

/* A counter series with the latest exemplar of its one-slot store, if there is one. */
static llmm_status counter_with_exemplar(server *srv, double value, const llmm_exemplars *ex)
{
    llmm_exemplar e;
    llmm_exemplar_init(&e);
    if (llmm_exemplars_get(ex, 0, &e) != LLMM_OK)
        return llmm_prom_writer_value(srv->writer, NULL, value);
    return llmm_prom_writer_value_exemplar(srv->writer, NULL, value, &e);
}

/* Spike families: the window's spike ratio and the running level counts. */
static llmm_status write_spikes(server *srv)
{
    llmm_spike_stats stats;
    double rate = 0.0;
    llmm_status st;
    uint64_t now;
    llmm_spike_stats_init(&stats);
    pthread_mutex_lock(&srv->spike_lock);
    now = srv->test_mode ? srv->spike_clock : llmm_now_ns();
    st = llmm_spike_get_stats(srv->spike, now, &stats);
    if (st == LLMM_OK && llmm_spike_rate(srv->spike, now, &rate) != LLMM_OK)
        rate = 0.0; /* no classified request in the window yet */
    pthread_mutex_unlock(&srv->spike_lock);
    if (st != LLMM_OK)
        return st;
    if ((st = llmm_prom_writer_family(srv->writer, "llm_spike_ratio",
                                      "Share (0 to 1) of the last minute's classified requests "
                                      "above the P99 baseline in force when they arrived.",
                                      LLMM_PROM_GAUGE, NULL, 0)) != LLMM_OK ||
        (st = llmm_prom_writer_value(srv->writer, NULL, rate)) != LLMM_OK)
        return st;
    if ((st = llmm_prom_writer_family(srv->writer, "llm_spikes_total",
                                      "Requests classified as latency spikes, by level (1: above "
                                      "P99; 2: also above 1.2 x P99.9).",
                                      LLMM_PROM_COUNTER, NULL, 0)) != LLMM_OK ||
        (st = llmm_prom_writer_value(srv->writer, "level=\"1\"", (double)stats.total_level1)) !=
            LLMM_OK ||
        (st = llmm_prom_writer_value(srv->writer, "level=\"2\"", (double)stats.total_level2)) !=
            LLMM_OK)
        return st;
    return LLMM_OK;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **state)
{
    server *srv = cls;
    const char *accept, *ctype = NULL;
    llmm_prom_format fmt;
    llmm_status st;
    enum MHD_Result ret;
    (void)version;
    (void)upload;
    (void)upload_size;
    (void)state;
    if (llmm_http_refuse_but_metrics(c, url, method, &ret))
        return ret;
    accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
    llmm_prom_negotiate_openmetrics(accept, &fmt, &ctype);
    pthread_mutex_lock(&srv->scrape_lock);
    st = build_exposition(srv, fmt);
    ret = llmm_http_respond_exposition(c, st, srv->writer, ctype);
    pthread_mutex_unlock(&srv->scrape_lock);
    return ret;
}

static server *the_server;

static void on_signal(int sig)
{
    (void)sig;
    if (the_server)
        the_server->stop = 1;
}

/* Every flag, in the order --help lists them; the parser accepts exactly these. */
enum { O_PORT, O_SEED, O_RATE, O_THREADS, O_CLASSIC_MAX, O_TEST_MODE, O_REQUESTS, O_DUMP,
       O_EXEMPLAR_DUMP, O_DEADLINE, O_HELP, NOPTIONS };
static const struct {
    const char *flag, *arg, *help;
} options[NOPTIONS] = {
    [O_PORT] = {"--port", "N", "listen on 127.0.0.1:N (default 9464)"},
    [O_SEED] = {"--seed", "S", "seed of the simulated latencies (default 1)"},
    [O_RATE] = {"--rate", "R", "simulated requests per second per worker (default 200)"},
    [O_THREADS] = {"--threads", "T", "worker threads, 1 to 64 (default 2)"},
    [O_CLASSIC_MAX] = {"--classic-max", "N",
                       "text fallback: each latency sketch's own grid downscaled to at most N "
                       "(>= 3) le bounds instead of the OpenTelemetry GenAI bucket lists "
                       "(default 0: the lists)"},
    [O_TEST_MODE] = {"--test-mode", NULL,
                     "record a fixed data set of --requests requests once, at start, and serve "
                     "it unchanged (no workers): what the end-to-end tests compare against"},
    [O_REQUESTS] = {"--requests", "N", "size of the test-mode data set (default 5000)"},
    [O_DUMP] = {"--dump", "FILE", "in test mode, write the recorded E2E values, one per line"},
    [O_EXEMPLAR_DUMP] = {"--exemplar-dump", "FILE",
                         "in test mode, write every exemplar offered, one per line: family, "
                         "value, trace id, span id, Unix time in ns"},
    [O_DEADLINE] = {"--request-deadline", "S",
                    "close a connection whose request has not arrived complete S seconds "
                    "(1 to 3600) after it opened, or after its previous response (default "
                    "10); at most 16 connections waiting for a request from one address, "
                    "4096 in all: past either, the one waiting longest gives way"},
    [O_HELP] = {"--help", NULL, "print this help and exit"},
};

/* `text` word-wrapped into lines of at most 78 columns that start at column 21. */
static void print_wrapped(const char *text)
{
    int col = 21;
    while (*text) {
        size_t w = strcspn(text, " ");
        if (col > 21 && col + 1 + (int)w > 78) {
            printf("\n%21s", "");
            col = 21;
        } else if (col > 21) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)w, text);
        col += (int)w;
        text += w;
        text += strspn(text, " ");
    }
    putchar('\n');
}

static void help(void)
{
    printf("usage: metrics_server [OPTION]...\n"
           "An inference-server simulation serving its latencies on "
           "http://127.0.0.1:PORT/metrics\n(Prometheus protobuf with native histograms or "
           "OpenMetrics with exemplars when\nasked, text 0.0.4 otherwise).\n\n");
    for (int k = 0; k < NOPTIONS; k++) {
        char head[32];
        snprintf(head, sizeof head, "%s%s%s", options[k].flag, options[k].arg ? " " : "",
                 options[k].arg ? options[k].arg : "");
        if (strlen(head) > 18) /* its own line, the text below it */
            printf("  %s\n%21s", head, "");
        else
            printf("  %-18s ", head);
        print_wrapped(options[k].help);
    }
}

static int bad_usage(const char *what, const char *arg)
{
    fprintf(stderr, "metrics_server: %s%s\ntry metrics_server --help\n", what, arg);
    return 2;
}

static int option_index(const char *a)
{
    for (int k = 0; k < NOPTIONS; k++)
        if (strcmp(a, options[k].flag) == 0)
            return k;
    return -1;
}

typedef struct {
    unsigned port, threads, requests, deadline;
    int test_mode;
    const char *dump, *ex_dump;
} cli;

/* 0 to run, -1 after --help (exit 0), 2 for a bad command line. */
static int parse_args(int argc, char **argv, server *srv, cli *o)
{
    for (int i = 1; i < argc; i++) {
        int k = option_index(argv[i]);
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (k == O_HELP) {
            help();
            return -1;
        }
        if (k == O_TEST_MODE) {
            o->test_mode = 1;
            continue;
        }
        if (k < 0 || !val)
            return bad_usage(k < 0 ? "unknown option " : "missing value for ", argv[i]);
        i++;
        switch (k) {
        case O_PORT: o->port = (unsigned)strtoul(val, &end, 10); break;
        case O_SEED: srv->seed = strtoull(val, &end, 10); break;
        case O_RATE: srv->rate = strtod(val, &end); break;
        case O_THREADS: o->threads = (unsigned)strtoul(val, &end, 10); break;
        case O_CLASSIC_MAX: srv->classic_max = (unsigned)strtoul(val, &end, 10); break;
        case O_REQUESTS: o->requests = (unsigned)strtoul(val, &end, 10); break;
        case O_DEADLINE: o->deadline = (unsigned)strtoul(val, &end, 10); break;
        case O_EXEMPLAR_DUMP: o->ex_dump = val; end = (char *)(uintptr_t)(val + strlen(val)); break;
        default: o->dump = val; end = (char *)(uintptr_t)(val + strlen(val)); break;
        }
        if (end == val || *end)
            return bad_usage("bad value for ", argv[i - 1]);
    }
    if (o->port == 0 || o->port > 65535 || o->threads == 0 || o->threads > 64 ||
        !(srv->rate > 0.0) || srv->classic_max == 1 || srv->classic_max == 2 ||
        o->deadline == 0 || o->deadline > 3600)
        return bad_usage("a value out of range", "");
    return 0;
}

int main(int argc, char **argv)
{
    server srv;
    cli o = {9464, 2, 5000, LLMM_HTTP_REQUEST_S, 0, NULL, NULL};
    struct sockaddr_in addr;
    llmm_http_limits limits;
    llmm_http_server *d;
    pthread_t th[64];
    worker_arg args[64];
    int rc;
    memset(&srv, 0, sizeof srv);
    srv.seed = 1;
    srv.rate = 200.0;
    if ((rc = parse_args(argc, argv, &srv, &o)) != 0)
        return rc < 0 ? 0 : rc;
    pthread_mutex_init(&srv.scrape_lock, NULL);
    pthread_mutex_init(&srv.spike_lock, NULL);
    srv.test_mode = o.test_mode;
    atomic_init(&srv.requests, 0);
    atomic_init(&srv.errors, 0);
    if (llmm_spike_new(NULL, &srv.spike) != LLMM_OK)
        return 1;
    for (int k = 0; k < NSERIES; k++) {
        if (llmm_recorder_new(NULL, LLMM_SCALE_DEFAULT, &srv.rec[k]) != LLMM_OK ||
            llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &srv.snap[k]) != LLMM_OK)
            return 1;
    }
    if (llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &srv.writer) != LLMM_OK ||
        exemplars_new(&srv) != 0)
        return 1;
    if (o.test_mode && record_fixed(&srv, o.requests, o.dump, o.ex_dump) != 0)
        return 1;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)o.port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    llmm_http_limits_default(&limits);
    limits.request_s = o.deadline;
    d = llmm_http_start((struct sockaddr *)&addr, &limits, handle, &srv);
    if (!d) {
        fprintf(stderr, "metrics_server: cannot listen on 127.0.0.1:%u\n", o.port);
        return 1;
    }
    the_server = &srv;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    if (!o.test_mode) {
        for (unsigned t = 0; t < o.threads; t++) {
            args[t] = (worker_arg){&srv, t};
            pthread_create(&th[t], NULL, worker, &args[t]);
        }
    }
    printf("metrics_server: serving http://127.0.0.1:%u/metrics (%s)\n", o.port,
           o.test_mode ? "test mode" : "simulating");
    fflush(stdout);
    while (!srv.stop)
        pause();
    if (!o.test_mode)
        for (unsigned t = 0; t < o.threads; t++)
            pthread_join(th[t], NULL);
    llmm_http_stop(d);
    llmm_prom_writer_free(srv.writer);
    llmm_spike_free(srv.spike);
    for (int k = 0; k < NSERIES; k++) {
        llmm_recorder_free(srv.rec[k]);
        llmm_sketch_free(srv.snap[k]);
    }
    for (int k = 0; k < NEXSTORES; k++)
        llmm_exemplars_free(srv.ex[k]);
    return 0;
}
