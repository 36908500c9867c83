/* genai_perf_summary.c: genai-perf's profile_export_genai_perf.json, a report of what it holds.
 *
 *   {"request_throughput": {"unit": "requests/sec", "avg": ...},
 *    "request_latency": {"unit": "ms", "avg": ..., "p1": ..., ..., "p99": ..., "min": ...,
 *                        "max": ..., "std": ...},
 *    "time_to_first_token": {...}, "inter_token_latency": {...}, ...,
 *    "input_config": {... "perf_analyzer": {"stimulus": {"concurrency": N}} ...}}
 *
 * (older versions: "input_config": {"model": [...], "concurrency": N, "request_rate": R}).
 * Its request_count is the run's completed requests; it states no failures (the error rate
 * stays unknown) and no duration (its request_throughput is its own figure).
 *
 * Its numbers are statistics over requests, not samples: the reader hands them on as the
 * tool's figures of one run (marked "statistics only") and never makes a distribution of
 * them. genai-perf's inter_token_latency is per request (E2E - TTFT) / (OSL - 1), which is our
 * TPOT; the figure is filed as such. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/genai_perf.h"
#include "input/jreader.h"

enum { S_ROOT = 1, S_METRIC, S_CONFIG, S_PA, S_STIMULUS, S_MODELS };

/* genai-perf's metric names and ours. */
static const struct { const char *name; int metric; } metrics[] = {
    {"request_throughput", LLMM_CLI_FM_REQ_RATE},
    {"request_latency", LLMM_CLI_FM_E2E},
    {"request_count", LLMM_CLI_FM_COMPLETED},
    {"request_goodput", LLMM_CLI_FM_GOODPUT},
    {"time_to_first_token", LLMM_CLI_FM_TTFT},
    {"inter_token_latency", LLMM_CLI_FM_TPOT},
    {"output_token_throughput", LLMM_CLI_FM_OUT_TOK_RATE},
    {"output_sequence_length", LLMM_CLI_FM_OUT_TOKENS}, /* per request: avg is a mean */
    {"input_sequence_length", LLMM_CLI_FM_IN_TOKENS},
    {"benchmark_duration", LLMM_CLI_FM_DURATION}, /* AIPerf's */
    {"error_request_count", LLMM_CLI_FM_FAILED},  /* AIPerf's, null without errors */
};

/* AIPerf (genai-perf's successor) writes the same layout as profile_export_aiperf.json, with
 * its benchmark_duration and error counts; its figures are labelled as its own. */
static const llmm_cli_tool aiperf_tool = {
    "AIPerf",
    "numpy.percentile (linear interpolation) over the successful requests",
    {
        "the same: to the first response with text",
        "AIPerf's inter_token_latency is (E2E - TTFT) / (OSL - 1) per request, our TPOT",
        "AIPerf's inter_chunk_latency is the gap between streamed chunks, our ITL",
        "the same: to the last response",
        NULL,
        NULL,
        NULL,
        NULL,
    }};

#define NSTAT 32

