/* results.c: a level's files and summary (results.h). */
#include "bench/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/file.h"
#include "common/output.h"
#include "render/sketch.h"

void llmm_bench_level_name(const llmm_bench_level *lv, char *buf, size_t cap)
{
    if (lv->open)
        snprintf(buf, cap, "r%g", lv->rate);
    else
        snprintf(buf, cap, "c%u", lv->concurrency);
}

/* Closed loop: Little's law over the requests of the window, concurrency / mean time in the
 * system, times the share that succeeded. Completions come in bursts (a batching server ends
 * many sequences in one step), so counting them in a short window would be off by a burst;
 * the mean of every windowed request's time has no such edge. */
static double closed_qps(const llmm_bench_result *r)
{
    double sum = 0;
    uint64_t n = 0, ok = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->rec[i].windowed) {
            sum += r->rec[i].end - r->rec[i].sent;
            n++;
            ok += r->rec[i].reason == LLMM_BENCH_OK;
        }
    return n && sum > 0 ? (double)r->level.concurrency * (double)ok / sum : NAN;
}

double llmm_bench_window_qps(const llmm_bench_result *r)
{
    uint64_t n = 0;
    if (!r->level.open)
        return closed_qps(r);
    for (size_t i = 0; i < r->n; i++)
        n += r->rec[i].reason == LLMM_BENCH_OK && r->rec[i].end >= r->w0 &&
             r->rec[i].end <= r->w1;
    return r->w1 > r->w0 ? (double)n / (r->w1 - r->w0) : NAN;
}

void llmm_bench_result_free(llmm_bench_result *r)
{
    for (int k = 0; k < LLMM_BENCH_NSKETCH; k++)
        llmm_recorder_free(r->rc[k]);
    for (size_t i = 0; i < r->n; i++)
        free(r->rec[i].msg);
    free(r->rec);
    free(r->itl);
    free(r->series);
    memset(r, 0, sizeof *r);
}

llmm_sketch *llmm_bench_result_sketch(const llmm_bench_result *r, int k)
{
    llmm_sketch *s = NULL;
    if (!r->rc[k] || llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &s) != LLMM_OK)
        return NULL;
    if (llmm_recorder_snapshot(r->rc[k], s) != LLMM_OK) {
        llmm_sketch_free(s);
        return NULL;
    }
    return s;
}

/* dir/name+ext through the tool's output files (common/output.h): path receives its name. */
static FILE *open_out(llmm_cli_out *o, const char *dir, const char *name, const char *ext,
                      char *path, size_t cap, llmm_cli_error *err)
{
    char file[128];
    snprintf(file, sizeof file, "%s%s", name, ext);
    if (llmm_cli_path_in(dir, file, path, cap, err) != LLMM_CLI_OK ||
        llmm_cli_out_open(o, path, err) != LLMM_CLI_OK)
        return NULL;
    return o->f;
}

/* ---- the vLLM result file ----------------------------------------------------------------- */

/* "key": [v(rec 0), v(rec 1), ...]: durations with 9 significant digits (well below a
 * nanosecond), times of the monotonic clock exactly (17). */
static void list(FILE *f, const char *key, const llmm_bench_result *r,
                 double (*v)(const llmm_bench_rec *, double t0))
{
    int digits = strcmp(key, "start_times") == 0 ? 17 : 9;
    fprintf(f, ", \"%s\": [", key);
    for (size_t i = 0; i < r->n; i++)
        fprintf(f, "%s%.*g", i ? ", " : "", digits, v(&r->rec[i], r->t0));
    fputc(']', f);
}

static int ok(const llmm_bench_rec *x)
{
    return x->reason == LLMM_BENCH_OK;
}
static double in_len(const llmm_bench_rec *x, double t0)
{
    (void)t0;
    return (double)x->in_tokens;
}
static double out_len(const llmm_bench_rec *x, double t0)
{
    (void)t0;
    return ok(x) ? (double)x->out_tokens : 0.0;
}
static double ttft(const llmm_bench_rec *x, double t0)
{
    (void)t0;
    return ok(x) ? x->first - x->sent : 0.0;
}
static double e2e(const llmm_bench_rec *x, double t0)
{
    (void)t0;
    return ok(x) ? x->last - x->sent : 0.0;
}
static double start(const llmm_bench_rec *x, double t0)
{
    (void)t0;
    return x->sent; /* CLOCK_MONOTONIC, as vLLM's perf_counter() on Linux */
}
static double queued(const llmm_bench_rec *x, double t0)
{
    (void)t0;
    return x->sent - x->intended;
}

