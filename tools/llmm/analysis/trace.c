/* trace.c: the accumulator behind `llmm report` (trace.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/trace.h"
#include "common/events.h"

const double llmm_cli_q[LLMM_CLI_NQ] = {0.5, 0.9, 0.95, 0.99, 0.999, 0.9999};
const char *const llmm_cli_q_label[LLMM_CLI_NQ] = {"P50", "P90", "P95", "P99", "P99.9", "P99.99"};
const char *const llmm_cli_q_key[LLMM_CLI_NQ] = {"p50", "p90", "p95", "p99", "p99_9", "p99_99"};
const char *const llmm_cli_metric_label[LLMM_CLI_M_COUNT] = {"TTFT", "TPOT", "ITL", "E2E"};
const char *const llmm_cli_metric_key[LLMM_CLI_M_COUNT] = {"ttft_s", "tpot_s", "itl_s", "e2e_s"};

static int from_status(llmm_status st)
{
    return st == LLMM_OK ? LLMM_CLI_OK : st == LLMM_E_NOMEM ? LLMM_CLI_ENOMEM : LLMM_CLI_EPARSE;
}

int llmm_cli_trace_init(llmm_cli_trace *t, int exact, const double slo[3], int watch)
{
    memset(t, 0, sizeof *t);
    t->exact = exact;
    t->watch = watch;
    llmm_cli_timeline_init(&t->tl, 0);
    for (int i = 0; i < 3; i++) {
        t->slo[i] = slo ? slo[i] : NAN;
        if (!isnan(t->slo[i]))
            t->slo_set = 1;
    }
    t->run_min_start = INFINITY;
    t->run_max_end = -INFINITY;
    t->first_start = NAN;
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        if (llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &t->sk[m]) != LLMM_OK)
            return LLMM_CLI_ENOMEM;
    }
    if (llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &t->itl_input) != LLMM_OK)
        return LLMM_CLI_ENOMEM;
    if (t->slo_set) {
        static const llmm_goodput_option opt[3] = {LLMM_GOODPUT_TTFT_MAX, LLMM_GOODPUT_TPOT_MAX,
                                                   LLMM_GOODPUT_E2E_MAX};
        if (llmm_goodput_new(NULL, &t->goodput) != LLMM_OK)
            return LLMM_CLI_ENOMEM;
        for (int i = 0; i < 3; i++) {
            if (!isnan(t->slo[i]) && llmm_goodput_set_f64(t->goodput, opt[i], t->slo[i]) != LLMM_OK)
                return LLMM_CLI_EUSAGE;
        }
    }
    return LLMM_CLI_OK;
}

void llmm_cli_trace_free(llmm_cli_trace *t)
{
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        llmm_sketch_free(t->sk[m]);
        llmm_cli_vec_free(&t->ex[m]);
    }
    llmm_sketch_free(t->itl_input);
    llmm_goodput_free(t->goodput);
    llmm_cli_runs_free(&t->run_list);
    llmm_cli_timeline_free(&t->tl);
    free(t->pts);
    free(t->ev);
    memset(t, 0, sizeof *t);
}

static int add(llmm_cli_trace *t, int m, double v)
{
    int rc = from_status(llmm_sketch_add(t->sk[m], v));
    if (rc == LLMM_CLI_OK && t->exact)
        rc = llmm_cli_vec_push(&t->ex[m], v);
    return rc;
}

/* The watched metric of a request sent at start: known TTFT after it (TTFT), E2E after it
 * (TPOT, E2E). Nothing when the request has no value of it. */
static int push_point(llmm_cli_trace *t, double start, double ttft, double tpot, double e2e)
{
    double v = t->watch == LLMM_CLI_M_TTFT ? ttft : t->watch == LLMM_CLI_M_TPOT ? tpot : e2e;
    t->with_start++;
    if (t->keep_points) {
        if (llmm_cli_grow(&t->pts, &t->cappts, t->npts + 1, sizeof *t->pts, 1024) != LLMM_CLI_OK)
            return LLMM_CLI_ENOMEM;
        t->pts[t->npts].t = start;
        t->pts[t->npts++].e2e = e2e;
    }
    if (isnan(v))
        return LLMM_CLI_OK;
    return llmm_cli_timeline_add(&t->tl, start, t->watch == LLMM_CLI_M_TTFT ? ttft : e2e, v,
                                 &t->err);
}

