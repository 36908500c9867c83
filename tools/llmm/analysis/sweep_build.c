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

/* A row of a run, before the sweep's columns are chosen. */
typedef struct prow {
    double conc; /* stated, else the mean in flight (Little); NaN: neither */
    int conc_stated;
    double rate; /* the offered request rate the run states, NaN: none */
    double qps;
    double p99[LLMM_CLI_M_COUNT]; /* ms: ours (nearest rank), or the tool's own as written */
    int stats_only;
} prow;

/* A run left out of the sweep: its file (one of files[]), its number, why. */
typedef struct left_out {
    const char *path;
    uint64_t run;
    const char *why;
} left_out;

typedef struct collect {
    const llmm_cli_sweep_opts *o;
    prow *rows;
    size_t n, cap;
    size_t runs, stats_only;
    size_t sampled; /* runs that list a sample of their requests: the tool's own P99 */
    /* every successful request with a send time, the runs laid end to end */
    double *start, *end;
    size_t npts, cap_start, cap_end;
    double offset;
    const char *first_path;
    /* the runs left out, named: "a.json (statistics only, no request rate or count and
     * duration); ..." */
    left_out *skipped;
    size_t nskipped, capskipped;
} collect;

static void skip(collect *c, const llmm_cli_run_src *src, const char *why)
{
    if (llmm_cli_grow(&c->skipped, &c->capskipped, c->nskipped + 1, sizeof *c->skipped, 16) !=
        LLMM_CLI_OK)
        return; /* out of memory: the refusal names fewer runs */
    c->skipped[c->nskipped].path = src->path;
    c->skipped[c->nskipped].run = src->index + 1;
    c->skipped[c->nskipped++].why = why;
}

/* The tool's own P99 of metric m in a run of statistics only, in ms (its own value when it
 * writes milliseconds), or NaN. */
static double stated_p99_ms(const llmm_cli_run *run, int m)
{
    const llmm_cli_figure *f =
        llmm_cli_figure_find(run->fig, run->nfig, m, LLMM_CLI_ST_QUANTILE, 0.99);
    return !f ? NAN : strcmp(f->unit, "ms") == 0 ? f->value : 1e3 * f->si;
}

