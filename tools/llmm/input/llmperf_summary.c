/* llmperf_summary.c: the reader of LLMPerf's *_summary.json (token_benchmark_ray.py), one flat
 * JSON object of statistics over the requests of one run:
 *
 *   {"version": "2023-08-31", "name": ..., "model": ..., "num_concurrent_requests": N,
 *    "results_ttft_s_quantiles_p25" ... "_p99", "results_ttft_s_mean", "_min", "_max",
 *    "_stddev" (also for end_to_end_latency_s, inter_token_latency_s,
 *    request_output_throughput_token_per_s, number_input_tokens, number_output_tokens),
 *    "results_num_requests_started", "results_number_errors", "results_error_rate",
 *    "results_num_completed_requests", "results_num_completed_requests_per_min",
 *    "results_mean_output_throughput_token_per_s", "timestamp"}
 *
 * LLMPerf computes these over the requests without an error code; its quantiles are pandas'
 * (linear interpolation). Its only throughput figures are the completed requests per minute
 * and the output tokens per second, both over its test time (end - start), which the file does
 * not hold: the run's duration follows as completed x 60 / the per-minute figure, and its
 * token totals as the mean output (input) tokens x completed. Its token counts are its client
 * tokenizer's, not the server's. The run holds statistics only: no distribution is made. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/jreader.h"
#include "input/llmperf.h"

enum { S_ROOT = 1 };
enum { K_MODEL = 1, K_CONC, K_RESULT };

/* One of LLMPerf's names, what it measures in our terms, its unit. */
typedef struct lp_name {
    const char *name;
    int metric;
    const char *unit;
} lp_name;

/* LLMPerf's per-request metrics and ours. */
static const lp_name metrics[] = {
    {"ttft_s", LLMM_CLI_FM_TTFT, "s"},
    {"end_to_end_latency_s", LLMM_CLI_FM_E2E, "s"},
    {"inter_token_latency_s", LLMM_CLI_FM_OTHER, "s"},
    {"request_output_throughput_token_per_s", LLMM_CLI_FM_OTHER, "tok/s"},
    {"number_input_tokens", LLMM_CLI_FM_OTHER, "tokens"},
    {"number_output_tokens", LLMM_CLI_FM_OTHER, "tokens"},
    {"number_total_tokens", LLMM_CLI_FM_OTHER, "tokens"},
};

/* Its run-level figures. */
static const lp_name values[] = {
    {"num_completed_requests", LLMM_CLI_FM_COMPLETED, "count"},
    {"number_errors", LLMM_CLI_FM_FAILED, "count"},
    {"num_completed_requests_per_min", LLMM_CLI_FM_REQ_RATE, "req/min"},
    {"mean_output_throughput_token_per_s", LLMM_CLI_FM_OUT_TOK_RATE, "tok/s"},
    {"num_requests_started", LLMM_CLI_FM_OTHER, "count"},
    {"error_rate", LLMM_CLI_FM_OTHER, ""},
};

typedef struct lps {
    llmm_cli_jreader jr; /* first */
    llmm_cli_run run;
    char key[72]; /* the results_ key waiting for its value, without "results_" */
    char model[96];
    double per_min, out_mean, in_mean;
    uint64_t nresults;
} lps;

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    lps *p = self;
    static const char prefix[] = "results_";
    (void)f;
    if (llmm_cli_key_is(k, len, "model"))
        return K_MODEL | LLMM_CLI_JSON_TEXT;
    if (llmm_cli_key_is(k, len, "num_concurrent_requests"))
        return K_CONC;
    if (len <= sizeof prefix - 1 || memcmp(k, prefix, sizeof prefix - 1) != 0 ||
        len - (sizeof prefix - 1) >= sizeof p->key)
        return LLMM_CLI_JSON_SKIP;
    memcpy(p->key, k + sizeof prefix - 1, len - (sizeof prefix - 1));
    p->key[len - (sizeof prefix - 1)] = '\0';
    return K_RESULT | LLMM_CLI_JSON_TEXT; /* min and max of token counts are strings */
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    lps *p = self;
    if (!parent && map)
        return S_ROOT;
    if (parent)
        return LLMM_CLI_JSON_SKIP; /* results_error_code_frequency and the like */
    return llmm_cli_jr_stop(&p->jr, LLMM_CLI_EPARSE,
                            "found a list where a JSON object (an LLMPerf summary) should begin");
}

/* A number, or a string holding one (LLMPerf writes the min and max of token counts so). */
static int number_of(const llmm_cli_json_value *v, double *x)
{
    char buf[48], *end;
    if (v->kind == K_NUMBER) {
        *x = v->num;
        return 1;
    }
    if (v->kind != K_STRING || v->len == 0 || v->len >= sizeof buf)
        return 0;
    memcpy(buf, v->text, v->len);
    buf[v->len] = '\0';
    *x = strtod(buf, &end);
    return *end == '\0';
}