/* Goodput as vLLM defines it, for a successful request with a TTFT (or, without one, when
 * no TTFT or TPOT limit is set). */
static int observe_goodput(llmm_cli_trace *t, const llmm_cli_record *r)
{
    double g_tpot = 0, ttft = r->ttft_s;
    llmm_status st = LLMM_OK;
    if (isnan(ttft)) {
        if (!isnan(t->slo[0]) || !isnan(t->slo[1])) {
            t->goodput_unjudged++;
            return LLMM_CLI_OK;
        }
        ttft = 0;
    } else {
        /* vLLM's per-request TPOT: 0 with at most one output token (also when the count is
         * unknown) */
        st = llmm_goodput_tpot(r->e2e_s, ttft,
                               r->output_tokens > 0 ? (uint64_t)r->output_tokens : 0, &g_tpot);
    }
    if (st == LLMM_OK)
        st = llmm_goodput_observe(t->goodput, ttft, g_tpot, r->e2e_s, NULL);
    return from_status(st);
}

static int on_record(void *user, const llmm_cli_record *r)
{
    llmm_cli_trace *t = user;
    double tpot = NAN;
    int rc;
    if (!isnan(r->start_s)) {
        double end = r->failed ? r->start_s : r->start_s + r->e2e_s;
        if (r->start_s < t->run_min_start)
            t->run_min_start = r->start_s;
        if (end > t->run_max_end)
            t->run_max_end = end;
    }
    if (r->failed) {
        t->failed++;
        return t->goodput ? from_status(llmm_goodput_add_failures(t->goodput, 1)) : LLMM_CLI_OK;
    }
    t->completed++;
    if (r->output_tokens >= 0)
        t->out_tokens += (uint64_t)r->output_tokens;
    else
        t->out_unknown++;
    if (r->input_tokens >= 0)
        t->in_tokens += (uint64_t)r->input_tokens;
    else
        t->in_unknown++;
    if ((rc = add(t, LLMM_CLI_M_E2E, r->e2e_s)) != LLMM_CLI_OK)
        return rc;
    if (!isnan(r->ttft_s)) {
        if ((rc = add(t, LLMM_CLI_M_TTFT, r->ttft_s)) != LLMM_CLI_OK)
            return rc;
        if (r->output_tokens > 1 && r->e2e_s == r->ttft_s) {
            t->one_response++; /* not streamed: no time between tokens was measured */
        } else if (r->output_tokens > 1) {
            tpot = (r->e2e_s - r->ttft_s) / (double)(r->output_tokens - 1);
            if ((rc = add(t, LLMM_CLI_M_TPOT, tpot)) != LLMM_CLI_OK)
                return rc;
        }
    }
    if (t->goodput && (rc = observe_goodput(t, r)) != LLMM_CLI_OK)
        return rc;
    if (!isnan(r->start_s))
        return push_point(t, r->start_s, r->ttft_s, tpot, r->e2e_s);
    return LLMM_CLI_OK;
}