/* One run: a row, and its requests for the series. */
static int on_run(void *user, const llmm_cli_run_src *src, const llmm_cli_run *run,
                  const llmm_cli_trace *t, const llmm_cli_summary *s, llmm_cli_error *err)
{
    collect *c = user;
    double span = 0, mean_e2e;
    prow *r;
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
    if (llmm_cli_grow(&c->rows, &c->cap, c->n + 1, sizeof *c->rows, 16) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    r = &c->rows[c->n];
    r->stats_only = run->stats_only;
    r->qps = s->req_per_s;
    if (run->stats_only && !(r->qps >= 0)) /* genai-perf: its request_throughput */
        r->qps =
            llmm_cli_figure_si(run->fig, run->nfig, LLMM_CLI_FM_REQ_RATE, LLMM_CLI_ST_VALUE, NAN);
    if (!(r->qps >= 0)) {
        skip(c, src,
             run->stats_only ? "statistics only, without a request throughput or a "
                               "completed count and duration"
                             : "no duration");
        return LLMM_CLI_OK;
    }
    if (!run->stats_only && s->completed == 0) {
        skip(c, src, "no completed request");
        return LLMM_CLI_OK;
    }
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        const llmm_sketch *sk = t->sk[m];
        r->p99[m] = NAN;
        if (run->stats_only || run->sampled) /* a sample's P99 is not the run's */
            r->p99[m] = stated_p99_ms(run, m);
        if (run->stats_only || !isnan(r->p99[m]))
            continue;
        if (llmm_sketch_count(sk) > 0 && llmm_sketch_quantile(sk, 0.99, &r->p99[m]) == LLMM_OK)
            r->p99[m] *= 1e3;
        else
            r->p99[m] = NAN;
    }
    r->rate = isfinite(run->request_rate) && run->request_rate > 0 ? run->request_rate : NAN;
    r->conc_stated = isfinite(run->concurrency) && run->concurrency > 0;
    if (r->conc_stated) {
        r->conc = run->concurrency;
    } else { /* Little's law: mean in flight = mean E2E x completions per second */
        mean_e2e = run->stats_only ? llmm_cli_figure_si(run->fig, run->nfig, LLMM_CLI_FM_E2E,
                                                        LLMM_CLI_ST_MEAN, NAN)
                                   : s->m[LLMM_CLI_M_E2E].mean;
        r->conc = mean_e2e * r->qps;
    }
    if (!(r->conc > 0) && isnan(r->rate)) {
        skip(c, src, "no concurrency, request rate or mean E2E stated");
        return LLMM_CLI_OK;
    }
    c->stats_only += run->stats_only;
    c->sampled += run->sampled && !run->stats_only;
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
                             "times (vLLM's start_times, genai-perf, GuideLLM, CSV start_s); "
                             "give the result files of every level of a sweep, or a "
                             "concurrency,qps[,p99_ms] table (llmm knee SWEEP.csv)",
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

/* The P99 column: --latency when every row has it; else, unless --latency was given, the
 * first of E2E, TTFT, TPOT, ITL that every row has (vLLM writes no E2E statistics by
 * default); -1: none. */
static int p99_column(const collect *c)
{
    static const int order[] = {LLMM_CLI_M_E2E, LLMM_CLI_M_TTFT, LLMM_CLI_M_TPOT, LLMM_CLI_M_ITL};
    for (size_t k = 0; k < 4; k++) {
        int m = k == 0 ? c->o->latency : order[k];
        int all = 1;
        if (k > 0 && (c->o->latency_given || m == c->o->latency))
            continue;
        for (size_t i = 0; i < c->n; i++)
            all &= !isnan(c->rows[i].p99[m]);
        if (all)
            return m;
    }
    return -1;
}

/* The x column: the concurrency when every row has one (stated or measured), else the
 * request rate when every row states one; 0 concurrency, 1 rate, -1 neither. */
static int x_column(const collect *c)
{
    int conc = 1, rate = 1;
    for (size_t i = 0; i < c->n; i++) {
        conc &= c->rows[i].conc > 0;
        rate &= !isnan(c->rows[i].rate);
    }
    return conc ? 0 : rate ? 1 : -1;
}

/* Why no sweep: every file named in full, and every run left out. In the message when all
 * of it fits, else listed on stderr first (the message says so). */
static int refuse(const collect *c, char **files, size_t nfiles, const char *what,
                  llmm_cli_error *err)
{
    char names[LLMM_CLI_ERR_MAX], left[LLMM_CLI_ERR_MAX];
    size_t n = 0, l = 0;
    int fits = 1;
    for (size_t i = 0; i < nfiles && fits; i++) {
        int k = snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", files[i]);
        fits = k >= 0 && (size_t)k < sizeof names - n;
        n += fits ? (size_t)k : 0;
    }
    left[0] = '\0';
    for (size_t i = 0; i < c->nskipped && fits; i++) {
        int k =
            snprintf(left + l, sizeof left - l, "%s%s run %llu (%s)", i ? "; " : "",
                     c->skipped[i].path, (unsigned long long)c->skipped[i].run, c->skipped[i].why);
        fits = k >= 0 && (size_t)k < sizeof left - l;
        l += fits ? (size_t)k : 0;
    }
    fits = fits && n + l + strlen(what) + 200 < LLMM_CLI_ERR_MAX;
    if (!fits) { /* too long for one message: never a name cut short */
        for (size_t i = 0; i < nfiles; i++)
            fprintf(stderr, "llmm knee: input %zu of %zu: %s\n", i + 1, nfiles, files[i]);
        for (size_t i = 0; i < c->nskipped; i++)
            fprintf(stderr, "llmm knee: left out: %s run %llu (%s)\n", c->skipped[i].path,
                    (unsigned long long)c->skipped[i].run, c->skipped[i].why);
        snprintf(names, sizeof names, "the %zu input%s listed above", nfiles,
                 nfiles == 1 ? "" : "s");
        snprintf(left, sizeof left, "the %zu run%s listed above", c->nskipped,
                 c->nskipped == 1 ? "" : "s");
    }
    return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                         "%s: %s; %zu usable run%s of %zu%s%s. A sweep needs at least 3 "
                         "levels; a concurrency,qps[,p99_ms] table works as well (llmm knee "
                         "SWEEP.csv)",
                         names, what, c->n, c->n == 1 ? "" : "s", c->runs,
                         c->nskipped ? ", left out: " : "", c->nskipped ? left : "");
}