/* "ttft_s_quantiles_p99" -> metric i, QUANTILE 0.99; "ttft_s_mean" -> MEAN. */
static int split_stat(const char *key, size_t *mi, int *stat, double *q)
{
    static const char *const stats[] = {"mean", "min", "max", "stddev"};
    static const int ids[] = {LLMM_CLI_ST_MEAN, LLMM_CLI_ST_MIN, LLMM_CLI_ST_MAX, LLMM_CLI_ST_STD};
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
        size_t n = strlen(metrics[i].name);
        const char *rest = key + n;
        double pct;
        char tail;
        if (strncmp(key, metrics[i].name, n) != 0 || rest[0] != '_')
            continue;
        *mi = i;
        *q = NAN;
        if (sscanf(rest, "_quantiles_p%lf%c", &pct, &tail) == 1 && pct >= 0 && pct <= 100) {
            *stat = LLMM_CLI_ST_QUANTILE;
            *q = pct / 100.0;
            return 1;
        }
        for (size_t s = 0; s < 4; s++) {
            if (strcmp(rest + 1, stats[s]) == 0) {
                *stat = ids[s];
                return 1;
            }
        }
    }
    return 0;
}

static int result(lps *p, const llmm_cli_json_value *v)
{
    char name[80];
    double x;
    size_t mi;
    int stat;
    double q;
    if (!number_of(v, &x) || !isfinite(x))
        return 1; /* null, NaN or a text such as results_error_code_frequency: not a figure */
    snprintf(name, sizeof name, "results_%s", p->key);
    p->nresults++;
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        if (strcmp(p->key, values[i].name) != 0)
            continue;
        if (values[i].metric == LLMM_CLI_FM_COMPLETED && x >= 0 && x < 9e15)
            p->run.completed = (int64_t)x;
        else if (values[i].metric == LLMM_CLI_FM_FAILED && x >= 0 && x < 9e15)
            p->run.failed = (int64_t)x;
        else if (values[i].metric == LLMM_CLI_FM_REQ_RATE)
            p->per_min = x;
        return llmm_cli_jr_figure(&p->jr, name, strlen(name), values[i].metric, LLMM_CLI_ST_VALUE,
                                  NAN, x, values[i].unit,
                                  values[i].metric == LLMM_CLI_FM_REQ_RATE ? x / 60.0 : x);
    }
    if (!split_stat(p->key, &mi, &stat, &q))
        return llmm_cli_jr_figure(&p->jr, name, strlen(name), LLMM_CLI_FM_OTHER, LLMM_CLI_ST_VALUE,
                                  NAN, x, "", x);
    if (mi == 5 && stat == LLMM_CLI_ST_MEAN) /* number_output_tokens */
        p->out_mean = x;
    else if (mi == 4 && stat == LLMM_CLI_ST_MEAN) /* number_input_tokens */
        p->in_mean = x;
    return llmm_cli_jr_figure(&p->jr, name, strlen(name), metrics[mi].metric, stat, q, x,
                              metrics[mi].unit, x);
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    lps *p = self;
    if (!f)
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                "found %s where a JSON object (an LLMPerf summary) should begin",
                                llmm_cli_json_kind_name(v->kind));
    switch (f->key) {
    case K_MODEL:
        if (v->kind == K_STRING)
            snprintf(p->model, sizeof p->model, "%.*s", (int)(v->len > 95 ? 95 : v->len), v->text);
        return 1;
    case K_CONC:
        if (v->kind == K_NUMBER && isfinite(v->num) && v->num > 0)
            p->run.concurrency = v->num;
        return 1;
    default:
        return result(p, v);
    }
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    lps *p = self;
    char label[48];
    if (f->type != S_ROOT)
        return 1;
    if (p->nresults == 0)
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                "no 'results_' figures: not an LLMPerf summary");
    if (p->run.completed > 0 && p->per_min > 0) {
        p->run.duration_s = (double)p->run.completed * 60.0 / p->per_min;
        p->run.duration_from = "completed x 60 / LLMPerf's results_num_completed_requests_per_min";
        if (p->out_mean >= 0)
            p->run.out_tokens = llround(p->out_mean * (double)p->run.completed);
        if (p->in_mean >= 0)
            p->run.in_tokens = llround(p->in_mean * (double)p->run.completed);
    }
    label[0] = '\0';
    if (!isnan(p->run.concurrency))
        snprintf(label, sizeof label, "concurrency %g", p->run.concurrency);
    p->run.label = label[0] ? label : NULL;
    p->run.model = p->model[0] ? p->model : NULL;
    p->run.stats_only = 1;
    return llmm_cli_jr_run_end(&p->jr, &p->run);
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

static void lps_init(llmm_cli_jreader *r)
{
    lps *p = (lps *)r;
    llmm_cli_run_init(&p->run);
    p->out_mean = p->in_mean = -1;
}

static int lps_end(llmm_cli_jreader *r, llmm_cli_error *err)
{
    (void)err;
    snprintf(r->info.layout, sizeof r->info.layout,
             "LLMPerf *_summary.json: statistics only, no per-request samples");
    return LLMM_CLI_OK;
}

static const llmm_cli_jformat lps_format = {
    &handler, sizeof(lps), "LLMPerf summary", &llmm_cli_llmperf_tool, 0, lps_init, lps_end, NULL};

static int lps_detect(const llmm_cli_sniff *s)
{
    if (s->kind != '{')
        return 0;
    return llmm_cli_sniff_has(s, "/results_ttft_s_mean") ||
                   llmm_cli_sniff_has(s, "/results_num_completed_requests") ||
                   llmm_cli_sniff_has(s, "/results_end_to_end_latency_s_mean")
               ? 3
               : 0;
}

LLMM_CLI_JFORMAT_READER(llmperf_summary, LLMM_CLI_FORMAT_LLMPERF_SUMMARY, "llmperf-summary",
                        "an object with 'results_ttft_s_mean' or 'results_num_completed_requests'",
                        lps_detect, &lps_format);
