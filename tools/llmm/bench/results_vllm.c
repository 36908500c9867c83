/* results_vllm.c: a level's result file (results.h): vLLM's keys over the measured window, and
 * llmm's extension under the one key "llmm" (doc/bench.md), through the tool's JSON writer
 * (every string escaped, no NaN: null). */
#include "bench/results.h"
#include "bench/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bpf.h"
#include "common/file.h"
#include "common/jsonw.h"
#include "common/output.h"

/* Which requests a list holds. */
static int in(const llmm_bench_rec *x, int phase)
{
    return x->phase == phase;
}

static int ok(const llmm_bench_rec *x)
{
    return x->reason == LLMM_BENCH_OK;
}

/* ---- vLLM's statistics: numpy's mean, median, population std and linear P99 ---------------- */

int llmm_bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double llmm_bench_linear(const double *v, size_t n, double q)
{
    double h = q * (double)(n - 1);
    size_t lo = (size_t)h;
    return v[lo] + (h - (double)lo) * (v[lo + (lo + 1 < n)] - v[lo]);
}

/* "mean_NAME_ms": ..., median, std, p99 of v[0..n) seconds (sorted here); 0 when empty, as
 * vLLM writes them. */
static void stats(llmm_cli_jw *w, const char *name, double *v, size_t n)
{
    double mean = 0, var = 0, med = 0, p99 = 0;
    char k[4][32];
    if (n > 0) {
        qsort(v, n, sizeof *v, llmm_bench_cmp_double);
        for (size_t i = 0; i < n; i++)
            mean += v[i];
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            var += (v[i] - mean) * (v[i] - mean);
        var /= (double)n;
        med = llmm_bench_linear(v, n, 0.5);
        p99 = llmm_bench_linear(v, n, 0.99);
    }
    snprintf(k[0], sizeof k[0], "mean_%s_ms", name);
    snprintf(k[1], sizeof k[1], "median_%s_ms", name);
    snprintf(k[2], sizeof k[2], "std_%s_ms", name);
    snprintf(k[3], sizeof k[3], "p99_%s_ms", name);
    LLMM_CLI_JW_NUMS(w, {k[0], mean * 1e3}, {k[1], med * 1e3}, {k[2], sqrt(var) * 1e3},
                     {k[3], p99 * 1e3});
}

/* The four statistics of TTFT, TPOT, ITL and E2E over the window's successful requests, as
 * vLLM's --percentile-metrics ttft,tpot,itl,e2el writes them. 0 out of memory. */
static int vllm_stats(llmm_cli_jw *w, const llmm_bench_result *r)
{
    double *v = malloc((r->n + r->nitl + 1) * sizeof *v);
    size_t n = 0;
    if (!v)
        return 0;
    for (size_t i = 0; i < r->n; i++)
        if (in(&r->rec[i], LLMM_BENCH_WINDOW) && ok(&r->rec[i]))
            v[n++] = r->rec[i].first - r->rec[i].sent;
    stats(w, "ttft", v, n);
    n = 0;
    for (size_t i = 0; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        if (in(x, LLMM_BENCH_WINDOW) && ok(x) && x->out_tokens > 1)
            v[n++] = (x->last - x->first) / (double)(x->out_tokens - 1);
    }
    stats(w, "tpot", v, n);
    n = 0;
    for (size_t i = 0; i < r->n; i++)
        for (uint32_t j = 0;
             in(&r->rec[i], LLMM_BENCH_WINDOW) && ok(&r->rec[i]) && j < r->rec[i].nitl; j++)
            v[n++] = r->itl[r->rec[i].itl + j];
    stats(w, "itl", v, n);
    n = 0;
    for (size_t i = 0; i < r->n; i++)
        if (in(&r->rec[i], LLMM_BENCH_WINDOW) && ok(&r->rec[i]))
            v[n++] = r->rec[i].last - r->rec[i].sent;
    stats(w, "e2el", v, n);
    free(v);
    return 1;
}

/* ---- the per-request lists ---------------------------------------------------------------- */