/* The sweep's rows from the runs; source says how. */
static int rows_sweep(collect *c, char **files, size_t nfiles, llmm_cli_sweep *s,
                      llmm_cli_error *err)
{
    int m = p99_column(c), x = x_column(c), rc;
    size_t stated = 0;
    char source[sizeof s->source], lat[160];
    llmm_cli_sweep_row *rows;
    if (c->n < 3)
        return refuse(c, files, nfiles, "fewer than 3 runs with a throughput", err);
    if (x < 0)
        return refuse(c, files, nfiles, "some runs state neither a concurrency nor a request rate",
                      err);
    rows = malloc(c->n * sizeof *rows);
    if (!rows)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t i = 0; i < c->n; i++) {
        rows[i].conc = x == 0 ? c->rows[i].conc : c->rows[i].rate;
        rows[i].qps = c->rows[i].qps;
        rows[i].p99 = m >= 0 ? c->rows[i].p99[m] : NAN;
        stated += c->rows[i].conc_stated;
    }
    if (m < 0)
        snprintf(lat, sizeof lat, "no P99 column (not every run has a P99 of %s%s)",
                 llmm_cli_metric_label[c->o->latency],
                 c->o->latency_given ? "" : " or of another latency");
    else
        snprintf(lat, sizeof lat, "P99 of %s (%s)%s%s", llmm_cli_metric_label[m],
                 c->stats_only + c->sampled == c->n ? "each tool's own p99, its rule"
                 : c->stats_only + c->sampled       ? "nearest rank; the tool's own p99 for runs "
                                                      "with statistics only or a sample of requests"
                                                    : "nearest rank",
                 m != c->o->latency ? ": the runs state no P99 of " : "",
                 m != c->o->latency ? llmm_cli_metric_label[c->o->latency] : "");
    snprintf(source, sizeof source,
             "%zu runs of %zu file%s%s: %s, QPS = completed requests / the run's duration%s, %s",
             c->n, nfiles, nfiles == 1 ? "" : "s",
             c->nskipped ? " (runs without a throughput left out)" : "",
             x == 1           ? "N = the request rate each run states (req/s; no concurrency)"
             : stated == c->n ? "concurrency as each run states it"
             : stated == 0    ? "concurrency measured: mean requests in flight = mean E2E x QPS"
                              : "concurrency as stated, else the measured mean in flight",
             c->stats_only ? " (or the tool's request throughput)" : "", lat);
    rc = llmm_cli_sweep_from_rows(rows, c->n, m >= 0, "the runs", s, err);
    if (rc == LLMM_CLI_OK) {
        memcpy(s->source, source, sizeof source);
    } else if (rc == LLMM_CLI_EPARSE && strncmp(err->msg, "the runs: ", 10) == 0) {
        char what[256]; /* too few levels: refused naming every file */
        snprintf(what, sizeof what, "%s", err->msg + 10);
        rc = refuse(c, files, nfiles, what, err);
    }
    free(rows);
    return rc;
}

int llmm_cli_sweep_build(char **files, size_t nfiles, const llmm_cli_sweep_opts *o,
                         llmm_cli_sweep *s, llmm_cli_error *err)
{
    collect c;
    int rc;
    memset(&c, 0, sizeof c);
    memset(s, 0, sizeof *s);
    c.o = o;
    rc = llmm_cli_per_run(files, nfiles, o->fmt, NULL, on_run, &c, NULL, err);
    if (rc == LLMM_CLI_OK && (o->series || (c.runs == 1 && c.stats_only == 0)))
        rc = series(&c, s, err);
    else if (rc == LLMM_CLI_OK)
        rc = rows_sweep(&c, files, nfiles, s, err);
    free(c.rows);
    free(c.skipped);
    free(c.start);
    free(c.end);
    return rc;
}
