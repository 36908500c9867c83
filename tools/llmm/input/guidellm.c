/* guidellm.c: the reader of GuideLLM's benchmarks.json, every benchmark of it (each rate of a
 * sweep) as one run.
 *
 * Layouts (the root): v0.1-v0.3 {"benchmarks": [...]}; v0.4 adds "args"; v0.5-v0.6 add
 * "metadata" {"version": 1}; v0.7 has "metadata" {"version": 2}, "config", "benchmarks".
 * A benchmark holds its strategy (config.strategy, v0.3: args.strategy), its measured window
 * (scheduler_metrics.measure_start_time / measure_end_time; also its start_time, end_time),
 * its figures (metrics: request_totals and, per quantity, distributions by status of which
 * the "successful" one is kept as the tool's figures) and its requests (requests.successful,
 * .errored, .incomplete), each with its times: info.timings.request_start,
 * first_token_iteration, last_token_iteration, request_end (v0.3: start_time, first_token_time,
 * last_token_time, end_time), output_tokens, prompt_tokens. Times are Unix seconds.
 * guidellm_request.c turns the requests into records. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/guidellm.h"

static const llmm_cli_tool guidellm_tool = {
    "GuideLLM",
    "the sorted value of rank floor(q n) + 1 (1-based, no interpolation: the first value "
    "whose cumulative weight exceeds q times the total); time_per_output_token_ms and "
    "inter_token_latency_ms are weighted by tokens, so their mean and percentiles are over "
    "tokens, not requests",
    {
        "the same: first token iteration - request start",
        "GuideLLM's inter_token_latency_ms = (last token - first token) / (N - 1) is our TPOT "
        "per request (its summary is token-weighted); its time_per_output_token_ms = (last "
        "token - request start) / N includes the first token",
        "GuideLLM stores no per-token times: no ITL distribution",
        "GuideLLM's request_latency runs to the response's end (request_end); ours to the last "
        "token, so ours is at most GuideLLM's",
        "GuideLLM's requests_per_second is a distribution over time; ours is completed / the "
        "benchmark's duration",
        NULL,
        NULL,
        NULL,
    }};

enum {
    B_ROOT = 1, B_META, B_LIST, B_BENCH, B_CONFIG, B_STRATEGY, B_SCHED, B_METRICS, B_TOTALS,
    B_DIST, B_D, B_PCTS, B_REQS, B_RLIST, B_REQ, B_INFO, B_TIMINGS, B_RARGS, B_BACKEND, B_WORKER
};

/* Key labels: the frame they lead to (a container) or a number slot below. */
enum {
    N_START = 100, N_END, N_DURATION, N_MSTART, N_MEND, N_TYPE, N_STREAMS, N_RATE, N_MAXCONC,
    N_T_START, N_T_FIRST, N_T_LAST, N_T_END, N_OUT, N_IN, N_MODEL, N_TOTAL0, N_STAT = 200,
    N_SUM = N_STAT + 50, N_PCT = N_STAT + 100
};

typedef struct keymap {
    const char *key;
    int label;
} keymap;

static const keymap root_keys[] = {
    {"benchmarks", B_LIST}, {"metadata", B_META}, {"args", B_RARGS}, {NULL, 0}};
static const keymap bench_keys[] = {
    {"config", B_CONFIG},   {"args", B_CONFIG},         {"scheduler_metrics", B_SCHED},
    {"metrics", B_METRICS}, {"requests", B_REQS},       {"request_totals", B_TOTALS},
    {"start_time", N_START}, {"end_time", N_END},       {"duration", N_DURATION},
    {"worker", B_WORKER},   {NULL, 0}};
