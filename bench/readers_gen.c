/* readers_gen.c: result files in the layouts of vLLM (`vllm bench serve --save-detailed`),
 * SGLang (`bench_serving --output-details`), perf_analyzer (genai-perf's profile_export.json),
 * GuideLLM (benchmarks.json, v0.7) and LLMPerf (*_individual_responses.json), written with
 * each tool's key order, separators and number forms (Python's repr of floats, nanosecond
 * integers, indentation where the tool indents), from a fixed seed. Synthetic numbers: they
 * exist to be read, not to describe a server. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench_common.h"
#include "readers_gen.h"

/* ---- one request ------------------------------------------------------------------------- */

typedef struct req {
    double start, ttft, lat;
    int in_len, out_len;
    int failed;
    uint64_t itl_seed, text_seed;
} req;

static double normal(uint64_t *x)
{
    double u1 = bench_unit(x), u2 = bench_unit(x);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static double itl_next(uint64_t *x)
{
    return 0.022 * exp(0.25 * normal(x));
}

/* Request i, the same every time it is asked for. */
static void get_req(size_t i, req *r)
{
    uint64_t x = 0x9E3779B97F4A7C15ull * (i + 1) ^ 0x1234567ull;
    int n = (int)(120.0 * exp(0.7 * normal(&x)));
    r->out_len = n < 1 ? 1 : n > 1024 ? 1024 : n;
    r->in_len = 100 + (int)(bench_rng(&x) % 900);
    r->start = 1000.0 + 0.05 * (double)i + 0.01 * bench_unit(&x);
    r->ttft = 0.05 + 0.0002 * r->in_len * exp(0.3 * normal(&x));
    r->failed = bench_rng(&x) % 100 == 0;
    r->itl_seed = bench_rng(&x) | 1;
    r->text_seed = bench_rng(&x) | 1;
    r->lat = r->ttft;
    {
        uint64_t y = r->itl_seed;
        for (int k = 1; k < r->out_len; k++)
            r->lat += itl_next(&y);
    }
    if (r->failed)
        r->out_len = 0;
}

/* Python's repr of a float: the shortest text that reads back the same (what needs fewer
 * than 15 digits prints the same with %.15g, trailing zeros dropped). */
static void pyfloat(FILE *f, double v)
{
    char b[32];
    for (int p = 15; p <= 17; p++) {
        snprintf(b, sizeof b, "%.*g", p, v);
        if (strtod(b, NULL) == v)
            break;
    }
    if (!strpbrk(b, ".eninf"))
        strcat(b, ".0");
    fputs(b, f);
}

/* Generated text: words, with the escapes JSON needs now and then. */
static void text(FILE *f, uint64_t seed, int tokens, int escaped_twice)
{
    static const char *const words[] = {" the", " model", " served", " tokens", " quickly",
                                        " and", " then", " stopped", " a", " value"};
    uint64_t x = seed;
    for (int k = 0; k < tokens; k++) {
        uint64_t r = bench_rng(&x);
        if (r % 37 == 0)
            fputs(escaped_twice ? "\\\\n" : "\\n", f);
        else if (r % 53 == 0)
            fputs(escaped_twice ? "\\\\\\\"" : "\\\"", f);
        else
            fputs(words[r % 10], f);
    }
}

static size_t count_for(size_t bytes, size_t per_request)
{
    size_t n = bytes / per_request;
    return n < 10 ? 10 : n;
}

/* ---- vLLM and SGLang: per-request lists ----------------------------------------------------- */

enum { L_IN, L_OUT, L_TTFT, L_ITL, L_LAT, L_START, L_TEXT, L_ERR };
static const char *const list_key[] = {"input_lens", "output_lens", "ttfts", "itls",
                                       "latencies", "start_times", "generated_texts", "errors"};

static void list(FILE *f, size_t n, int what)
{
    fprintf(f, ", \"%s\": [", list_key[what]);
    for (size_t i = 0; i < n; i++) {
        req r;
        get_req(i, &r);
        if (i)
            fputs(", ", f);
        switch (what) {
        case L_IN: fprintf(f, "%d", r.in_len); break;
        case L_OUT: fprintf(f, "%d", r.out_len); break;
        case L_TTFT: pyfloat(f, r.failed ? 0.0 : r.ttft); break;
        case L_LAT: pyfloat(f, r.failed ? 0.0 : r.lat); break;
        case L_START: pyfloat(f, r.start); break;
        case L_ITL: {
            uint64_t y = r.itl_seed;
            fputc('[', f);
            for (int k = 1; k < r.out_len; k++) {
                if (k > 1)
                    fputs(", ", f);
                pyfloat(f, itl_next(&y));
            }
            fputc(']', f);
            break;
        }
        case L_TEXT:
            fputc('"', f);
            text(f, r.text_seed, r.out_len, 0);
            fputc('"', f);
            break;
        default:
            fputs(r.failed ? "\"Service Unavailable\"" : "\"\"", f);
        }
    }
    fputc(']', f);
}

/* Failed requests among the first n. */
static size_t failures(size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        req r;
        get_req(i, &r);
        bad += (size_t)r.failed;
    }
    return bad;
}