static void totals(const llmm_bench_result *r, uint64_t *done, uint64_t *in, uint64_t *out)
{
    *done = *in = *out = 0;
    for (size_t i = 0; i < r->n; i++)
        if (ok(&r->rec[i])) {
            ++*done;
            *in += (uint64_t)r->rec[i].in_tokens;
            *out += (uint64_t)r->rec[i].out_tokens;
        }
}

/* ---- vLLM's statistics: numpy's mean, median, population std and linear P99 ---------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "mean_NAME_ms": ..., median, std, p99 of v[0..n) seconds (sorted here); 0 when empty. */
static void stats(FILE *f, const char *name, double *v, size_t n)
{
    double mean = 0, var = 0, med = 0, p99 = 0;
    if (n > 0) {
        double h;
        size_t lo;
        qsort(v, n, sizeof *v, cmp_double);
        for (size_t i = 0; i < n; i++)
            mean += v[i];
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            var += (v[i] - mean) * (v[i] - mean);
        var /= (double)n;
        h = 0.5 * (double)(n - 1);
        lo = (size_t)h;
        med = v[lo] + (h - (double)lo) * (v[lo + (lo + 1 < n)] - v[lo]);
        h = 0.99 * (double)(n - 1);
        lo = (size_t)h;
        p99 = v[lo] + (h - (double)lo) * (v[lo + (lo + 1 < n)] - v[lo]);
    }
    fprintf(f, ", \"mean_%s_ms\": %.9g, \"median_%s_ms\": %.9g, \"std_%s_ms\": %.9g, "
               "\"p99_%s_ms\": %.9g",
            name, mean * 1e3, name, med * 1e3, name, sqrt(var) * 1e3, name, p99 * 1e3);
}

/* The four statistics of TTFT, TPOT, ITL and E2E over the successful requests, as vLLM's
 * --percentile-metrics ttft,tpot,itl,e2el writes them. 0 out of memory. */
static int vllm_stats(FILE *f, const llmm_bench_result *r)
{
    double *v = malloc((r->n + r->nitl + 1) * sizeof *v);
    size_t n;
    if (!v)
        return 0;
    n = 0;
    for (size_t i = 0; i < r->n; i++)
        if (ok(&r->rec[i]))
            v[n++] = r->rec[i].first - r->rec[i].sent;
    stats(f, "ttft", v, n);
    n = 0;
    for (size_t i = 0; i < r->n; i++)
        if (ok(&r->rec[i]) && r->rec[i].out_tokens > 1)
            v[n++] = (r->rec[i].last - r->rec[i].first) / (double)(r->rec[i].out_tokens - 1);
    stats(f, "tpot", v, n);
    n = 0;
    for (size_t i = 0; i < r->n; i++)
        for (uint32_t j = 0; ok(&r->rec[i]) && j < r->rec[i].nitl; j++)
            v[n++] = r->itl[r->rec[i].itl + j];
    stats(f, "itl", v, n);
    n = 0;
    for (size_t i = 0; i < r->n; i++)
        if (ok(&r->rec[i]))
            v[n++] = r->rec[i].last - r->rec[i].sent;
    stats(f, "e2el", v, n);
    free(v);
    return 1;
}

