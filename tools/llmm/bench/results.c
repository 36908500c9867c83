/* results.c: a level's files and summary (results.h). */
#include "bench/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bpf.h"
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
    llmm_bench_kevents_free(r->kev);
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

static int ok(const llmm_bench_rec *x)
{
    return x->reason == LLMM_BENCH_OK;
}

void llmm_bench_count(const llmm_bench_result *r, int phase, llmm_bench_counts *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        if (x->phase != phase)
            continue;
        c->sent++;
        c->failed[x->reason]++;
        if (ok(x)) {
            c->done++;
            c->in += (uint64_t)x->in_tokens;
            c->out += (uint64_t)x->out_tokens;
        }
    }
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

const char *llmm_bench_num(char *buf, size_t cap, const char *fmt, double v)
{
    if (!isfinite(v))
        return "\xe2\x80\x93"; /* an en dash */
    snprintf(buf, cap, fmt, v);
    return buf;
}

/* s right-aligned in width columns (an en dash is one column of three bytes). */
static void cell(FILE *f, const char *s, int width)
{
    int cols = strcmp(s, "\xe2\x80\x93") == 0 ? 1 : (int)strlen(s);
    fprintf(f, " %*s%s", width > cols ? width - cols : 0, "", s);
}

/* Mean, P50, P90, P99 of sketch k in ms, and its count. */
static void quantiles(FILE *f, const llmm_bench_result *r, int k, const char *label)
{
    llmm_sketch *s = llmm_bench_result_sketch(r, k);
    double q[4] = {NAN, NAN, NAN, NAN};
    static const double at[3] = {0.5, 0.9, 0.99};
    char b[32];
    if (s && llmm_sketch_count(s) > 0) {
        llmm_sketch_mean(s, &q[0]);
        for (int i = 0; i < 3; i++)
            llmm_sketch_quantile(s, at[i], &q[i + 1]);
    }
    fprintf(f, "  %-22s", label);
    for (int i = 0; i < 4; i++)
        cell(f, llmm_bench_num(b, sizeof b, "%.2f", q[i] * 1e3), 10);
    fprintf(f, "  (%llu values)\n", s ? (unsigned long long)llmm_sketch_count(s) : 0ull);
    llmm_sketch_free(s);
}

/* "reason N, reason N" of c's failures. */
static void reasons(FILE *f, const llmm_bench_counts *c)
{
    int first = 1;
    for (int k = 1; k < LLMM_BENCH_NREASONS; k++)
        if (c->failed[k]) {
            fprintf(f, "%s%s %llu", first ? ": " : ", ", llmm_bench_reason_name(k),
                    (unsigned long long)c->failed[k]);
            first = 0;
        }
}

/* The window's failures grouped by reason, status and message: a line each, the most
 * frequent first (at most GROUPS; the rest counted). */
#define GROUPS 6
static void failure_lines(FILE *f, const llmm_bench_result *r)
{
    const llmm_bench_rec *g[GROUPS];
    uint64_t n[GROUPS], rest = 0;
    size_t ng = 0;
    for (size_t i = 0; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        size_t j = 0;
        if (x->phase != LLMM_BENCH_WINDOW || ok(x))
            continue;
        while (j < ng && !(g[j]->reason == x->reason && g[j]->http_status == x->http_status &&
                           strcmp(g[j]->msg ? g[j]->msg : "", x->msg ? x->msg : "") == 0))
            j++;
        if (j < ng)
            n[j]++;
        else if (ng < GROUPS)
            g[ng] = x, n[ng++] = 1;
        else
            rest++;
    }
    for (size_t j = 0; j < ng; j++) {
        char st[16] = "";
        if (g[j]->reason == LLMM_BENCH_HTTP)
            snprintf(st, sizeof st, " %d", g[j]->http_status);
        fprintf(f, "    %llu x %s%s", (unsigned long long)n[j],
                llmm_bench_reason_name(g[j]->reason), st);
        if (g[j]->msg) { /* control bytes shown as spaces: one line each */
            fputs(": ", f);
            for (const char *c = g[j]->msg; *c; c++)
                fputc((unsigned char)*c < 0x20 || *c == 0x7f ? ' ' : *c, f);
        }
        fputc('\n', f);
    }
    if (rest)
        fprintf(f, "    %llu more of other kinds (the result file keeps each)\n",
                (unsigned long long)rest);
}

