/* quickstart: record latencies, read percentiles, export them.
 *
 * Build it against an installed copy with
 *
 *     cc quickstart.c $(pkg-config --cflags --libs llmmetrics) -lm -o quickstart
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        llmm_status st_ = (call);                                                            \
        if (st_ != LLMM_OK) {                                                                \
            fprintf(stderr, "%s failed: %s (%s)\n", #call, llmm_strerror(st_),               \
                    llmm_status_name(st_));                                                  \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

int main(void)
{
    static const double q[] = {0.5, 0.9, 0.99, 0.999, 0.9999};
    double p[5], mean;
    llmm_sketch *ttft = NULL;
    double bounds[64];
    size_t nb = 0, len = 0;
    llmm_prom_writer *w = NULL;
    const uint8_t *data = NULL;
    uint64_t x = 7;

    /* The loaded library can be newer than the headers, never of another major version. */
    if (llmm_version() / 10000 != LLMM_VERSION_MAJOR) {
        fprintf(stderr, "libllmmetrics %s loaded, compiled against %s\n", llmm_version_string(),
                LLMM_VERSION_STRING);
        return 1;
    }
    printf("libllmmetrics %s\n\n", llmm_version_string());

    /* 1. record: one sketch per latency series, in seconds (exports are then lossless) */
    CHECK(llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &ttft));
    for (int i = 0; i < 100000; i++) {
        double u1, u2;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* a small fixed-seed generator */
        u1 = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        u2 = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
        /* log-normal time to first token around 180 ms */
        CHECK(llmm_sketch_add(ttft, 0.180 * exp(0.5 * sqrt(-2 * log(u1)) * cos(6.2831853 * u2))));
    }
    /* invalid input is rejected with a status and changes nothing */
    if (llmm_sketch_add(ttft, NAN) != LLMM_E_INVALID)
        return 1;

    /* 2. read: every quantile within 0.542 % of the exact value (nearest-rank rule) */
    CHECK(llmm_sketch_quantiles(ttft, q, 5, p));
    CHECK(llmm_sketch_mean(ttft, &mean));
    printf("TTFT over %llu requests: mean %.1f ms\n",
           (unsigned long long)llmm_sketch_count(ttft), mean * 1e3);
    for (int i = 0; i < 5; i++)
        printf("  P%-6g %8.2f ms\n", q[i] * 100, p[i] * 1e3);

    /* 3. export: a Prometheus text exposition with vLLM's TTFT buckets (an endpoint would
     *    negotiate protobuf and send native histograms: see examples/metrics_server.c) */
    CHECK(llmm_prom_buckets(LLMM_BUCKETS_VLLM_TTFT, bounds, 64, &nb));
    CHECK(llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &w));
    CHECK(llmm_prom_writer_family(w, "llm_ttft_seconds", "Time to first token.",
                                  LLMM_PROM_HISTOGRAM, bounds, nb));
    CHECK(llmm_prom_writer_sketch(w, "model=\"demo\"", ttft, 1.0));
    CHECK(llmm_prom_writer_data(w, &data, &len));
    printf("\nPrometheus text exposition (%zu bytes), first lines:\n", len);
    for (size_t i = 0, lines = 0; i < len && lines < 8; i++) {
        putchar(data[i]);
        lines += data[i] == '\n';
    }
    llmm_prom_writer_free(w);
    llmm_sketch_free(ttft);
    return 0;
}