static void stats(FILE *f, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(f, ", \"%s\": ", names[i]);
        pyfloat(f, 10.0 + 3.7 * (double)i);
    }
}

static int write_vllm(FILE *f, size_t bytes)
{
    static const char *const st[] = {"mean_ttft_ms", "median_ttft_ms", "std_ttft_ms",
                                     "p99_ttft_ms", "mean_tpot_ms", "median_tpot_ms",
                                     "std_tpot_ms", "p99_tpot_ms", "mean_itl_ms",
                                     "median_itl_ms", "std_itl_ms", "p99_itl_ms"};
    size_t n = count_for(bytes, 2300), bad = failures(n);
    fprintf(f, "{\"date\": \"20260101-120000\", \"endpoint_type\": \"vllm\", \"backend\": "
               "\"vllm\", \"label\": null, \"model_id\": \"bench/model\", \"tokenizer_id\": "
               "\"bench/model\", \"num_prompts\": %zu, \"request_rate\": 20.0, \"burstiness\": "
               "1.0, \"max_concurrency\": 64, \"duration\": %.1f, \"completed\": %zu, "
               "\"failed\": %zu, \"total_input_tokens\": 0, \"total_output_tokens\": 0, "
               "\"request_throughput\": 1.0, \"request_goodput\": null, \"output_throughput\": "
               "1.0, \"total_token_throughput\": 1.0",
            n, 0.05 * (double)n + 1, n - bad, bad);
    for (int k = L_IN; k <= L_ERR; k++)
        list(f, n, k);
    fputs(", \"max_output_tokens_per_s\": 100.0, \"max_concurrent_requests\": 64", f);
    stats(f, st, sizeof st / sizeof st[0]);
    fputc('}', f);
    return 0;
}

static int write_sglang(FILE *f, size_t bytes)
{
    static const char *const st[] = {"mean_e2e_latency_ms", "median_e2e_latency_ms",
                                     "std_e2e_latency_ms", "p99_e2e_latency_ms", "mean_ttft_ms",
                                     "median_ttft_ms", "std_ttft_ms", "p99_ttft_ms",
                                     "mean_itl_ms", "p95_itl_ms", "p99_itl_ms"};
    size_t n = count_for(bytes, 2000), bad = failures(n);
    fprintf(f, "{\"backend\": \"sglang\", \"dataset_name\": \"random\", \"request_rate\": "
               "Infinity, \"max_concurrency\": 64, \"duration\": %.1f, \"completed\": %zu, "
               "\"total_input_tokens\": 0, \"total_output_tokens\": 0, "
               "\"total_output_tokens_retokenized\": 0, \"request_throughput\": 1.0",
            0.05 * (double)n + 1, n - bad);
    stats(f, st, sizeof st / sizeof st[0]);
    fputs(", \"concurrency\": 12.5, \"accept_length\": null", f);
    for (int k = L_IN; k <= L_ERR; k++) /* SGLang writes no latencies, no start times */
        if (k != L_LAT && k != L_START)
            list(f, n, k);
    fputs("}\n", f);
    return 0;
}