typedef struct gps {
    llmm_cli_jreader jr; /* first */
    llmm_cli_run run;
    /* the metric object being read: its numbers wait for its unit */
    char metric[40];
    int our_metric;
    double out_mean, in_mean; /* output_ and input_sequence_length.avg, NaN unstated */
    char unit[24];
    char stat_name[NSTAT][8];
    double stat_value[NSTAT];
    size_t nstat;
    uint64_t nmetrics;
    char model[96];
    int aiperf; /* keys only AIPerf writes: benchmark_duration, was_cancelled, error_summary */
} gps;

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    gps *p = self;
    switch (f->type) {
    case S_ROOT:
        if (llmm_cli_key_is(k, len, "benchmark_duration") ||
            llmm_cli_key_is(k, len, "was_cancelled") || llmm_cli_key_is(k, len, "error_summary"))
            p->aiperf = 1;
        if (llmm_cli_key_is(k, len, "input_config"))
            return 1;
        if (llmm_cli_key_is(k, len, "telemetry_stats") || llmm_cli_key_is(k, len, "sessions"))
            return LLMM_CLI_JSON_SKIP;
        snprintf(p->metric, sizeof p->metric, "%.*s", (int)(len > 39 ? 39 : len), k);
        return 0;
    case S_METRIC:
        if (llmm_cli_key_is(k, len, "unit"))
            return 1 | LLMM_CLI_JSON_TEXT;
        if (p->nstat == NSTAT || len >= sizeof p->stat_name[0])
            return LLMM_CLI_JSON_SKIP;
        memcpy(p->stat_name[p->nstat], k, len);
        p->stat_name[p->nstat][len] = '\0';
        return 0;
    case S_CONFIG: /* the older flat input_config.concurrency, or perf_analyzer's */
        return llmm_cli_key_is(k, len, "perf_analyzer") || llmm_cli_key_is(k, len, "endpoint")
                   ? 0
               : llmm_cli_key_is(k, len, "concurrency")  ? 1
               : llmm_cli_key_is(k, len, "request_rate") ? 2
               : llmm_cli_key_is(k, len, "model") || llmm_cli_key_is(k, len, "model_names")
                   ? 3 | LLMM_CLI_JSON_TEXT
                   : LLMM_CLI_JSON_SKIP;
    case S_PA: /* perf_analyzer.stimulus, or AIPerf's endpoint.model_names */
        if (llmm_cli_key_is(k, len, "model_names"))
            return 3 | LLMM_CLI_JSON_TEXT;
        return llmm_cli_key_is(k, len, "stimulus") ? 0 : LLMM_CLI_JSON_SKIP;
    default: /* S_STIMULUS */
        return llmm_cli_key_is(k, len, "concurrency")    ? 1
               : llmm_cli_key_is(k, len, "request_rate") ? 2
                                                         : LLMM_CLI_JSON_SKIP;
    }
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    gps *p = self;
    if (parent && (parent->type == S_CONFIG || parent->type == S_PA) && parent->key == 3)
        return map ? LLMM_CLI_JSON_SKIP : S_MODELS | LLMM_CLI_JSON_TEXT; /* ["model", ...] */
    if (!map)
        return parent ? LLMM_CLI_JSON_SKIP
                      : llmm_cli_jr_stop(&p->jr, LLMM_CLI_EPARSE,
                                         "found a list where a JSON object (a genai-perf "
                                         "summary) should begin");
    if (!parent)
        return S_ROOT;
    switch (parent->type) {
    case S_ROOT:
        if (parent->key == 1)
            return S_CONFIG;
        p->nstat = 0;
        p->unit[0] = '\0';
        p->our_metric = LLMM_CLI_FM_OTHER;
        for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
            if (strcmp(metrics[i].name, p->metric) == 0)
                p->our_metric = metrics[i].metric;
        return S_METRIC;
    case S_CONFIG:
        return parent->key == 0 ? S_PA : LLMM_CLI_JSON_SKIP;
    case S_PA:
        return S_STIMULUS;
    default:
        return LLMM_CLI_JSON_SKIP;
    }
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    gps *p = self;
    if (!f)
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                "found %s where a JSON object (a genai-perf summary) should begin",
                                llmm_cli_json_kind_name(v->kind));
    if (f->type == S_METRIC) {
        if (f->key == 1) {
            if (v->kind == K_STRING)
                snprintf(p->unit, sizeof p->unit, "%.*s", (int)(v->len > 23 ? 23 : v->len),
                         v->text);
        } else if (v->kind == K_NUMBER) {
            p->stat_value[p->nstat++] = v->num;
        }
    } else if (((f->type == S_CONFIG || f->type == S_PA) && f->key == 3) ||
               f->type == S_MODELS) {
        if (v->kind == K_STRING && !p->model[0])
            snprintf(p->model, sizeof p->model, "%.*s", (int)(v->len > 95 ? 95 : v->len), v->text);
    } else if ((f->type == S_STIMULUS || f->type == S_CONFIG) && v->kind == K_NUMBER &&
               isfinite(v->num) && v->num > 0) {
        if (f->key == 1)
            p->run.concurrency = v->num;
        else
            p->run.request_rate = v->num;
    }
    return 1;
}

/* A statistic's name: "avg", "p99", "min", "max", "std". */
static int stat_of(const char *s, double *q)
{
    double v;
    *q = NAN;
    if (strcmp(s, "avg") == 0)
        return LLMM_CLI_ST_MEAN;
    if (strcmp(s, "min") == 0)
        return LLMM_CLI_ST_MIN;
    if (strcmp(s, "max") == 0)
        return LLMM_CLI_ST_MAX;
    if (strcmp(s, "std") == 0)
        return LLMM_CLI_ST_STD;
    if (s[0] == 'p' && sscanf(s + 1, "%lf", &v) == 1 && v >= 0 && v <= 100) {
        *q = v / 100.0;
        return LLMM_CLI_ST_QUANTILE;
    }
    return LLMM_CLI_ST_VALUE;
}

