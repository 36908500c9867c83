/* server_integration: how an inference server wires libllmmetrics in.
 *
 * - Worker threads record every request's TTFT and E2E latency through their own recorder
 *   shards (no locks on the hot path) and watch their own latency stream with a spike detector.
 * - Each worker annotates what its runtime noticed (page faults, scheduler jitter, GC pauses)
 *   in its event log; when a severe spike fires it looks back 50 ms for candidate causes.
 * - The batch engine watches batch latency with a collapse detector and marks the FP16 -> INT8
 *   weight switch; the throughput reading after the switch confirms the collapse.
 * - The exporter thread (here: main) snapshots the recorders whenever it likes.
 *
 * Time is a synthetic clock (the library never reads the clock itself), so the run and its
 * output are deterministic. Public API only. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

#define WORKERS 4
#define SECONDS 30
#define REQ_PER_SEC 400 /* per worker */
#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)

#define CHECK(call)                                                                          \
    do {                                                                                     \
        llmm_status st_ = (call);                                                            \
        if (st_ != LLMM_OK) {                                                                \
            fprintf(stderr, "%s: %s\n", #call, llmm_strerror(st_));                          \
            return st_;                                                                      \
        }                                                                                    \
    } while (0)

typedef struct {
    uint64_t x;
} rng;

static double uniform(rng *r)
{
    r->x ^= r->x >> 12;
    r->x ^= r->x << 25;
    r->x ^= r->x >> 27;
    return ((double)((r->x * UINT64_C(2685821657736338717)) >> 11) + 0.5) / 9007199254740992.0;
}

static double lognormal(rng *r, double median, double sigma)
{
    return median * exp(sigma * sqrt(-2.0 * log(uniform(r))) * cos(6.283185307179586 * uniform(r)));
}

typedef struct {
    int id;
    llmm_recorder *ttft, *e2e;
    /* results, printed by main after the join (keeps the output deterministic) */
    uint64_t level1, level2;
    uint64_t first_severe_ns;
    llmm_event causes[8];
    size_t ncauses;
    llmm_status status;
} worker;

static llmm_status run_worker(worker *w)
{
    llmm_shard *ttft = NULL, *e2e = NULL;
    llmm_spike *spikes = NULL;
    llmm_event_log *events = NULL;
    rng r = {UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)(w->id + 1)};
    const uint64_t gap = SEC / REQ_PER_SEC;
    llmm_status st;

    CHECK(llmm_recorder_shard(w->ttft, &ttft));
    CHECK(llmm_recorder_shard(w->e2e, &e2e));
    CHECK(llmm_spike_new(NULL, &spikes));
    CHECK(llmm_event_log_new(NULL, 1024, &events));
    for (uint64_t t = gap; t <= SECONDS * SEC; t += gap) {
        double first = lognormal(&r, 0.120, 0.25);
        double total = first + lognormal(&r, 2.0, 0.3);
        llmm_spike_level level = LLMM_SPIKE_NONE;
        /* worker 2 hits trouble at t = 20 s: scheduler jitter, then major page faults stall it */
        if (w->id == 2 && t >= 20 * SEC && t < 20 * SEC + 40 * MS) {
            if (t == 20 * SEC)
                llmm_event_log_add(events, t - 3 * MS, LLMM_EVENT_SCHED_JITTER, 50e-6);
            llmm_event_log_add(events, t - 1 * MS, LLMM_EVENT_MAJOR_FAULT, 1.0);
            total *= 4.0;
        }
        if (w->id == 1 && t % (5 * SEC) == 0) /* routine GC pauses, harmless */
            llmm_event_log_add(events, t, LLMM_EVENT_GC_PAUSE, 0.002);
        if ((st = llmm_shard_add(ttft, first)) != LLMM_OK ||
            (st = llmm_shard_add(e2e, total)) != LLMM_OK ||
            (st = llmm_spike_observe(spikes, t, total, &level)) != LLMM_OK)
            goto out;
        w->level1 += level == LLMM_SPIKE_LEVEL1;
        w->level2 += level == LLMM_SPIKE_LEVEL2;
        if (level == LLMM_SPIKE_LEVEL2 && !w->first_severe_ns) {
            w->first_severe_ns = t;
            st = llmm_event_log_lookback(events, t, 50 * MS, w->causes, 8, &w->ncauses);
            if (st == LLMM_E_BUFFER) { /* more than 8 candidates: keep the nearest 8 */
                w->ncauses = 8;
                st = LLMM_OK;
            }
            if (st != LLMM_OK)
                goto out;
        }
    }
    st = LLMM_OK;
out:
    llmm_shard_release(ttft);
    llmm_shard_release(e2e);
    llmm_spike_free(spikes);
    llmm_event_log_free(events);
    return st;
}

static void *worker_main(void *p)
{
    worker *w = p;
    w->status = run_worker(w);
    return NULL;
}

