/* otlp_push: how a server pushes its latency sketches and request counts to an OpenTelemetry
 * collector over OTLP/HTTP, with client spans for a few requests.
 *
 *   otlp_push URL [--json] [--no-gzip] [--pushes N] [--interval-ms MS] [--max-attempts N]
 *             [--timeout-ms MS]
 *
 * URL is the collector's base (`http://localhost:4318`); metrics go to URL/v1/metrics and
 * spans to URL/v1/traces. The "server" records synthetic TTFT and E2E latencies through
 * recorder shards and counts requests by outcome; every interval it snapshots the recorders
 * and pushes cumulative exponential histograms (start = when it started), the counts as
 * monotonic sums, and one span per sampled request, with an exemplar on the E2E histogram
 * pointing at the slowest sampled span. The sender (tools/otlp: protobuf by default, gzip,
 * timeouts, retries on 429/502/503/504 honouring Retry-After) is meant to be copied.
 * One line per push on stdout; exit status 1 when any push failed. */
#define _POSIX_C_SOURCE 200809L
#include <curl/curl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llmmetrics/llmmetrics.h>

#include "otlp_push.h"

#define SAMPLED 4 /* spans per push */

static uint64_t rng = 0x2545f4914f6cdd1dull;

static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static uint64_t unix_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void random_id(uint8_t *id, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        id[i] = (uint8_t)(uniform() * 256);
    id[0] |= 1; /* never all zero */
}