/* ---- genai-perf: perf_analyzer's per-request export --------------------------------------- */

static void chunk(FILE *f, const char *delta, uint64_t seed, int with_text, const char *finish)
{
    fprintf(f, "{\"response\":\"data: {\\\"id\\\":\\\"chatcmpl-1\\\",\\\"object\\\":"
               "\\\"chat.completion.chunk\\\",\\\"created\\\":1767268800,\\\"model\\\":"
               "\\\"bench/model\\\",\\\"choices\\\":[{\\\"index\\\":0,\\\"delta\\\":{%s",
            delta);
    if (with_text) {
        fputs("\\\"content\\\":\\\"", f);
        text(f, seed, 1, 1);
        fputs("\\\"", f);
    }
    fprintf(f, "},\\\"logprobs\\\":null,\\\"finish_reason\\\":%s}]}\\n\\n\"}", finish);
}

static int write_genai_perf(FILE *f, size_t bytes)
{
    size_t n = count_for(bytes, 40000);
    const int64_t t0 = 1767268800000000000LL;
    fputs("{\"experiments\":[{\"experiment\":{\"mode\":\"concurrency\",\"value\":64},"
          "\"requests\":[",
          f);
    for (size_t i = 0; i < n; i++) {
        req r;
        int64_t ts, t;
        uint64_t y, z;
        get_req(i, &r);
        if (r.failed) /* perf_analyzer keeps no failed request */
            r.out_len = 1;
        ts = t0 + (int64_t)((r.start - 1000.0) * 1e9);
        fprintf(f, "%s{\"timestamp\":%lld,\"request_inputs\":{\"payload\":\"{\\\"messages\\\":"
                   "[{\\\"role\\\":\\\"user\\\",\\\"content\\\":\\\"",
                i ? "," : "", (long long)ts);
        text(f, r.text_seed ^ 7, 40, 1);
        fputs("\\\"}],\\\"model\\\":\\\"bench/model\\\",\\\"stream\\\":true}\"},"
              "\"response_timestamps\":[",
              f);
        t = ts + (int64_t)(r.ttft * 1e9);
        fprintf(f, "%lld", (long long)t);
        y = r.itl_seed;
        for (int k = 0; k < r.out_len + 1; k++) {
            t += k == 0 ? 400000 : (int64_t)(itl_next(&y) * 1e9);
            fprintf(f, ",%lld", (long long)t);
        }
        fprintf(f, ",%lld],\"response_outputs\":[", (long long)(t + 300000));
        chunk(f, "\\\"role\\\":\\\"assistant\\\",", 0, 1, "null");
        z = r.text_seed;
        for (int k = 0; k < r.out_len; k++) {
            fputc(',', f);
            chunk(f, "", bench_rng(&z), 1, "null");
        }
        fputc(',', f);
        chunk(f, "", 0, 0, "\\\"stop\\\"");
        fputs(",{\"response\":\"data: [DONE]\\n\\n\"}]}", f);
    }
    fputs("],\"window_boundaries\":[1767268800000000000,1767268900000000000]}],"
          "\"version\":\"2.55.0\",\"service_kind\":\"openai\",\"endpoint\":\"v1/chat/completions\"}",
          f);
    return 0;
}

/* ---- GuideLLM: benchmarks.json, v0.7 ------------------------------------------------------- */

