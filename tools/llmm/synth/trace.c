/* trace.c: a deterministic synthetic vLLM benchmark trace (seeded), for `llmm demo`.
 *
 * SYNTHETIC DATA: a toy serving model, not a measurement of any system. It exists so that the
 * report has something realistic to show from a fresh clone:
 *   - Poisson arrivals; log-normal prompt and output lengths;
 *   - TTFT = client queueing + prefill (proportional to the prompt), with jitter;
 *   - ITL around 22 ms per token in FP16, 16 ms after an FP16 -> INT8 weight switch; the switch
 *     stalls the engine for 1.5 s (in-flight streams get one long gap, new requests wait);
 *   - two injected TTFT storms (a preemption storm: TTFT x6 + 0.4 s for a few seconds);
 *   - rare single-token hiccups (x8), a share of requests rejected with HTTP 503 before any
 *     token, and one stream that breaks half-way (its partial ITLs are in the file, as vLLM
 *     writes them, and must not reach the ITL percentiles).
 * The file has vLLM's keys and order (input_lens, output_lens, ttfts, itls, latencies,
 * start_times, generated_texts, errors) plus two keys vLLM's tools ignore: "llmm_synthetic",
 * which says what the file is, and "llmm_events", which records the weight switch on the clock
 * of start_times.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "synth/rng.h"
#include "synth/synth.h"

#define STALL 1.5 /* seconds the weight switch stalls the engine */

void llmm_cli_gen_defaults(llmm_cli_gen_opts *o)
{
    const llmm_cli_gen_opts d = {
        .seed = 42, .requests = 3600, .rate = 20.0, .spike_len = 3.0, .fail_share = 0.006};
    *o = d;
    llmm_cli_gen_place(o);
}

/* Events at fixed shares of the expected length (requests / rate): with the defaults, 180 s,
 * the storms come at 60 s and 160 s, once the spike detector has warmed up (1000 samples) and
 * far enough from the switch that its stall has left the 60 s baseline window. */
void llmm_cli_gen_place(llmm_cli_gen_opts *o)
{
    double len = (double)o->requests / o->rate;
    o->switch_at = 0.528 * len;
    o->spike_at[0] = len / 3.0;
    o->spike_at[1] = 0.889 * len;
}

typedef struct greq {
    double start, ttft, lat;
    int64_t in_len, out_len;
    int failed;  /* 1: rejected before any token, 2: broke half-way */
    uint32_t ngaps;
    uint64_t itl_seed;
} greq;

static double lognormal(llmm_cli_rng *r, double median, double sigma)
{
    return median * exp(sigma * llmm_cli_rng_normal(r));
}

static int64_t clamp_len(double v, int64_t lo, int64_t hi)
{
    int64_t n = (int64_t)llround(v);
    return n < lo ? lo : n > hi ? hi : n;
}

/* The ITLs of one request, regenerated from its own seed when the file is written. Returns
 * their sum. */
static double itls(const llmm_cli_gen_opts *o, const greq *q, FILE *out)
{
    llmm_cli_rng r;
    double t = q->start + q->ttft, sum = 0;
    llmm_cli_rng_seed(&r, q->itl_seed);
    for (uint32_t j = 0; j < q->ngaps; j++) {
        double base = t >= o->switch_at ? 0.016 : 0.022;
        double gap = lognormal(&r, base, 0.12);
        if (llmm_cli_rng_uniform(&r) < 0.002)
            gap *= 8.0;
        if (t < o->switch_at && o->switch_at <= t + gap)
            gap += STALL;
        if (out)
            fprintf(out, "%s%.6f", j ? ", " : "", gap);
        t += gap;
        sum += gap;
    }
    return sum;
}

static void make_requests(const llmm_cli_gen_opts *o, greq *q, llmm_cli_gen_facts *f)
{
    llmm_cli_rng r;
    double t = 0;
    uint32_t broken = o->requests / 3;
    llmm_cli_rng_seed(&r, o->seed);
    memset(f, 0, sizeof *f);
    for (uint32_t i = 0; i < o->requests; i++) {
        greq *g = &q[i];
        int int8, storm = 0;
        double queue, prefill;
        g->start = t; /* the first request at 0: the report's time line starts there too */
        t += llmm_cli_rng_exp(&r, 1.0 / o->rate);
        g->in_len = clamp_len(lognormal(&r, 600, 0.6), 16, 4000);
        g->out_len = clamp_len(lognormal(&r, 120, 0.7), 1, 1024);
        g->itl_seed = llmm_cli_rng_next(&r);
        g->failed = llmm_cli_rng_uniform(&r) < o->fail_share ? 1 : 0;
        if (i == broken && !g->failed)
            g->failed = 2;
        int8 = g->start >= o->switch_at;
        queue = llmm_cli_rng_exp(&r, 0.030);
        prefill = (double)g->in_len * (int8 ? 0.000045 : 0.00006);
        g->ttft = (queue + prefill) * lognormal(&r, 1.0, 0.1);
        for (int k = 0; k < 2; k++)
            storm |= g->start >= o->spike_at[k] && g->start < o->spike_at[k] + o->spike_len;
        if (storm)
            g->ttft = g->ttft * 6.0 + 0.4;
        if (g->start >= o->switch_at - 0.5 && g->start < o->switch_at + STALL)
            g->ttft += o->switch_at + STALL - g->start;
        g->ngaps = (uint32_t)(g->out_len - 1);
        g->lat = 0;
        if (g->failed == 1) {
            g->ttft = 0;
            g->ngaps = 0;
            g->out_len = 0;
            f->failed++;
        } else if (g->failed == 2) {
            g->ngaps = (uint32_t)(g->out_len / 2);
            g->out_len = 0;
            f->failed++;
        } else {
            g->lat = g->ttft + itls(o, g, NULL) + 0.0003;
            f->completed++;
        }
        if (g->start + g->lat > f->duration)
            f->duration = g->start + g->lat;
    }
    f->requests = o->requests;
    f->duration += 0.010;
}