static const keymap config_keys[] = {{"strategy", B_STRATEGY}, {"backend", B_BACKEND}, {NULL, 0}};
static const keymap model_keys[] = {{"model", N_MODEL | LLMM_CLI_JSON_TEXT}, {NULL, 0}};
static const keymap worker_keys[] = {{"backend_model", N_MODEL | LLMM_CLI_JSON_TEXT}, {NULL, 0}};
static const keymap strategy_keys[] = {{"type_", N_TYPE | LLMM_CLI_JSON_TEXT},
                                       {"streams", N_STREAMS},
                                       {"rate", N_RATE},
                                       {"max_concurrency", N_MAXCONC},
                                       {NULL, 0}};
static const keymap sched_keys[] = {{"measure_start_time", N_MSTART},
                                    {"measure_end_time", N_MEND},
                                    {NULL, 0}};
static const keymap totals_keys[] = {{"successful", N_TOTAL0 + GL_SUCCESSFUL},
                                     {"errored", N_TOTAL0 + GL_ERRORED},
                                     {"incomplete", N_TOTAL0 + GL_INCOMPLETE},
                                     {NULL, 0}};
static const char *const list_names[GL_LISTS] = {"successful", "errored", "incomplete"};
static const keymap req_keys[] = {
    {"info", B_INFO},           {"start_time", N_T_START},         {"request_start_time", N_T_START},
    {"first_token_time", N_T_FIRST}, {"last_token_time", N_T_LAST}, {"end_time", N_T_END},
    {"request_end_time", N_T_END}, {"output_tokens", N_OUT},      {"prompt_tokens", N_IN},
    {NULL, 0}};
static const keymap info_keys[] = {{"timings", B_TIMINGS}, {NULL, 0}};
static const keymap timing_keys[] = {{"request_start", N_T_START + 20},
                                     {"first_token_iteration", N_T_FIRST + 20},
                                     {"last_token_iteration", N_T_LAST + 20},
                                     {"request_end", N_T_END + 20},
                                     {NULL, 0}};
static const keymap d_keys[] = {{"mean", N_STAT + LLMM_CLI_ST_MEAN},
                                {"median", N_STAT + LLMM_CLI_ST_MEDIAN},
                                {"std_dev", N_STAT + LLMM_CLI_ST_STD},
                                {"min", N_STAT + LLMM_CLI_ST_MIN},
                                {"max", N_STAT + LLMM_CLI_ST_MAX},
                                {"count", N_STAT + LLMM_CLI_ST_COUNT_OF},
                                {"total_sum", N_SUM},
                                {"percentiles", B_PCTS},
                                {NULL, 0}};

static int find(const keymap *m, const char *k, size_t len)
{
    for (; m->key; m++)
        if (llmm_cli_key_is(k, len, m->key))
            return m->label;
    return LLMM_CLI_JSON_SKIP;
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    llmm_cli_guidellm *p = self;
    switch (f->type) {
    case B_ROOT:
        return find(root_keys, k, len);
    case B_META:
        if (llmm_cli_key_is(k, len, "version"))
            p->layout_meta = 1;
        return LLMM_CLI_JSON_SKIP;
    case B_BENCH:
        return find(bench_keys, k, len);
    case B_CONFIG:
        return find(config_keys, k, len);
    case B_STRATEGY:
        return find(strategy_keys, k, len);
    case B_SCHED:
        return find(sched_keys, k, len);
    case B_METRICS:
        if (llmm_cli_key_is(k, len, "request_totals"))
            return B_TOTALS;
        snprintf(p->dist, sizeof p->dist, "%.*s", (int)(len > 47 ? 47 : len), k);
        return B_DIST;
    case B_TOTALS:
        return find(totals_keys, k, len);
    case B_DIST:
        return llmm_cli_key_is(k, len, "successful") ? B_D : LLMM_CLI_JSON_SKIP;
    case B_D:
        return find(d_keys, k, len);
    case B_PCTS: { /* "p001" is the 0.1 % point, "p99" the 99 %, "p999" the 99.9 % */
        int ok = len >= 2 && len <= 4 && k[0] == 'p';
        for (size_t i = 1; ok && i < len; i++)
            ok = k[i] >= '0' && k[i] <= '9';
        if (!ok)
            return LLMM_CLI_JSON_SKIP;
        memcpy(p->pct, k, len);
        p->pct[len] = '\0';
        p->pct_q = atoi(k + 1) / pow(10.0, (double)(len - 1));
        return N_PCT;
    }
    case B_REQS: {
        int l = llmm_cli_key_find(k, len, list_names, GL_LISTS);
        if (l < 0)
            return LLMM_CLI_JSON_SKIP;
        p->cur_list = l;
        return B_RLIST;
    }
    case B_REQ:
        return find(req_keys, k, len);
    case B_INFO:
        return find(info_keys, k, len);
    case B_TIMINGS:
        return find(timing_keys, k, len);
    case B_RARGS:
    case B_BACKEND:
        return find(model_keys, k, len);
    case B_WORKER:
        return find(worker_keys, k, len);
    default:
        return LLMM_CLI_JSON_SKIP;
    }
}