static void usage_metrics(FILE *f, const char *key, int tokens)
{
    fprintf(f, ", \"%s\": {\"text_tokens\": %d, \"cached_tokens\": null, \"text_words\": null, "
               "\"text_characters\": null, \"image_tokens\": null, \"image_count\": null, "
               "\"image_pixels\": null, \"image_bytes\": null, \"video_tokens\": null, "
               "\"video_frames\": null, \"video_seconds\": null, \"video_bytes\": null, "
               "\"audio_tokens\": null, \"audio_samples\": null, \"audio_seconds\": null, "
               "\"audio_bytes\": null, \"tool_call_tokens\": null, "
               "\"mixed_content_tool_tokens\": null, \"tool_call_count\": null, "
               "\"total_tokens\": %d}",
            key, tokens, tokens);
}

static void guidellm_request(FILE *f, size_t i, const req *r, double t0)
{
    double s = t0 + r->start, first = s + r->ttft, last = s + r->lat, end = last + 0.0004;
    fprintf(f, "{\"type_\": \"generative_request_stats\", \"request_id\": \"r-%zu\", "
               "\"response_id\": \"chatcmpl-%zu\", \"request_args\": null, \"output\": \"",
            i, i);
    text(f, r->text_seed, r->out_len, 0);
    fprintf(f, "\", \"reasoning_output\": null, \"tool_calls\": null, \"info\": {\"request_id\": "
               "\"r-%zu\", \"conversation_id\": null, \"history_len\": 0, \"turn_index\": 0, "
               "\"node_id\": null, \"agent_id\": null, \"parent_node_ids\": [], \"status\": "
               "\"%s\", \"scheduler_node_id\": 0, \"scheduler_process_id\": 0, "
               "\"scheduler_start_time\": ",
            i, r->failed ? "errored" : "completed");
    pyfloat(f, t0);
    fputs(", \"timings\": {\"targeted_start\": ", f);
    pyfloat(f, s - 0.001);
    fputs(", \"queued\": ", f);
    pyfloat(f, s - 0.0015);
    fputs(", \"dequeued\": ", f);
    pyfloat(f, s - 0.0008);
    fputs(", \"scheduled_at\": ", f);
    pyfloat(f, s - 0.0008);
    fputs(", \"resolve_start\": ", f);
    pyfloat(f, s - 0.0003);
    fputs(", \"request_start\": ", f);
    pyfloat(f, s);
    if (r->failed) {
        fputs(", \"first_request_iteration\": null, \"first_token_iteration\": null, "
              "\"first_output_token_iteration\": null, \"last_token_iteration\": null, "
              "\"last_request_iteration\": null, \"request_iterations\": 0, "
              "\"token_iterations\": 0, \"request_end\": null",
              f);
    } else {
        const char *k[] = {"first_request_iteration", "first_token_iteration",
                           "first_output_token_iteration", "last_token_iteration",
                           "last_request_iteration"};
        const double v[] = {first, first, first, last, last + 0.0002};
        for (int q = 0; q < 5; q++) {
            fprintf(f, ", \"%s\": ", k[q]);
            pyfloat(f, v[q]);
        }
        fprintf(f, ", \"request_iterations\": %d, \"token_iterations\": %d, \"request_end\": ",
                r->out_len + 1, r->out_len);
        pyfloat(f, end);
    }
    fputs(", \"resolve_end\": ", f);
    pyfloat(f, end + 0.0003);
    fputs(", \"finalized\": ", f);
    pyfloat(f, end + 0.0007);
    fprintf(f, "}, \"settings\": {\"relative_timestamp\": null, \"requeue_delay\": null}, "
               "\"error\": %s, \"traceback\": null, \"started_at\": ",
            r->failed ? "\"HTTPStatusError(\\\"Server error '503 Service Unavailable'\\\")\""
                      : "null");
    pyfloat(f, s);
    fputs(", \"completed_at\": ", f);
    pyfloat(f, end);
    fputc('}', f);
    usage_metrics(f, "input_metrics", r->in_len);
    usage_metrics(f, "output_metrics", r->out_len);
    fputs(", \"request_start_time\": ", f);
    pyfloat(f, s);
    fputs(", \"request_end_time\": ", f);
    pyfloat(f, end);
    fputs(", \"request_latency\": ", f);
    pyfloat(f, end - s);
    fprintf(f, ", \"prompt_tokens\": %d, \"cached_tokens\": null, \"output_tokens\": %d, "
               "\"total_tokens\": %d, \"time_to_first_token_ms\": ",
            r->in_len, r->out_len, r->in_len + r->out_len);
    pyfloat(f, 1000.0 * r->ttft);
    fputs(", \"time_per_output_token_ms\": ", f);
    pyfloat(f, 1000.0 * r->lat / (r->out_len ? r->out_len : 1));
    fputs(", \"inter_token_latency_ms\": null, \"tokens_per_second\": 1.0, "
          "\"output_tokens_per_second\": 1.0, \"time_to_first_output_token_ms\": 1.0, "
          "\"iter_tokens_per_iteration\": 1.0, \"output_tokens_per_iteration\": 1.0}",
          f);
}