static void report(const char *what, int push, int rc, const llmm_push_result *r)
{
    int i;
    printf("%s %d: %s status=%ld attempts=%d retry_after=%d bytes=%zu waits=", what, push,
           rc == 0 ? "ok" : "failed", r->http_status, r->attempts, r->retry_after, r->body_bytes);
    for (i = 0; i < r->waits; i++)
        printf("%s%ld", i ? "," : "", r->waited_ms[i]);
    printf("%s%s\n", r->error[0] ? " error=" : "", r->error);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    llmm_push_config cfg;
    llmm_recorder *ttft = NULL, *e2e = NULL;
    llmm_sketch *snap_ttft = NULL, *snap_e2e = NULL;
    llmm_shard *sh_ttft = NULL, *sh_e2e = NULL;
    double ok_count = 0, error_count = 0;
    int pushes = 2, failed = 0, i, p;
    long interval_ms = 100;
    uint64_t start;

    llmm_push_config_default(&cfg);
    if (argc < 2) {
        fprintf(stderr, "usage: otlp_push URL [--json] [--no-gzip] [--pushes N] "
                        "[--interval-ms MS] [--max-attempts N] [--timeout-ms MS]\n");
        return 2;
    }
    cfg.endpoint = argv[1];
    cfg.resource_attributes = "service.name=\"otlp_push_example\"";
    for (i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            cfg.json = 1;
        else if (!strcmp(argv[i], "--no-gzip"))
            cfg.gzip = 0;
        else if (!strcmp(argv[i], "--pushes") && i + 1 < argc)
            pushes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--interval-ms") && i + 1 < argc)
            interval_ms = atol(argv[++i]);
        else if (!strcmp(argv[i], "--max-attempts") && i + 1 < argc)
            cfg.max_attempts = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--timeout-ms") && i + 1 < argc)
            cfg.timeout_ms = atol(argv[++i]);
        else {
            fprintf(stderr, "otlp_push: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    /* libcurl's global state: once, before any thread */
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return 1;
    if (llmm_recorder_new(NULL, LLMM_SCALE_DEFAULT, &ttft) != LLMM_OK ||
        llmm_recorder_new(NULL, LLMM_SCALE_DEFAULT, &e2e) != LLMM_OK ||
        llmm_recorder_shard(ttft, &sh_ttft) != LLMM_OK ||
        llmm_recorder_shard(e2e, &sh_e2e) != LLMM_OK ||
        llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &snap_ttft) != LLMM_OK ||
        llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &snap_e2e) != LLMM_OK)
        return 1;
    start = unix_ns();
    for (p = 1; p <= pushes; p++) {
        llmm_otlp_span spans[SAMPLED];
        llmm_otlp_attribute attrs[SAMPLED][2];
        llmm_otlp_exemplar ex;
        llmm_push_histogram h[2];
        llmm_push_counter k[2];
        llmm_push_result r;
        uint64_t now;
        double slowest = -1;
        int rc;

        /* one interval of "traffic": 200 requests, 2 % errors, SAMPLED of them traced */
        for (i = 0; i < 200; i++) {
            double t = 0.05 * exp(0.5 * (uniform() - 0.5)), e = t + 0.5 + uniform();
            llmm_shard_add(sh_ttft, t);
            llmm_shard_add(sh_e2e, e);
            if (uniform() < 0.02)
                error_count++;
            else
                ok_count++;
            if (i < SAMPLED) {
                llmm_otlp_span *s = &spans[i];
                now = unix_ns();
                llmm_otlp_span_init(s);
                random_id(s->trace_id, sizeof s->trace_id);
                random_id(s->span_id, sizeof s->span_id);
                s->name = "chat";
                s->start_time_unix_nano = now - (uint64_t)(e * 1e9);
                s->end_time_unix_nano = now;
                llmm_otlp_attribute_init(&attrs[i][0]);
                attrs[i][0].key = "gen_ai.server.time_to_first_token";
                attrs[i][0].type = LLMM_OTLP_DOUBLE;
                attrs[i][0].double_value = t;
                llmm_otlp_attribute_init(&attrs[i][1]);
                attrs[i][1].key = "gen_ai.usage.output_tokens";
                attrs[i][1].type = LLMM_OTLP_INT;
                attrs[i][1].int_value = 100 + i;
                s->attributes = attrs[i];
                s->attribute_count = 2;
                s->status_code = LLMM_OTLP_STATUS_OK;
                if (e > slowest) { /* the exemplar: the slowest traced request */
                    slowest = e;
                    llmm_otlp_exemplar_init(&ex);
                    ex.value = e;
                    ex.time_unix_nano = now;
                    memcpy(ex.trace_id, s->trace_id, sizeof ex.trace_id);
                    memcpy(ex.span_id, s->span_id, sizeof ex.span_id);
                }
            }
        }
        if (llmm_recorder_snapshot(ttft, snap_ttft) != LLMM_OK ||
            llmm_recorder_snapshot(e2e, snap_e2e) != LLMM_OK)
            return 1;
        now = unix_ns();
        memset(h, 0, sizeof h);
        h[0].name = "gen_ai.server.time_to_first_token";
        h[0].unit = "s";
        h[0].sketch = snap_ttft;
        h[1].name = "gen_ai.server.request.duration";
        h[1].unit = "s";
        h[1].sketch = snap_e2e;
        h[1].exemplars = &ex;
        h[1].exemplar_count = 1;
        memset(k, 0, sizeof k);
        k[0].name = k[1].name = "server.requests";
        k[0].unit = k[1].unit = "{request}";
        k[0].attributes = "outcome=\"ok\"";
        k[0].value = ok_count;
        k[1].attributes = "outcome=\"error\"";
        k[1].value = error_count;
        rc = llmm_push_metrics(&cfg, start, now, h, 2, k, 2, &r);
        report("metrics", p, rc, &r);
        failed |= rc != 0;
        rc = llmm_push_spans(&cfg, spans, SAMPLED, &r);
        report("traces", p, rc, &r);
        failed |= rc != 0;
        if (p < pushes) {
            struct timespec ts = {interval_ms / 1000, (interval_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    llmm_shard_release(sh_ttft);
    llmm_shard_release(sh_e2e);
    llmm_recorder_free(ttft);
    llmm_recorder_free(e2e);
    llmm_sketch_free(snap_ttft);
    llmm_sketch_free(snap_e2e);
    curl_global_cleanup();
    return failed ? 1 : 0;
}