static void begin_benchmark(llmm_cli_guidellm *p)
{
    llmm_cli_run_init(&p->run);
    p->win_start = p->win_end = p->bench_start = p->bench_end = NAN;
    for (int l = 0; l < GL_LISTS; l++)
        p->totals[l] = -1;
    p->strategy[0] = '\0';
    p->streams = p->rate = p->max_conc = NAN;
    p->reqs.n = 0;
    p->bench_model[0] = '\0';
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    llmm_cli_guidellm *p = self;
    int want;
    if (!parent) {
        if (!map)
            return llmm_cli_jr_stop(&p->jr, LLMM_CLI_EPARSE,
                                    "found a list where a JSON object (GuideLLM's "
                                    "benchmarks.json) should begin");
        return B_ROOT;
    }
    switch (parent->type) {
    case B_LIST:
        want = B_BENCH;
        break;
    case B_RLIST:
        want = B_REQ;
        break;
    case B_ROOT:
    case B_BENCH:
    case B_CONFIG:
    case B_METRICS:
    case B_DIST:
    case B_D:
    case B_REQS:
    case B_REQ:
    case B_INFO:
        want = parent->key;
        break;
    default:
        return LLMM_CLI_JSON_SKIP;
    }
    if (want >= N_START || (want == B_LIST || want == B_RLIST) != !map) {
        if (want == B_LIST || want == B_BENCH)
            return llmm_cli_jr_stop(&p->jr, LLMM_CLI_EPARSE, "'benchmarks' must be a list of "
                                                             "objects");
        return LLMM_CLI_JSON_SKIP; /* not the shape this reader reads: ignored */
    }
    if (want == B_BENCH)
        begin_benchmark(p);
    if (want == B_REQ) {
        gl_req *q = &p->reqs.cur;
        q->start = q->first = q->last = q->end = NAN;
        q->out_tokens = q->in_tokens = -1;
        q->list = p->cur_list;
    }
    return want;
}

/* A number of a distribution: one of the tool's figures. */
static int figure(llmm_cli_guidellm *p, int label, double v)
{
    static const struct {
        const char *dist;
        int metric;
    } ours[] = {{"time_to_first_token_ms", LLMM_CLI_FM_TTFT},
                {"inter_token_latency_ms", LLMM_CLI_FM_TPOT},
                {"request_latency", LLMM_CLI_FM_E2E}};
    char name[96];
    int stat, metric = LLMM_CLI_FM_OTHER, ms = strstr(p->dist, "_ms") != NULL;
    double q = NAN;
    const char *unit;
    if (label == N_SUM) { /* the token totals (a run that lists a sample needs them) */
        int out = strcmp(p->dist, "output_token_count") == 0;
        if (!out && strcmp(p->dist, "prompt_token_count") != 0)
            return 1;
        snprintf(name, sizeof name, "%s.total_sum", p->dist);
        return llmm_cli_jr_figure(&p->jr, name, strlen(name),
                                  out ? LLMM_CLI_FM_OUT_TOKENS : LLMM_CLI_FM_IN_TOKENS,
                                  LLMM_CLI_ST_VALUE, NAN, v, "count", v);
    }
    unit = ms ? "ms" : strcmp(p->dist, "request_latency") == 0 ? "s"
                               : strstr(p->dist, "per_second")              ? "/s"
                                                                            : "";
    if (label == N_PCT) {
        q = p->pct_q;
        stat = LLMM_CLI_ST_QUANTILE;
        snprintf(name, sizeof name, "%s.%s", p->dist, p->pct);
    } else {
        static const char *const names[] = {"", "mean", "median", "std_dev", "min", "max", "", "count"};
        stat = label - N_STAT;
        snprintf(name, sizeof name, "%s.%s", p->dist, names[stat]);
    }
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
        if (strcmp(p->dist, ours[i].dist) == 0)
            metric = ours[i].metric;
    if (stat == LLMM_CLI_ST_COUNT_OF)
        return llmm_cli_jr_figure(&p->jr, name, strlen(name), metric, stat, q, v, "count", v);
    return llmm_cli_jr_figure(&p->jr, name, strlen(name), metric, stat, q, v, unit,
                              ms ? v * 1e-3 : v);
}