/* Asked and served prompt lengths, where they can differ (token-ID prompts with usage). */
static void prompt_lengths(FILE *f, const llmm_bench_result *r)
{
    uint64_t n = 0, fewer = 0, more = 0;
    double asked = 0, served = 0;
    for (size_t i = 0; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        if (x->phase != LLMM_BENCH_WINDOW || !ok(x) || !x->asked_exact || x->served_in < 0)
            continue;
        n++;
        fewer += x->served_in < x->asked_in;
        more += x->served_in > x->asked_in;
        asked += (double)x->asked_in;
        served += (double)x->served_in;
    }
    if (fewer || more)
        fprintf(f,
                "  prompt tokens: the server served fewer than asked for %llu and more for %llu "
                "of %llu requests (means: asked %.1f, served %.1f; input_lens holds the asked, "
                "llmm.requests.served_input_lens the served)\n",
                (unsigned long long)fewer, (unsigned long long)more, (unsigned long long)n,
                asked / (double)n, served / (double)n);
}

void llmm_bench_print_level(FILE *f, const llmm_bench_result *r)
{
    char name[64], b1[32], b2[32];
    llmm_bench_counts c[LLMM_BENCH_NPHASES];
    uint64_t usage = 0;
    double dur = r->w1 - r->w0;
    for (int ph = 0; ph < LLMM_BENCH_NPHASES; ph++)
        llmm_bench_count(r, ph, &c[ph]);
    for (size_t i = 0; i < r->n; i++)
        usage += r->rec[i].phase == LLMM_BENCH_WINDOW && ok(&r->rec[i]) && r->rec[i].usage;
    llmm_bench_level_name(&r->level, name, sizeof name);
    fprintf(f,
            "level %s: %zu sent%s (%llu warm-up, %llu in the measured window, %llu cool-down); "
            "max in flight %u; %llu connections opened; %llu re-sent\n",
            name, r->n, r->interrupted ? ", interrupted" : "",
            (unsigned long long)c[LLMM_BENCH_WARMUP].sent,
            (unsigned long long)c[LLMM_BENCH_WINDOW].sent,
            (unsigned long long)c[LLMM_BENCH_COOLDOWN].sent, r->max_in_flight,
            (unsigned long long)r->connects, (unsigned long long)r->resends);
    fprintf(f, "  window: %llu requests, %llu succeeded, %llu failed",
            (unsigned long long)c[LLMM_BENCH_WINDOW].sent,
            (unsigned long long)c[LLMM_BENCH_WINDOW].done,
            (unsigned long long)(c[LLMM_BENCH_WINDOW].sent - c[LLMM_BENCH_WINDOW].done));
    reasons(f, &c[LLMM_BENCH_WINDOW]);
    fputc('\n', f);
    failure_lines(f, r);
    c[0].sent += c[2].sent;
    c[0].done += c[2].done;
    for (int k = 0; k < LLMM_BENCH_NREASONS; k++)
        c[0].failed[k] += c[2].failed[k];
    fprintf(f, "  outside the window (in no figure below): %llu requests, %llu failed",
            (unsigned long long)c[0].sent, (unsigned long long)(c[0].sent - c[0].done));
    reasons(f, &c[0]);
    fputc('\n', f);
    fprintf(f,
            "  measured window %s s: %s req/s completed / duration (vLLM's "
            "request_throughput), %s req/s %s\n",
            llmm_bench_num(b1, sizeof b1, "%.2f", dur),
            llmm_bench_num(b2, sizeof b2, "%.2f",
                           dur > 0 ? (double)c[LLMM_BENCH_WINDOW].done / dur : NAN),
            llmm_bench_num(name, sizeof name, "%.2f", llmm_bench_window_qps(r)),
            r->level.open ? "ended in the window" : "by Little's law");
    prompt_lengths(f, r);
    fprintf(f, "  output tokens: %s (%llu of %llu successful requests sent usage)\n",
            usage == c[LLMM_BENCH_WINDOW].done ? "the server's usage"
            : usage == 0                       ? "streamed chunk counts"
                                               : "usage where sent, else chunk counts",
            (unsigned long long)usage, (unsigned long long)c[LLMM_BENCH_WINDOW].done);
    fprintf(f, "  %-22s %10s %10s %10s %10s\n", "latency (ms)", "mean", "P50", "P90", "P99");
    quantiles(f, r, LLMM_BENCH_TTFT, "TTFT from send");
    quantiles(f, r, LLMM_BENCH_ITL, "ITL");
    quantiles(f, r, LLMM_BENCH_E2E, "E2E from send");
    if (r->level.open) {
        quantiles(f, r, LLMM_BENCH_TTFT_CO, "TTFT from intended");
        quantiles(f, r, LLMM_BENCH_E2E_CO, "E2E from intended");
    }
    llmm_bench_kev_print(f, r); /* --bpf */
}