static void list_i64(FILE *out, const char *key, const greq *q, size_t n, int in)
{
    fprintf(out, ", \"%s\": [", key);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%lld", i ? ", " : "", (long long)(in ? q[i].in_len : q[i].out_len));
    fputc(']', out);
}

static void list_f64(FILE *out, const char *key, const greq *q, size_t n, int which)
{
    fprintf(out, ", \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        double v = which == 0 ? q[i].ttft : which == 1 ? q[i].lat : 5000.0 + q[i].start;
        fprintf(out, "%s%.6f", i ? ", " : "", v);
    }
    fputc(']', out);
}

int llmm_cli_gen_vllm(FILE *out, const llmm_cli_gen_opts *o, llmm_cli_gen_facts *f)
{
    greq *q;
    size_t n = o->requests;
    uint64_t in_total = 0, out_total = 0;
    if (n == 0)
        return LLMM_CLI_EUSAGE;
    q = calloc(n, sizeof *q);
    if (!q)
        return LLMM_CLI_ENOMEM;
    make_requests(o, q, f);
    for (size_t i = 0; i < n; i++) {
        in_total += q[i].failed ? 0 : (uint64_t)q[i].in_len;
        out_total += (uint64_t)q[i].out_len;
    }
    fprintf(out,
            "{\"llmm_synthetic\": \"synthetic data generated by llmm demo (seed %llu): a toy "
            "serving model, not a measurement\", \"date\": \"19700101-000000\", \"endpoint_type\": \"vllm\", "
            "\"backend\": \"vllm\", \"label\": null, \"model_id\": \"synthetic/demo-8b\", "
            "\"tokenizer_id\": \"synthetic/demo-8b\", \"num_prompts\": %zu, "
            "\"request_rate\": %.1f, \"burstiness\": 1.0, \"max_concurrency\": null, "
            "\"duration\": %.6f, \"completed\": %u, \"failed\": %u, "
            "\"total_input_tokens\": %llu, \"total_output_tokens\": %llu, "
            "\"request_throughput\": %.6f, \"request_goodput\": null, "
            "\"output_throughput\": %.6f, \"total_token_throughput\": %.6f",
            (unsigned long long)o->seed, n, o->rate, f->duration, f->completed, f->failed,
            (unsigned long long)in_total, (unsigned long long)out_total,
            f->completed / f->duration, (double)out_total / f->duration,
            (double)(in_total + out_total) / f->duration);
    list_i64(out, "input_lens", q, n, 1);
    list_i64(out, "output_lens", q, n, 0);
    list_f64(out, "ttfts", q, n, 0);
    fputs(", \"itls\": [", out);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", [" : "[", out);
        itls(o, &q[i], out);
        fputc(']', out);
    }
    fputc(']', out);
    list_f64(out, "latencies", q, n, 1);
    list_f64(out, "start_times", q, n, 2);
    fprintf(out, ", \"llmm_events\": [{\"t\": %.6f, \"type\": \"model.weight_switch\", "
                 "\"value\": 0}]",
            5000.0 + o->switch_at);
    fputs(", \"generated_texts\": [", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s\"%s\"", i ? ", " : "", q[i].failed == 1 ? "" : "(synthetic text)");
    fputs("], \"errors\": [", out);
    for (size_t i = 0; i < n; i++) {
        const char *e = q[i].failed == 1   ? "Service Unavailable"
                        : q[i].failed == 2 ? "ClientPayloadError: Response payload is not "
                                             "completed"
                                           : "";
        fprintf(out, "%s\"%s\"", i ? ", " : "", e);
    }
    fputs("]}\n", out);
    free(q);
    return ferror(out) ? LLMM_CLI_EIO : LLMM_CLI_OK;
}