/* A request's number (a time or a token count); info.timings win over the flat fields. */
static void request_number(gl_req *q, int label, double v, int64_t n, int has_n)
{
    int timing = label >= N_T_START + 20;
    switch (timing ? label - 20 : label) {
    case N_T_START:
        if (timing || isnan(q->start))
            q->start = v;
        break;
    case N_T_FIRST:
        if (timing || isnan(q->first))
            q->first = v;
        break;
    case N_T_LAST:
        if (timing || isnan(q->last))
            q->last = v;
        break;
    case N_T_END:
        if (timing || isnan(q->end))
            q->end = v;
        break;
    case N_OUT:
        if (has_n)
            q->out_tokens = n;
        break;
    default:
        if (has_n)
            q->in_tokens = n;
        break;
    }
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    llmm_cli_guidellm *p = self;
    int64_t n;
    int has_n = llmm_cli_json_int(v, &n);
    double x = v->kind == K_NUMBER ? v->num : NAN;
    if (!f)
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                "found %s where a JSON object (GuideLLM's benchmarks.json) "
                                "should begin",
                                llmm_cli_json_kind_name(v->kind));
    if (f->key == LLMM_CLI_JSON_SKIP || f->key < N_START)
        return 1;
    if (f->type == B_STRATEGY && f->key == N_TYPE && v->kind == K_STRING) {
        snprintf(p->strategy, sizeof p->strategy, "%.*s", (int)(v->len > 23 ? 23 : v->len),
                 v->text);
        return 1;
    }
    if (f->key == N_MODEL && v->kind == K_STRING) {
        char *m = f->type == B_RARGS ? p->root_model : p->bench_model;
        snprintf(m, sizeof p->root_model, "%.*s", (int)(v->len > 127 ? 127 : v->len), v->text);
        return 1;
    }
    if (v->kind != K_NUMBER)
        return 1; /* null: not measured */
    if (f->key >= N_STAT)
        return figure(p, f->key, x);
    if (f->type == B_REQ || f->type == B_TIMINGS) {
        if (!isfinite(x))
            return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE, "a request time is %s",
                                    llmm_cli_nonfinite_name(x));
        request_number(&p->reqs.cur, f->key, x, n, has_n);
        return 1;
    }
    switch (f->key) {
    case N_START: p->bench_start = x; break;
    case N_END: p->bench_end = x; break;
    case N_DURATION: p->run.duration_s = x >= 0 && isfinite(x) ? x : NAN; break;
    case N_MSTART: p->win_start = x; break;
    case N_MEND: p->win_end = x; break;
    case N_STREAMS: p->streams = x; break;
    case N_RATE: p->rate = x; break;
    case N_MAXCONC: p->max_conc = x; break;
    default:
        if (f->key >= N_TOTAL0 && f->key < N_TOTAL0 + GL_LISTS && has_n) {
            static const char *const tn[] = {"request_totals.successful", "request_totals.errored",
                                             "request_totals.incomplete"};
            static const int tm[] = {LLMM_CLI_FM_COMPLETED, LLMM_CLI_FM_FAILED, LLMM_CLI_FM_OTHER};
            int l = f->key - N_TOTAL0;
            p->totals[l] = n;
            return llmm_cli_jr_figure(&p->jr, tn[l], strlen(tn[l]), tm[l], LLMM_CLI_ST_VALUE,
                                      NAN, x, "count", x);
        }
    }
    return 1;
}