static int write_vllm(FILE *f, const llmm_bench_result *r, const llmm_bench_meta *m)
{
    const llmm_bench_level *lv = &r->level;
    double dur = r->t_end > r->t0 ? r->t_end - r->t0 : 0.0;
    uint64_t done, in, out;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y%m%d-%H%M%S", localtime(&now));
    totals(r, &done, &in, &out);
    fprintf(f, "{\"date\": \"%s\", \"endpoint_type\": \"%s\", \"backend\": \"%s\", ", date,
            m->backend, m->backend);
    fprintf(f, "\"label\": %s%s%s, \"model_id\": \"%s\", \"tokenizer_id\": null, ",
            m->label ? "\"" : "", m->label ? m->label : "null", m->label ? "\"" : "", m->model);
    fprintf(f, "\"num_prompts\": %zu, ", r->n);
    if (lv->open)
        fprintf(f, "\"request_rate\": %.9g, \"burstiness\": %s, ", lv->rate,
                lv->poisson ? "1.0" : "Infinity");
    else
        fprintf(f, "\"request_rate\": \"inf\", \"burstiness\": 1.0, ");
    if (lv->concurrency)
        fprintf(f, "\"max_concurrency\": %u, ", lv->concurrency);
    else
        fputs("\"max_concurrency\": null, ", f);
    fprintf(f, "\"duration\": %.9g, \"completed\": %llu, \"failed\": %llu, ", dur,
            (unsigned long long)done, (unsigned long long)(r->n - done));
    fprintf(f, "\"total_input_tokens\": %llu, \"total_output_tokens\": %llu, ",
            (unsigned long long)in, (unsigned long long)out);
    fprintf(f, "\"request_throughput\": %.9g, \"request_goodput\": null, ",
            dur > 0 ? (double)done / dur : 0.0);
    fprintf(f, "\"output_throughput\": %.9g, \"total_token_throughput\": %.9g",
            dur > 0 ? (double)out / dur : 0.0, dur > 0 ? (double)(in + out) / dur : 0.0);
    if (!vllm_stats(f, r))
        return 0;
    list(f, "input_lens", r, in_len);
    list(f, "output_lens", r, out_len);
    list(f, "ttfts", r, ttft);
    fputs(", \"itls\": [", f);
    for (size_t i = 0; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        fputs(i ? ", [" : "[", f);
        for (uint32_t j = 0; ok(x) && j < x->nitl; j++)
            fprintf(f, "%s%.9g", j ? ", " : "", r->itl[x->itl + j]);
        fputc(']', f);
    }
    fputc(']', f);
    list(f, "latencies", r, e2e);
    list(f, "start_times", r, start);
    list(f, "queue_times", r, queued);
    fputs(", \"generated_texts\": [", f);
    for (size_t i = 0; i < r->n; i++)
        fputs(i ? ", \"\"" : "\"\"", f);
    fputs("], \"errors\": [", f);
    for (size_t i = 0; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        if (ok(x))
            fprintf(f, "%s\"\"", i ? ", " : "");
        else if (x->reason == LLMM_BENCH_HTTP)
            fprintf(f, "%s\"http %d\"", i ? ", " : "", x->http_status);
        else
            fprintf(f, "%s\"%s\"", i ? ", " : "", llmm_bench_reason_name(x->reason));
    }
    fputs("]}", f);
    return 1;
}