enum {
    L_IN,
    L_OUT,
    L_TTFT,
    L_LAT,
    L_START,
    L_QUEUE,
    L_FIRST_START,
    L_ASKED,
    L_SERVED,
    L_RESENDS,
    L_STATUS,
    L_NUM
};
static const char *const list_key[L_NUM] = {
    "input_lens",        "output_lens",      "ttfts",
    "latencies",         "start_times",      "queue_times",
    "first_start_times", "asked_input_lens", "served_input_lens",
    "resends",           "http_status"};

/* The value of list k for x (NaN: null). */
static double value(const llmm_bench_rec *x, int k)
{
    switch (k) {
    case L_IN:
        return (double)x->in_tokens;
    case L_OUT:
        return ok(x) ? (double)x->out_tokens : 0.0;
    case L_TTFT:
        return ok(x) ? x->first - x->sent : 0.0;
    case L_LAT:
        return ok(x) ? x->last - x->sent : 0.0;
    case L_START:
        return x->sent; /* CLOCK_MONOTONIC, as vLLM's perf_counter() on Linux */
    case L_QUEUE:
        return x->sent - x->intended;
    case L_FIRST_START:
        return x->first_sent;
    case L_ASKED:
        return (double)x->asked_in;
    case L_SERVED:
        return x->served_in >= 0 ? (double)x->served_in : NAN;
    case L_RESENDS:
        return (double)x->resends;
    default:
        return x->http_status > 0 ? (double)x->http_status : NAN;
    }
}

/* The vLLM "errors" entry of x into buf: "" (succeeded), "REASON[ STATUS][: MESSAGE]". */
static const char *error_text(const llmm_bench_rec *x, char *buf, size_t cap)
{
    size_t n;
    if (ok(x))
        return "";
    n = (size_t)snprintf(buf, cap, "%s", llmm_bench_reason_name(x->reason));
    if (x->reason == LLMM_BENCH_HTTP && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, " %d", x->http_status);
    if (x->msg && n < cap)
        snprintf(buf + n, cap - n, ": %s", x->msg);
    return buf;
}

/* Every per-request list of the requests in phase: vLLM's (vllm: also generated_texts and
 * errors) and llmm's. */
static void lists(llmm_cli_jw *w, const llmm_bench_result *r, int phase, int first, int last)
{
    char buf[LLMM_BENCH_MSG_MAX + 64];
    for (int k = first; k < last; k++) {
        llmm_cli_jw_key_arr(w, list_key[k]);
        for (size_t i = 0; i < r->n; i++)
            if (in(&r->rec[i], phase))
                llmm_cli_jw_num(w, value(&r->rec[i], k));
        llmm_cli_jw_arr_end(w);
        if (k != L_TTFT)
            continue;
        llmm_cli_jw_key_arr(w, "itls"); /* after ttfts, as vLLM orders its keys */
        for (size_t i = 0; i < r->n; i++) {
            const llmm_bench_rec *x = &r->rec[i];
            if (!in(x, phase))
                continue;
            llmm_cli_jw_arr(w);
            for (uint32_t j = 0; ok(x) && j < x->nitl; j++)
                llmm_cli_jw_num(w, r->itl[x->itl + j]);
            llmm_cli_jw_arr_end(w);
        }
        llmm_cli_jw_arr_end(w);
    }
    if (first != 0)
        return;
    llmm_cli_jw_key_arr(w, "generated_texts");
    for (size_t i = 0; i < r->n; i++)
        if (in(&r->rec[i], phase))
            llmm_cli_jw_str(w, "");
    llmm_cli_jw_arr_end(w);
    llmm_cli_jw_key_arr(w, "errors");
    for (size_t i = 0; i < r->n; i++)
        if (in(&r->rec[i], phase))
            llmm_cli_jw_str(w, error_text(&r->rec[i], buf, sizeof buf));
    llmm_cli_jw_arr_end(w);
}