/* The batch engine: 20 ms batches at 50 batches/s; the weight switch at t = 15 s makes the
 * next batches slow while the INT8 kernels warm up, and throughput drops. */
static llmm_status run_engine(void)
{
    llmm_collapse *c = NULL;
    rng r = {12345};
    uint64_t flagged = 0, samples = 0;
    llmm_collapse_report rep;
    CHECK(llmm_collapse_new(NULL, &c));
    for (uint64_t t = 20 * MS; t <= 20 * SEC; t += 20 * MS) {
        double lat = 0.020 * (1.0 + 0.02 * (uniform(&r) - 0.5));
        int32_t collapsed = 0;
        if (t == 15 * SEC) {
            /* the detector's calls share one clock that never goes backwards */
            CHECK(llmm_collapse_observe_tps(c, t - 3 * MS, 5200.0)); /* tokens/s before */
            CHECK(llmm_collapse_mark_switch(c, t - 2 * MS));         /* FP16 -> INT8 */
        }
        if (t == 15 * SEC)
            lat = 0.061; /* the batch right after the switch */
        CHECK(llmm_collapse_observe(c, t, lat, &collapsed));
        if (t == 15 * SEC)
            CHECK(llmm_collapse_observe_tps(c, t + 1 * MS, 1500.0)); /* tokens/s after */
        if (collapsed) {
            flagged++;
            printf("engine: throughput collapse at t = %.3f s: batch latency %.1f ms\n",
                   (double)t / SEC, lat * 1e3);
        }
        samples++;
    }
    CHECK(llmm_collapse_report_init(&rep));
    CHECK(llmm_collapse_switch_report(c, &rep));
    printf("engine: %llu batches, %llu flagged; switch report: %d of 3 signals (latency %s, "
           "TPS drop %.0f %% %s)\n",
           (unsigned long long)samples, (unsigned long long)flagged, rep.signals,
           rep.latency_confirmed ? "confirmed" : "not confirmed", rep.tps_drop * 100,
           rep.tps_confirmed ? "confirmed" : "not confirmed");
    llmm_collapse_free(c);
    return LLMM_OK;
}

int main(void)
{
    worker w[WORKERS] = {0};
    pthread_t th[WORKERS];
    llmm_recorder *ttft = NULL, *e2e = NULL;
    llmm_sketch *snap = NULL;
    double q[3] = {0.5, 0.99, 0.999}, v[3];

    CHECK(llmm_recorder_new(NULL, LLMM_SCALE_DEFAULT, &ttft));
    CHECK(llmm_recorder_new(NULL, LLMM_SCALE_DEFAULT, &e2e));
    CHECK(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &snap));
    for (int i = 0; i < WORKERS; i++) {
        w[i].id = i;
        w[i].ttft = ttft;
        w[i].e2e = e2e;
        pthread_create(&th[i], NULL, worker_main, &w[i]);
    }
    /* the exporter may snapshot at any time while workers record */
    CHECK(llmm_recorder_snapshot(e2e, snap));
    for (int i = 0; i < WORKERS; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < WORKERS; i++) {
        if (w[i].status != LLMM_OK) {
            fprintf(stderr, "worker %d: %s\n", i, llmm_strerror(w[i].status));
            return 1;
        }
        printf("worker %d: %llu level-1 and %llu level-2 spikes", i,
               (unsigned long long)w[i].level1, (unsigned long long)w[i].level2);
        if (w[i].first_severe_ns) {
            printf("; first severe at t = %.3f s, candidate causes:",
                   (double)w[i].first_severe_ns / SEC);
            for (size_t k = 0; k < w[i].ncauses; k++)
                printf(" %s (%.1f ms before)", llmm_event_attr_name(w[i].causes[k].type),
                       (double)w[i].causes[k].before_ns / MS);
            if (!w[i].ncauses)
                printf(" none recorded");
        }
        printf("\n");
    }
    CHECK(llmm_recorder_snapshot(e2e, snap));
    CHECK(llmm_sketch_quantiles(snap, q, 3, v));
    printf("fleet E2E over %llu requests: P50 %.3f s, P99 %.3f s, P99.9 %.3f s\n",
           (unsigned long long)llmm_sketch_count(snap), v[0], v[1], v[2]);
    CHECK(llmm_recorder_snapshot(ttft, snap));
    CHECK(llmm_sketch_quantiles(snap, q, 3, v));
    printf("fleet TTFT: P50 %.1f ms, P99 %.1f ms, P99.9 %.1f ms\n", v[0] * 1e3, v[1] * 1e3,
           v[2] * 1e3);
    if (run_engine() != LLMM_OK)
        return 1;
    llmm_sketch_free(snap);
    llmm_recorder_free(ttft);
    llmm_recorder_free(e2e);
    return 0;
}