static void distribution(FILE *f, const char *name, double base)
{
    static const char *const st[] = {"successful", "errored", "incomplete", "total"};
    fprintf(f, "%s\"%s\": {", strcmp(name, "requests_per_second") ? ", " : "", name);
    for (int k = 0; k < 4; k++) {
        fprintf(f, "%s\"%s\": {\"mean\": %g, \"median\": %g, \"mode\": %g, \"variance\": 1.0, "
                   "\"std_dev\": 1.0, \"min\": 0.5, \"max\": %g, \"count\": 100, "
                   "\"total_sum\": 1000.0, \"percentiles\": {\"p001\": 0.5, \"p01\": 0.6, "
                   "\"p05\": 0.7, \"p10\": 0.8, \"p25\": 0.9, \"p50\": %g, \"p75\": 1.1, "
                   "\"p90\": 1.2, \"p95\": 1.3, \"p99\": 1.4, \"p999\": 1.5}, \"pdf\": null}",
                k ? ", " : "", st[k], base, base, base, 2 * base, base);
    }
    fputc('}', f);
}

static int write_guidellm(FILE *f, size_t bytes)
{
    static const char *const dists[] = {
        "requests_per_second", "request_concurrency", "request_latency",
        "prompt_token_count", "output_token_count", "time_to_first_token_ms",
        "time_per_output_token_ms", "inter_token_latency_ms", "output_tokens_per_second"};
    size_t n = count_for(bytes, 4000), per = n / 4 + 1, i = 0;
    fputs("{\"metadata\": {\"version\": 2, \"guidellm_version\": \"0.7.3\", \"python_version\": "
          "\"3.12.3\", \"platform\": \"Linux\"}, \"config\": {}, \"benchmarks\": [",
          f);
    for (int b = 0; b < 4; b++) {
        double t0 = 1767268800.0 + 1000.0 * b;
        size_t lo = i, hi = i + per, bad = 0;
        for (size_t k = lo; k < hi; k++) {
            req r;
            get_req(k, &r);
            bad += (size_t)r.failed;
        }
        fprintf(f, "%s{\"type_\": \"generative_benchmark\", \"config\": {\"id_\": \"b%d\", "
                   "\"run_id\": \"run\", \"run_index\": %d, \"strategy\": {\"type_\": "
                   "\"concurrent\", \"worker_count\": null, \"max_concurrency\": null, "
                   "\"streams\": %d, \"rampup_duration\": 0.0}, \"constraints\": {}, "
                   "\"sample_size\": null}, \"scheduler_state\": {}, \"scheduler_metrics\": "
                   "{\"measure_start_time\": ",
                b ? ", " : "", b, b, 8 << b);
        pyfloat(f, t0);
        fputs(", \"measure_end_time\": ", f);
        pyfloat(f, t0 + 1e6);
        fprintf(f, "}, \"metrics\": {\"request_totals\": {\"successful\": %zu, \"errored\": %zu, "
                   "\"incomplete\": 0, \"total\": %zu}, ",
                per - bad, bad, per);
        for (size_t d = 0; d < sizeof dists / sizeof dists[0]; d++)
            distribution(f, dists[d], 1.0 + (double)d);
        fputs("}, \"requests\": {\"successful\": [", f);
        for (int pass = 0; pass < 2; pass++) { /* successful, then errored */
            int first = 1;
            for (i = lo; i < hi; i++) {
                req r;
                get_req(i, &r);
                if (r.failed != pass)
                    continue;
                if (!first)
                    fputs(", ", f);
                first = 0;
                guidellm_request(f, i, &r, t0 - 1000.0);
            }
            fputs(pass ? "], \"incomplete\": [], \"total\": null}" : "], \"errored\": [", f);
        }
        fputs(", \"start_time\": ", f);
        pyfloat(f, t0);
        fputs(", \"end_time\": ", f);
        pyfloat(f, t0 + 0.05 * (double)per + 1);
        fprintf(f, ", \"duration\": %.1f, \"warmup_duration\": 0.0, \"cooldown_duration\": 0.0}",
                0.05 * (double)per + 1);
    }
    fputs("]}", f);
    return 0;
}

