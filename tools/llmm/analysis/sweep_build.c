/* sweep_build.c: a load sweep from result files (sweep_build.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perrun.h"
#include "analysis/sweep_build.h"
#include "common/array.h"
#include "common/numbers.h"

void llmm_cli_sweep_opts_init(llmm_cli_sweep_opts *o)
{
    memset(o, 0, sizeof *o);
    o->latency = LLMM_CLI_M_E2E;
    o->step_s = 0.05;
    o->window_s = 1.0;
    o->trim = 0.1;
}

typedef struct collect {
    const llmm_cli_sweep_opts *o;
    llmm_cli_sweep_row *rows;
    size_t n, cap;
    size_t runs, stated, skipped;
    /* every successful request with a send time, the runs laid end to end */
    double *start, *end;
    size_t npts, cap_start, cap_end;
    double offset;
    const char *first_path;
} collect;

/* One run: a row, and its requests for the series. */
static int on_run(void *user, const llmm_cli_run_src *src, const llmm_cli_run *run,
                  const llmm_cli_trace *t, const llmm_cli_summary *s, llmm_cli_error *err)
{
    collect *c = user;
    double span = 0, p99 = NAN;
    const llmm_sketch *sk = t->sk[c->o->latency];
    c->runs++;
    if (!c->first_path)
        c->first_path = src->path;
    for (size_t i = 0; i < t->npts; i++) {
        double a = t->pts[i].t + c->offset, b = a + t->pts[i].e2e;
        if (llmm_cli_grow(&c->start, &c->cap_start, c->npts + 1, sizeof *c->start, 1024) !=
                LLMM_CLI_OK ||
            llmm_cli_grow(&c->end, &c->cap_end, c->npts + 1, sizeof *c->end, 1024) != LLMM_CLI_OK)
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        c->start[c->npts] = a;
        c->end[c->npts++] = b;
        span = b - c->offset > span ? b - c->offset : span;
    }
    c->offset += span;
    if (run->stats_only || !(s->req_per_s >= 0) || s->completed == 0) {
        c->skipped++; /* no samples, or no duration: no point of the sweep */
        return LLMM_CLI_OK;
    }
    if (llmm_sketch_count(sk) > 0 && llmm_sketch_quantile(sk, 0.99, &p99) != LLMM_OK)
        p99 = NAN;
    if (llmm_cli_grow(&c->rows, &c->cap, c->n + 1, sizeof *c->rows, 16) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    c->rows[c->n].qps = s->req_per_s;
    c->rows[c->n].p99 = 1e3 * p99;
    if (isfinite(run->concurrency) && run->concurrency > 0) {
        c->rows[c->n].conc = run->concurrency;
        c->stated++;
    } else { /* Little's law: mean in flight = sum of latencies / duration */
        c->rows[c->n].conc = s->m[LLMM_CLI_M_E2E].mean * (double)s->completed / s->duration_s;
    }
    c->n++;
    return LLMM_CLI_OK;
}

/* Requests in flight and completions per second every step, from the sorted send and end
 * times; the middle share kept, samples with nothing in flight left out. */
static int series(collect *c, llmm_cli_sweep *s, llmm_cli_error *err)
{
    const llmm_cli_sweep_opts *o = c->o;
    double t0, t1;
    size_t ns, lo, hi, kept = 0, is = 0, ie = 0, iw = 0;
    llmm_cli_sweep_row *rows;
    int rc;
    if (c->npts < 2)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s: no send times: an in-run series needs requests with start "
                             "times (vLLM's start_times, genai-perf, GuideLLM, CSV start_s)",
                             c->first_path);
    llmm_cli_sort(c->start, c->npts);
    llmm_cli_sort(c->end, c->npts);
    t0 = c->start[0] + o->window_s; /* the first full window */
    t1 = c->end[c->npts - 1];
    ns = t1 > t0 ? (size_t)floor((t1 - t0) / o->step_s) + 1 : 0;
    lo = (size_t)floor(o->trim * (double)ns);
    hi = ns - lo;
    rows = malloc((hi > lo ? hi - lo : 1) * sizeof *rows);
    if (!rows)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t k = lo; k < hi; k++) {
        double t = t0 + (double)k * o->step_s;
        while (is < c->npts && c->start[is] <= t)
            is++;
        while (ie < c->npts && c->end[ie] <= t)
            ie++;
        while (iw < c->npts && c->end[iw] <= t - o->window_s)
            iw++;
        if (is > ie) {
            rows[kept].conc = (double)(is - ie);
            rows[kept].qps = (double)(ie - iw) / o->window_s;
            rows[kept].p99 = NAN;
            kept++;
        }
    }
    snprintf(s->source, sizeof s->source,
             "in-run series of %zu requests: every %g s the requests in flight and the "
             "completions per second over the last %g s, %zu samples, the first and last %g %% "
             "dropped, %zu kept (those with requests in flight)",
             c->npts, o->step_s, o->window_s, ns, 100.0 * o->trim, kept);
    rc = llmm_cli_sweep_from_rows(rows, kept, 0, c->first_path, s, err);
    free(rows);
    return rc;
}

int llmm_cli_sweep_build(char **files, size_t nfiles, const llmm_cli_sweep_opts *o,
                         llmm_cli_sweep *s, llmm_cli_error *err)
{
    collect c;
    int rc;
    char source[sizeof s->source];
    memset(&c, 0, sizeof c);
    memset(s, 0, sizeof *s);
    c.o = o;
    rc = llmm_cli_per_run(files, nfiles, o->fmt, NULL, on_run, &c, NULL, err);
    if (rc == LLMM_CLI_OK && (o->series || c.runs == 1)) {
        rc = series(&c, s, err);
    } else if (rc == LLMM_CLI_OK && c.n < 3 && c.skipped) {
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE,
                           "%s: %zu run%s with samples and a duration, %zu left out (statistics "
                           "only, or no duration); a sweep needs at least 3 concurrency levels",
                           files[0], c.n, c.n == 1 ? "" : "s", c.skipped);
    } else if (rc == LLMM_CLI_OK) {
        int has_p99 = 1;
        for (size_t i = 0; i < c.n; i++)
            has_p99 &= !isnan(c.rows[i].p99);
        snprintf(source, sizeof source,
                 "%zu runs of %zu file%s%s: concurrency %s, QPS = completed requests / the run's "
                 "duration, P99 of %s (nearest rank)",
                 c.n, nfiles, nfiles == 1 ? "" : "s",
                 c.skipped ? " (runs without samples or a duration left out)" : "",
                 c.stated == c.n ? "as each run states it"
                 : c.stated == 0 ? "measured: mean requests in flight = sum of E2E / duration"
                                 : "as stated, else the measured mean in flight",
                 llmm_cli_metric_label[o->latency]);
        rc = llmm_cli_sweep_from_rows(c.rows, c.n, has_p99, files[0], s, err);
        if (rc == LLMM_CLI_OK)
            memcpy(s->source, source, sizeof source);
    }
    free(c.rows);
    free(c.start);
    free(c.end);
    return rc;
}