/* What the strategy says of the load: concurrency and rate, and a label. */
static void strategy(llmm_cli_guidellm *p, char *label, size_t cap)
{
    const char *s = p->strategy;
    if (strcmp(s, "synchronous") == 0)
        p->run.concurrency = 1;
    else if (strcmp(s, "concurrent") == 0)
        p->run.concurrency = p->streams;
    else if (p->max_conc > 0)
        p->run.concurrency = p->max_conc;
    if (strcmp(s, "constant") == 0 || strcmp(s, "poisson") == 0)
        p->run.request_rate = p->rate;
    if (!isnan(p->run.request_rate))
        snprintf(label, cap, "%s %g/s", s, p->run.request_rate);
    else if (!isnan(p->run.concurrency) && strcmp(s, "synchronous") != 0)
        snprintf(label, cap, "%s %g", s, p->run.concurrency);
    else
        snprintf(label, cap, "%s", s[0] ? s : "benchmark");
}

static int end_benchmark(llmm_cli_guidellm *p)
{
    char label[64];
    if (!llmm_cli_gl_deliver(p))
        return 0;
    strategy(p, label, sizeof label);
    p->run.label = label;
    p->run.model = p->bench_model[0] ? p->bench_model : p->root_model[0] ? p->root_model : NULL;
    p->run.completed = p->totals[GL_SUCCESSFUL];
    p->run.failed = p->totals[GL_ERRORED];
    return llmm_cli_jr_run_end(&p->jr, &p->run);
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    llmm_cli_guidellm *p = self;
    switch (f->type) {
    case B_REQ:
        return llmm_cli_gl_keep(p);
    case B_BENCH:
        return end_benchmark(p);
    default:
        return 1;
    }
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

static int gl_end(llmm_cli_jreader *r, llmm_cli_error *err)
{
    llmm_cli_guidellm *p = (llmm_cli_guidellm *)r;
    if (p->jr.info.runs == 0)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: no benchmark in 'benchmarks'",
                             p->jr.name);
    snprintf(p->jr.info.layout, sizeof p->jr.info.layout, "GuideLLM benchmarks.json (%s), %llu "
             "benchmark%s",
             p->layout_meta ? "v0.5 or later" : "v0.3 or v0.4", (unsigned long long)p->jr.info.runs,
             p->jr.info.runs == 1 ? "" : "s");
    return LLMM_CLI_OK;
}

static void gl_free(llmm_cli_jreader *r)
{
    llmm_cli_gl_reqs_free(&((llmm_cli_guidellm *)r)->reqs);
}

static const llmm_cli_jformat gl_format = {
    &handler, sizeof(llmm_cli_guidellm), "GuideLLM report", &guidellm_tool, 0, NULL, gl_end,
    gl_free};

static int gl_detect(const llmm_cli_sniff *s)
{
    if (s->kind != '{')
        return 0;
    if (llmm_cli_sniff_has(s, "/benchmarks[]/type_=generative_benchmark") ||
        llmm_cli_sniff_has(s, "/metadata/guidellm_version"))
        return 3;
    return llmm_cli_sniff_has(s, "/benchmarks") ? 2 : 0;
}

LLMM_CLI_JFORMAT_READER(guidellm, LLMM_CLI_FORMAT_GUIDELLM, "guidellm",
    "a 'benchmarks' list of generative_benchmark objects",
    gl_detect, &gl_format);