/* ---- LLMPerf: *_individual_responses.json (json.dump, indent 4) ----------------------------- */

static int write_llmperf(FILE *f, size_t bytes)
{
    size_t n = count_for(bytes, 420);
    fputs("[", f);
    for (size_t i = 0; i < n; i++) {
        req r;
        get_req(i, &r);
        fprintf(f, "%s\n    {\n        \"error_code\": %s,\n        \"error_msg\": \"%s\",\n"
                   "        \"inter_token_latency_s\": ",
                i ? "," : "", r.failed ? "503" : "null", r.failed ? "Service Unavailable" : "");
        pyfloat(f, r.failed ? 0.0 : r.lat / (r.out_len + 1));
        fputs(",\n        \"ttft_s\": ", f);
        pyfloat(f, r.failed ? 0.0 : r.ttft);
        fputs(",\n        \"end_to_end_latency_s\": ", f);
        pyfloat(f, r.failed ? 0.0 : r.lat + 0.0003);
        fputs(",\n        \"request_output_throughput_token_per_s\": ", f);
        pyfloat(f, r.failed ? 0.0 : r.out_len / r.lat);
        fprintf(f, ",\n        \"number_total_tokens\": %d,\n        \"number_output_tokens\": "
                   "%d,\n        \"number_input_tokens\": %d\n    }",
                r.in_len + r.out_len, r.out_len, r.in_len);
    }
    fputs("\n]", f);
    return 0;
}

/* genai-perf's export holds every server-sent event as a JSON string inside the JSON: the
 * reader parses them too, which json.load alone does not. */
static const char genai_perf_events[] =
    "import json, sys\n"
    "d = json.load(open(sys.argv[1], 'rb'))\n"
    "for e in d['experiments']:\n"
    "    for r in e['requests']:\n"
    "        for o in r['response_outputs']:\n"
    "            for ev in o['response'].split('\\n\\n'):\n"
    "                if ev.startswith('data: ') and ev[6:] != '[DONE]':\n"
    "                    json.loads(ev[6:])\n";

const gen_format gen_formats[] = {
    {"vllm", "vllm bench serve --save-detailed", write_vllm, NULL},
    {"sglang", "sglang.bench_serving --output-details", write_sglang, NULL},
    {"genai-perf", "perf_analyzer profile_export.json", write_genai_perf, genai_perf_events},
    {"guidellm", "GuideLLM benchmarks.json (v0.7)", write_guidellm, NULL},
    {"llmperf", "LLMPerf individual responses", write_llmperf, NULL},
};
const size_t gen_nformats = sizeof gen_formats / sizeof gen_formats[0];