int llmm_cli_trace_add_event(llmm_cli_trace *t, double t_s, int32_t type, double value)
{
    if (llmm_cli_grow(&t->ev, &t->capev, t->nev + 1, sizeof *t->ev, 16) != LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    t->ev[t->nev].t = t_s;
    t->ev[t->nev].type = type;
    t->ev[t->nev].value = value;
    t->nev++;
    return LLMM_CLI_OK;
}

static int cmp_event(const void *pa, const void *pb)
{
    const llmm_cli_event *a = pa, *b = pb;
    return (a->t > b->t) - (a->t < b->t);
}

int llmm_cli_trace_done(llmm_cli_trace *t, llmm_cli_error *err)
{
    if (t->nev > 1)
        qsort(t->ev, t->nev, sizeof *t->ev, cmp_event);
    return llmm_cli_timeline_finish(&t->tl, err);
}

const char *llmm_cli_trace_why_no_timeline(const llmm_cli_trace *t)
{
    if (t->tl.total)
        return NULL;
    return t->with_start ? "no request has this metric" : "the inputs carry no request start times";
}

static int on_event(void *user, double t_s, const char *name, double value)
{
    llmm_cli_trace *t = user;
    int32_t type = llmm_cli_event_type(name);
    if (type == 0)
        return LLMM_CLI_EPARSE;
    return llmm_cli_trace_add_event(t, t_s, type, value);
}

static int on_itl(void *user, double v)
{
    llmm_cli_trace *t = user;
    int rc = from_status(llmm_sketch_add(t->itl_input, v));
    if (rc == LLMM_CLI_OK && t->exact)
        rc = llmm_cli_vec_push(&t->ex[LLMM_CLI_M_ITL], v);
    return rc;
}

static int on_itl_reset(void *user)
{
    llmm_cli_trace *t = user;
    t->ex[LLMM_CLI_M_ITL].n = t->itl_exact_mark;
    return from_status(llmm_sketch_reset(t->itl_input));
}

/* The count a run states of a metric, or -1. */
static int64_t stated_count(const llmm_cli_run *run, int metric)
{
    double v = llmm_cli_figure_si(run->fig, run->nfig, metric, LLMM_CLI_ST_VALUE, NAN);
    return v >= 0 && v < 9e15 ? (int64_t)v : -1;
}

/* A run with statistics only: its requests are counted, its tokens and duration summed, from
 * its own fields; nothing goes into a sketch or onto the time line. */
static void stats_only_run(llmm_cli_trace *t, const llmm_cli_run *run)
{
    int64_t out = stated_count(run, LLMM_CLI_FM_OUT_TOKENS);
    int64_t in = stated_count(run, LLMM_CLI_FM_IN_TOKENS);
    if (out < 0)
        out = run->out_tokens;
    if (in < 0)
        in = run->in_tokens;
    uint64_t ok = run->completed > 0 ? (uint64_t)run->completed : 0;
    t->runs_stats_only++;
    if (run->completed < 0 || run->failed < 0)
        t->so_counts_unknown++;
    if (run->failed < 0)
        t->failed_unknown++;
    t->completed += ok;
    t->so_completed += ok;
    if (run->failed > 0) {
        t->failed += (uint64_t)run->failed;
        t->so_failed += (uint64_t)run->failed;
    }
    if (out >= 0)
        t->out_tokens += (uint64_t)out;
    else
        t->out_unknown += ok ? ok : 1;
    if (in >= 0)
        t->in_tokens += (uint64_t)in;
    else
        t->in_unknown += ok ? ok : 1;
    if (run->tokens_from)
        t->tokens_from = run->tokens_from;
    if (!isnan(run->duration_s)) {
        t->duration_sum += run->duration_s;
        t->runs_stated++;
        if (run->duration_from)
            t->duration_from = run->duration_from;
    } else {
        t->runs_unknown++;
        t->so_req_rate =
            llmm_cli_figure_si(run->fig, run->nfig, LLMM_CLI_FM_REQ_RATE, LLMM_CLI_ST_VALUE, NAN);
        t->so_tok_rate = llmm_cli_figure_si(run->fig, run->nfig, LLMM_CLI_FM_OUT_TOK_RATE,
                                            LLMM_CLI_ST_VALUE, NAN);
    }
}

/* A run whose records are a sample: the counts and tokens its records added are replaced by
 * the run's own (its records stay in the sketches, for percentiles). */
static void sampled_run(llmm_cli_trace *t, const llmm_cli_run *run)
{
    int64_t out = stated_count(run, LLMM_CLI_FM_OUT_TOKENS);
    int64_t in = stated_count(run, LLMM_CLI_FM_IN_TOKENS);
    uint64_t ok = (uint64_t)run->completed;
    t->runs_sampled++;
    t->sample_records += t->completed - t->mark_completed + t->failed - t->mark_failed;
    t->completed = t->mark_completed + ok;
    if (run->failed >= 0) {
        t->failed = t->mark_failed + (uint64_t)run->failed;
    } else {
        t->failed_unknown++;
        t->so_counts_unknown++;
    }
    t->out_tokens = t->mark_out + (out >= 0 ? (uint64_t)out : 0);
    t->out_unknown = t->mark_out_unknown + (out >= 0 ? 0 : ok);
    t->in_tokens = t->mark_in + (in >= 0 ? (uint64_t)in : 0);
    t->in_unknown = t->mark_in_unknown + (in >= 0 ? 0 : ok);
}

/* The counts as the next run begins. */
static void mark_counts(llmm_cli_trace *t)
{
    t->mark_completed = t->completed;
    t->mark_failed = t->failed;
    t->mark_out = t->out_tokens;
    t->mark_in = t->in_tokens;
    t->mark_out_unknown = t->out_unknown;
    t->mark_in_unknown = t->in_unknown;
}

static int on_run_end(void *user, const llmm_cli_run *run)
{
    llmm_cli_trace *t = user;
    double span = NAN, advance = 0, offset, duration_s = run->duration_s;
    if (llmm_cli_runs_add(&t->run_list, t->input, t->input_runs++, run) != LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    if (run->stats_only) { /* no samples: nothing to time or to place */
        stats_only_run(t, run);
        mark_counts(t);
        return LLMM_CLI_OK;
    }
    if (run->sampled && run->completed >= 0)
        sampled_run(t, run);
    mark_counts(t);
    t->runs++;
    if (isfinite(t->run_min_start))
        span = t->run_max_end - t->run_min_start;
    if (!isnan(duration_s)) {
        t->duration_sum += duration_s;
        t->runs_stated++;
        if (run->duration_from) { /* computed by the reader, as its tool does */
            t->duration_from = run->duration_from;
            t->runs_duration_from++;
        }
    } else if (!isnan(span)) {
        t->duration_sum += span;
        t->runs_spanned++;
    } else {
        t->runs_unknown++;
    }
    if (t->runs == 1 && isfinite(t->run_min_start))
        t->first_start = t->run_min_start;
    /* this run's points move onto the shared time line */
    offset = isfinite(t->run_min_start) ? t->timeline_end - t->run_min_start : 0;
    if (llmm_cli_timeline_run_end(&t->tl, offset, &t->err) != LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    for (size_t i = t->run_first_pt; i < t->npts; i++)
        t->pts[i].t += offset;
    t->run_first_pt = t->npts;
    if (isfinite(t->run_min_start)) {
        for (size_t i = t->run_first_ev; i < t->nev; i++)
            t->ev[i].t += offset;
    } else { /* no start times: the run's events cannot be placed */
        t->events_dropped += t->nev - t->run_first_ev;
        t->nev = t->run_first_ev;
    }
    t->run_first_ev = t->nev;
    if (!isnan(span))
        advance = span;
    if (!isnan(duration_s) && duration_s > advance)
        advance = duration_s;
    t->timeline_end += advance;
    t->run_min_start = INFINITY;
    t->run_max_end = -INFINITY;
    return LLMM_CLI_OK;
}

static void on_note(void *user, const char *msg)
{
    llmm_cli_trace *t = user;
    t->notes++;
    fprintf(stderr, "llmm: note: %s\n", msg);
}

/* A failure's kind: counted in the table, past its size with the others. */
static int on_failure(void *user, const char *kind, size_t len)
{
    llmm_cli_failure_kinds *k = &((llmm_cli_trace *)user)->kinds;
    size_t i = 0;
    if (len >= LLMM_CLI_FAILURE_KIND_MAX)
        len = LLMM_CLI_FAILURE_KIND_MAX - 1;
    while (i < k->nkinds && !(strlen(k->name[i]) == len && memcmp(k->name[i], kind, len) == 0))
        i++;
    if (i == k->nkinds && i == LLMM_CLI_FAILURE_KINDS) {
        k->other++;
        return LLMM_CLI_OK;
    }
    if (i == k->nkinds) {
        memcpy(k->name[i], kind, len);
        k->name[i][len] = '\0';
        k->nkinds++;
    }
    k->n[i]++;
    return LLMM_CLI_OK;
}

void llmm_cli_trace_sink(llmm_cli_trace *t, llmm_cli_sink *sink)
{
    const llmm_cli_sink s = {t,          on_record, on_itl,   on_itl_reset,
                             on_run_end, on_note,   on_event, on_failure};
    *sink = s;
}

void llmm_cli_trace_input_begin(llmm_cli_trace *t, size_t input)
{
    t->input = input;
    t->input_runs = 0;
    t->itl_exact_mark = t->ex[LLMM_CLI_M_ITL].n;
    llmm_sketch_reset(t->itl_input);
}

int llmm_cli_trace_input_end(llmm_cli_trace *t)
{
    int rc = LLMM_CLI_OK;
    if (llmm_sketch_count(t->itl_input) > 0)
        rc = from_status(llmm_sketch_merge(t->sk[LLMM_CLI_M_ITL], t->itl_input));
    llmm_sketch_reset(t->itl_input);
    return rc;
}