/* A metric object closed: its figures, each value converted by its unit. */
static int end_metric(gps *p)
{
    int ms = strcmp(p->unit, "ms") == 0;
    int metric = p->our_metric;
    p->nmetrics++;
    if (metric <= LLMM_CLI_FM_E2E && !ms)
        metric = LLMM_CLI_FM_OTHER; /* a latency in a unit we do not know */
    for (size_t i = 0; i < p->nstat; i++) {
        char name[64];
        double q;
        int stat = stat_of(p->stat_name[i], &q);
        int m = metric;
        if (metric == LLMM_CLI_FM_OUT_TOKENS || metric == LLMM_CLI_FM_IN_TOKENS) {
            if (stat != LLMM_CLI_ST_MEAN) /* the mean length of a request, not a total */
                m = LLMM_CLI_FM_OTHER;
            else if (metric == LLMM_CLI_FM_OUT_TOKENS)
                p->out_mean = p->stat_value[i];
            else
                p->in_mean = p->stat_value[i];
        } else if (metric > LLMM_CLI_FM_E2E && metric != LLMM_CLI_FM_OTHER) {
            /* rates and counts have only "avg": the value itself */
            if (stat != LLMM_CLI_ST_MEAN)
                m = LLMM_CLI_FM_OTHER;
            else
                stat = LLMM_CLI_ST_VALUE;
        }
        snprintf(name, sizeof name, "%s.%s", p->metric, p->stat_name[i]);
        if (m == LLMM_CLI_FM_COMPLETED && p->stat_value[i] >= 0 && p->stat_value[i] < 9e15)
            p->run.completed = (int64_t)p->stat_value[i];
        if (m == LLMM_CLI_FM_FAILED && p->stat_value[i] >= 0 && p->stat_value[i] < 9e15)
            p->run.failed = (int64_t)p->stat_value[i];
        if (m == LLMM_CLI_FM_DURATION && p->stat_value[i] > 0 && isfinite(p->stat_value[i]))
            p->run.duration_s = ms ? p->stat_value[i] * 1e-3 : p->stat_value[i];
        if (!llmm_cli_jr_figure(&p->jr, name, strlen(name), m, stat, q, p->stat_value[i],
                                p->unit[0] ? p->unit : "", ms ? p->stat_value[i] * 1e-3
                                                              : p->stat_value[i]))
            return 0;
    }
    return 1;
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    gps *p = self;
    if (f->type == S_METRIC)
        return end_metric(p);
    if (f->type == S_ROOT) {
        char label[64];
        if (p->nmetrics == 0)
            return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                    "no metric objects: not a genai-perf summary");
        label[0] = '\0';
        if (!isnan(p->run.concurrency))
            snprintf(label, sizeof label, "concurrency %g", p->run.concurrency);
        else if (!isnan(p->run.request_rate))
            snprintf(label, sizeof label, "request_rate %g", p->run.request_rate);
        p->run.label = label[0] ? label : NULL;
        p->run.model = p->model[0] ? p->model : NULL;
        p->run.stats_only = 1;
        if (p->run.completed >= 0 && p->out_mean >= 0 && p->in_mean >= 0) {
            /* tokens = genai-perf's mean lengths x request_count; its throughputs as stated */
            p->run.out_tokens = llround(p->out_mean * (double)p->run.completed);
            p->run.in_tokens = llround(p->in_mean * (double)p->run.completed);
            p->run.tokens_from = "the file's output_sequence_length.avg and "
                                 "input_sequence_length.avg x request_count";
        }
        return llmm_cli_jr_run_end(&p->jr, &p->run);
    }
    return 1;
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

static void gps_init(llmm_cli_jreader *r)
{
    llmm_cli_run_init(&((gps *)r)->run);
    ((gps *)r)->out_mean = ((gps *)r)->in_mean = NAN;
}

static int gps_end(llmm_cli_jreader *r, llmm_cli_error *err)
{
    (void)err;
    if (((gps *)r)->aiperf)
        r->info.tool = &aiperf_tool;
    snprintf(r->info.layout, sizeof r->info.layout,
             "%s: statistics only, no per-request samples",
             ((gps *)r)->aiperf ? "AIPerf profile_export_aiperf.json"
                                : "genai-perf profile_export_genai_perf.json");
    return LLMM_CLI_OK;
}

static const llmm_cli_jformat gps_format = {
    &handler, sizeof(gps), "genai-perf summary", &llmm_cli_genai_perf_tool, 0, gps_init,
    gps_end, NULL};

static int gps_detect(const llmm_cli_sniff *s)
{
    static const char *const marks[] = {"/request_throughput/unit", "/request_latency/unit",
                                        "/time_to_first_token/unit", "/input_config/perf_analyzer"};
    if (s->kind != '{')
        return 0;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (llmm_cli_sniff_has(s, marks[i]))
            return 3;
    return 0;
}

LLMM_CLI_JFORMAT_READER(genai_perf_summary, LLMM_CLI_FORMAT_GENAI_PERF_SUMMARY, "genai-perf-summary",
    "objects such as 'time_to_first_token' with 'unit' and 'avg'",
    gps_detect, &gps_format);