/* llmm's per-request keys: failure reasons and messages, and the numeric ones. */
static void llmm_lists(llmm_cli_jw *w, const llmm_bench_result *r, int phase)
{
    llmm_cli_jw_key_arr(w, "reasons");
    for (size_t i = 0; i < r->n; i++)
        if (in(&r->rec[i], phase))
            llmm_cli_jw_str(w, ok(&r->rec[i]) ? "" : llmm_bench_reason_name(r->rec[i].reason));
    llmm_cli_jw_arr_end(w);
    llmm_cli_jw_key_arr(w, "messages");
    for (size_t i = 0; i < r->n; i++)
        if (in(&r->rec[i], phase)) {
            if (r->rec[i].msg)
                llmm_cli_jw_str(w, r->rec[i].msg);
            else
                llmm_cli_jw_null(w);
        }
    llmm_cli_jw_arr_end(w);
    for (int k = 0; k < 2; k++) { /* the W3C trace context each was sent with */
        llmm_cli_jw_key_arr(w, k ? "span_ids" : "trace_ids");
        for (size_t i = 0; i < r->n; i++)
            if (in(&r->rec[i], phase)) {
                char hex[33];
                llmm_bench_hex(k ? r->rec[i].span_id : r->rec[i].trace_id, k ? 8 : 16, hex);
                llmm_cli_jw_str(w, hex);
            }
        llmm_cli_jw_arr_end(w);
    }
    lists(w, r, phase, L_FIRST_START, L_NUM);
    llmm_bench_kev_lists(w, r, phase); /* --bpf */
}

/* ---- the document ------------------------------------------------------------------------- */