int llmm_bench_write_vllm(const char *dir, const llmm_bench_result *r, const llmm_bench_meta *m,
                          char *path, size_t cap, llmm_cli_error *err)
{
    char name[64], base[80];
    llmm_cli_out o;
    FILE *f;
    llmm_bench_level_name(&r->level, name, sizeof name);
    snprintf(base, sizeof base, "result-%s", name);
    f = open_out(&o, dir, base, ".json", path, cap, err);
    if (!f)
        return LLMM_CLI_EIO;
    if (!write_vllm(f, r, m)) {
        llmm_cli_out_discard(&o);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    return llmm_cli_out_close(&o, err);
}

/* ---- sketches and series ------------------------------------------------------------------ */

static const char *const sketch_names[LLMM_BENCH_NSKETCH] = {"ttft", "itl", "e2e",
                                                             "ttft-intended", "e2e-intended"};

int llmm_bench_write_sketches(const char *dir, const llmm_bench_result *r, llmm_cli_error *err)
{
    char name[64], path[4096];
    llmm_bench_level_name(&r->level, name, sizeof name);
    for (int k = 0; k < LLMM_BENCH_NSKETCH; k++) {
        llmm_sketch *s;
        int rc;
        if (!r->level.open && (k == LLMM_BENCH_TTFT_CO || k == LLMM_BENCH_E2E_CO))
            continue;
        s = llmm_bench_result_sketch(r, k);
        if (!s)
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        char file[128];
        snprintf(file, sizeof file, "%s-%s.llmm", name, sketch_names[k]);
        rc = llmm_cli_path_in(dir, file, path, sizeof path, err);
        if (rc == LLMM_CLI_OK)
            rc = llmm_cli_sketch_save(path, s, err);
        llmm_sketch_free(s);
        if (rc != LLMM_CLI_OK)
            return rc;
    }
    return LLMM_CLI_OK;
}

int llmm_bench_write_series(const char *dir, const llmm_bench_result *r, llmm_cli_error *err)
{
    char name[64], base[80], path[4096];
    llmm_cli_out o;
    FILE *f;
    llmm_bench_level_name(&r->level, name, sizeof name);
    snprintf(base, sizeof base, "series-%s", name);
    f = open_out(&o, dir, base, ".csv", path, sizeof path, err);
    if (!f)
        return LLMM_CLI_EIO;
    fputs("t_s,in_flight,completed\n", f);
    for (size_t i = 0; i < r->nseries; i++)
        fprintf(f, "%.3f,%.0f,%.0f\n", r->series[3 * i], r->series[3 * i + 1],
                r->series[3 * i + 2]);
    return llmm_cli_out_close(&o, err);
}

/* ---- the summary -------------------------------------------------------------------------- */

static void quantiles(FILE *f, const llmm_bench_result *r, int k, const char *label)
{
    llmm_sketch *s = llmm_bench_result_sketch(r, k);
    double q[3] = {NAN, NAN, NAN};
    static const double at[3] = {0.5, 0.9, 0.99};
    if (s && llmm_sketch_count(s) > 0)
        for (int i = 0; i < 3; i++)
            llmm_sketch_quantile(s, at[i], &q[i]);
    fprintf(f, "  %-22s %10.2f %10.2f %10.2f  (%llu values)\n", label, q[0] * 1e3, q[1] * 1e3,
            q[2] * 1e3, s ? (unsigned long long)llmm_sketch_count(s) : 0ull);
    llmm_sketch_free(s);
}

void llmm_bench_print_level(FILE *f, const llmm_bench_result *r)
{
    char name[64];
    uint64_t done, in, out, usage = 0, failed = 0;
    totals(r, &done, &in, &out);
    for (size_t i = 0; i < r->n; i++)
        usage += ok(&r->rec[i]) && r->rec[i].usage;
    llmm_bench_level_name(&r->level, name, sizeof name);
    fprintf(f,
            "level %s: %zu sent, %llu succeeded, %zu failed%s; max in flight %u; %llu "
            "connections opened\n",
            name, r->n, (unsigned long long)done, r->n - (size_t)done,
            r->interrupted ? " (interrupted)" : "", r->max_in_flight,
            (unsigned long long)r->connects);
    for (int k = 1; k < LLMM_BENCH_NREASONS; k++) {
        if (!r->failed[k])
            continue;
        fprintf(f, "%s %s %llu", failed ? "," : "  failures:", llmm_bench_reason_name(k),
                (unsigned long long)r->failed[k]);
        failed += r->failed[k];
    }
    if (failed)
        fputc('\n', f);
    fprintf(f, "  measured window %.2f s (warm-up and cool-down excluded): %.2f req/s\n",
            r->w1 - r->w0, llmm_bench_window_qps(r));
    fprintf(f, "  output tokens: %s (%llu of %llu successful requests sent usage)\n",
            usage == done ? "the server's usage"
            : usage == 0  ? "streamed chunk counts"
                          : "usage where sent, else chunk counts",
            (unsigned long long)usage, (unsigned long long)done);
    fprintf(f, "  %-22s %10s %10s %10s\n", "latency (ms)", "P50", "P90", "P99");
    quantiles(f, r, LLMM_BENCH_TTFT, "TTFT from send");
    quantiles(f, r, LLMM_BENCH_ITL, "ITL");
    quantiles(f, r, LLMM_BENCH_E2E, "E2E from send");
    if (r->level.open) {
        quantiles(f, r, LLMM_BENCH_TTFT_CO, "TTFT from intended");
        quantiles(f, r, LLMM_BENCH_E2E_CO, "E2E from intended");
    }
}