/* The extension: {"version": 1, ...} (doc/bench.md). */
static void extension(llmm_cli_jw *w, const llmm_bench_result *r)
{
    static const char *const phase_key[] = {"warmup", NULL, "cooldown"};
    llmm_bench_counts c;
    char name[64];
    llmm_bench_level_name(&r->level, name, sizeof name);
    llmm_bench_count(r, LLMM_BENCH_WINDOW, &c);
    llmm_cli_jw_key_map(w, "llmm");
    llmm_cli_jw_kv_u64(w, "version", 1);
    llmm_cli_jw_kv_str(w, "level", name);
    LLMM_CLI_JW_NUM_MAP(w, "window", {"start_time", r->w0}, {"end_time", r->w1},
                        {"duration", r->w1 - r->w0}, {"qps", llmm_bench_window_qps(r)});
    llmm_cli_jw_kv_str(w, "qps_definition",
                       r->level.open ? "successes ended in the window / its duration"
                                     : "Little's law: concurrency x success share / mean "
                                       "time in the system");
    LLMM_CLI_JW_NUMS(w, {"connections", (double)r->connects}, {"resends", (double)r->resends},
                     {"max_in_flight", (double)r->max_in_flight});
    llmm_cli_jw_kv_bool(w, "interrupted", r->interrupted);
    llmm_cli_jw_key_map(w, "failures"); /* the window's, by reason */
    for (int k = 1; k < LLMM_BENCH_NREASONS; k++)
        if (c.failed[k])
            llmm_cli_jw_kv_u64(w, llmm_bench_reason_name(k), c.failed[k]);
    llmm_cli_jw_map_end(w);
    llmm_bench_kev_summary(w, r); /* --bpf */
    llmm_cli_jw_key_map(w, "requests"); /* aligned with vLLM's lists */
    llmm_lists(w, r, LLMM_BENCH_WINDOW);
    llmm_cli_jw_map_end(w);
    for (int ph = LLMM_BENCH_WARMUP; ph <= LLMM_BENCH_COOLDOWN; ph++) {
        if (!phase_key[ph])
            continue;
        llmm_cli_jw_key_map(w, phase_key[ph]); /* vLLM's per-request keys and llmm's */
        lists(w, r, ph, 0, L_QUEUE + 1);
        llmm_lists(w, r, ph);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_map_end(w);
}

static int write_doc(llmm_cli_jw *w, const llmm_bench_result *r, const llmm_bench_meta *m)
{
    const llmm_bench_level *lv = &r->level;
    double dur = r->w1 > r->w0 ? r->w1 - r->w0 : 0.0;
    llmm_bench_counts c;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y%m%d-%H%M%S", localtime(&now));
    llmm_bench_count(r, LLMM_BENCH_WINDOW, &c);
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv_str(w, "date", date);
    llmm_cli_jw_kv_str(w, "endpoint_type", m->backend);
    llmm_cli_jw_kv_str(w, "backend", m->backend);
    llmm_cli_jw_key(w, "label");
    if (m->label)
        llmm_cli_jw_str(w, m->label);
    else
        llmm_cli_jw_null(w);
    llmm_cli_jw_kv_str(w, "model_id", m->model);
    llmm_cli_jw_key(w, "tokenizer_id");
    llmm_cli_jw_null(w);
    llmm_cli_jw_kv_u64(w, "num_prompts", c.sent);
    if (lv->open) {
        llmm_cli_jw_kv(w, "request_rate", lv->rate);
        llmm_cli_jw_kv(w, "burstiness", lv->poisson ? 1.0 : INFINITY); /* null: constant */
    } else {
        llmm_cli_jw_kv_str(w, "request_rate", "inf");
        llmm_cli_jw_kv(w, "burstiness", 1.0);
    }
    llmm_cli_jw_key(w, "max_concurrency");
    if (lv->concurrency)
        llmm_cli_jw_u64(w, lv->concurrency);
    else
        llmm_cli_jw_null(w);
    LLMM_CLI_JW_NUMS(w, {"duration", dur}, {"completed", (double)c.done},
                     {"failed", (double)(c.sent - c.done)}, {"total_input_tokens", (double)c.in},
                     {"total_output_tokens", (double)c.out},
                     {"request_throughput", dur > 0 ? (double)c.done / dur : 0.0});
    llmm_cli_jw_key(w, "request_goodput");
    llmm_cli_jw_null(w);
    LLMM_CLI_JW_NUMS(w, {"output_throughput", dur > 0 ? (double)c.out / dur : 0.0},
                     {"total_token_throughput", dur > 0 ? (double)(c.in + c.out) / dur : 0.0});
    if (!vllm_stats(w, r))
        return 0;
    lists(w, r, LLMM_BENCH_WINDOW, 0, L_QUEUE + 1);
    extension(w, r);
    llmm_cli_jw_map_end(w);
    return 1;
}

int llmm_bench_write_vllm_to(FILE *f, const llmm_bench_result *r, const llmm_bench_meta *m)
{
    llmm_cli_jw w;
    if (llmm_cli_jw_open_line(&w) != 0)
        return LLMM_CLI_ENOMEM;
    if (!write_doc(&w, r, m)) {
        llmm_cli_jw_discard(&w);
        return LLMM_CLI_ENOMEM;
    }
    return llmm_cli_jw_finish_line(&w, f) == LLMM_CLI_OK ? LLMM_CLI_OK : LLMM_CLI_EIO;
}

int llmm_bench_write_vllm(const char *dir, const llmm_bench_result *r, const llmm_bench_meta *m,
                          char *path, size_t cap, llmm_cli_error *err)
{
    char name[64], file[128];
    llmm_cli_out o;
    int rc;
    llmm_bench_level_name(&r->level, name, sizeof name);
    snprintf(file, sizeof file, "result-%s.json", name);
    if (llmm_cli_path_in(dir, file, path, cap, err) != LLMM_CLI_OK ||
        llmm_cli_out_open(&o, path, err) != LLMM_CLI_OK)
        return LLMM_CLI_EIO;
    rc = llmm_bench_write_vllm_to(o.f, r, m);
    if (rc != LLMM_CLI_OK) {
        llmm_cli_out_discard(&o);
        return rc == LLMM_CLI_ENOMEM ? llmm_cli_fail(err, rc, "out of memory")
                                     : llmm_cli_fail(err, rc, "%s: cannot write", path);
    }
    return llmm_cli_out_close(&o, err);
}
