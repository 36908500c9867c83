/* trace.h: the accumulator the report feeds every input into (trace.c), and the numbers it
 * derives (summary.c).
 *
 * Per successful request it records TTFT, E2E and TPOT into llmm sketches (and into plain
 * arrays with --exact), every ITL into a sketch, the counts and token totals, and, for
 * requests with a send time, the watched metric on the time line of the time-ordered sections
 * (spikes, collapses; timeline.h: 24 bytes a request, spilled to a scratch file past a bound).
 * Several runs (files, or vLLM documents of one file) are laid end to end on one time line,
 * each starting where the previous one ended.
 */
#ifndef LLMM_CLI_TRACE_H
#define LLMM_CLI_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include <llmmetrics/llmmetrics.h>

#include "analysis/runs.h"
#include "analysis/timeline.h"
#include "common/array.h"
#include "input/record.h"

enum { LLMM_CLI_M_TTFT = 0, LLMM_CLI_M_TPOT, LLMM_CLI_M_ITL, LLMM_CLI_M_E2E, LLMM_CLI_M_COUNT };

/* Quantiles every metric reports: P50, P90, P95, P99, P99.9, P99.99. */
#define LLMM_CLI_NQ 6
extern const double llmm_cli_q[LLMM_CLI_NQ];
extern const char *const llmm_cli_q_label[LLMM_CLI_NQ]; /* "P99.9" */
extern const char *const llmm_cli_q_key[LLMM_CLI_NQ];   /* "p99_9" */
extern const char *const llmm_cli_metric_label[LLMM_CLI_M_COUNT]; /* "TTFT" */
extern const char *const llmm_cli_metric_key[LLMM_CLI_M_COUNT];   /* "ttft_s" */

/* A successful request of the run being read (llmm knee's in-run series). */
typedef struct llmm_cli_point {
    double t;   /* send time on the merged time line */
    double e2e; /* end-to-end latency */
} llmm_cli_point;

/* An event on the merged time line. */
typedef struct llmm_cli_event {
    double t;
    int32_t type; /* llmm_event_type */
    double value;
} llmm_cli_event;

typedef struct llmm_cli_trace {
    int exact;
    llmm_sketch *sk[LLMM_CLI_M_COUNT];
    llmm_cli_vec ex[LLMM_CLI_M_COUNT]; /* every value, with exact */
    llmm_sketch *itl_input;            /* ITLs of the input being read */
    size_t itl_exact_mark;
    uint64_t completed, failed;
    /* successes whose every token came in one response (E2E = TTFT, more than one token: not
     * streamed): no TPOT for them */
    uint64_t one_response;
    uint64_t runs_duration_from;  /* runs whose duration follows from their records or figures */
    llmm_cli_failure_kinds kinds; /* the failures whose input named their kind */
    uint64_t out_tokens, in_tokens, out_unknown, in_unknown;
    /* goodput as vLLM defines it (llmm_goodput): thresholds in seconds, NaN = not set */
    double slo[3]; /* ttft, tpot, e2e */
    int slo_set;
    llmm_goodput *goodput;
    uint64_t goodput_unjudged; /* successes without a TTFT under a TTFT or TPOT limit */
    /* runs */
    uint64_t runs, runs_stated, runs_spanned, runs_unknown, runs_stats_only;
    /* what the runs that hold statistics only state (their requests are in completed and
     * failed above, never in a sketch): their counts, and how many state no count of
     * completed or failed requests */
    uint64_t so_completed, so_failed, so_counts_unknown;
    uint64_t failed_unknown; /* runs that state no count of failed requests */
    /* runs whose records are a sample (llmm_cli_run.sampled): their counts and tokens are the
     * run's own, the records listed (sample_records) give percentiles only; mark_*: the
     * counts as the current run began */
    uint64_t runs_sampled, sample_records;
    uint64_t mark_completed, mark_failed, mark_out, mark_in, mark_out_unknown, mark_in_unknown;
    /* the one statistics-only run without a duration: its own rates (NaN: unstated) */
    double so_req_rate, so_tok_rate;
    const char *tokens_from;   /* a run's token totals follow from its figures: how (static) */
    const char *duration_from; /* a run's duration follows from its figures: how (static) */
    llmm_cli_runs run_list; /* what each run stated (its figures) */
    size_t input;           /* index of the input being read */
    uint64_t input_runs;    /* runs of that input so far */
    double duration_sum;
    double timeline_end;
    double first_start; /* the first run's earliest send time, on its clock; NaN if none */
    double run_min_start, run_max_end;
    /* time line: the watched metric (LLMM_CLI_M_TTFT, _TPOT or _E2E) of every successful
     * request with a send time (with_start of them) */
    int watch;
    llmm_cli_timeline tl;
    uint64_t with_start;
    llmm_cli_error err; /* why a callback failed, when it was not memory */
    /* with keep_points (set after init; the per-run traces of perrun.c): every successful
     * request with a send time as a point, 16 bytes each; `llmm report` keeps none */
    int keep_points;
    llmm_cli_point *pts;
    size_t npts, cappts, run_first_pt;
    /* events (vLLM "llmm_events", --event), sorted by time after llmm_cli_trace_done */
    llmm_cli_event *ev;
    size_t nev, capev, run_first_ev;
    uint64_t events_dropped; /* in runs without start times: nowhere to place them */
    /* notes from the parsers */
    uint64_t notes;
} llmm_cli_trace;

/* watch: the metric the time line keeps (LLMM_CLI_M_TTFT, _TPOT or _E2E). */
int llmm_cli_trace_init(llmm_cli_trace *t, int exact, const double slo[3], int watch);
void llmm_cli_trace_free(llmm_cli_trace *t);
/* The sink that feeds `t`. */
void llmm_cli_trace_sink(llmm_cli_trace *t, llmm_cli_sink *sink);
/* Bracket each input (file): ITLs are kept per input until it ends, so that a second vLLM
 * pass can replace them; its runs are numbered from 0. */
void llmm_cli_trace_input_begin(llmm_cli_trace *t, size_t input);
int llmm_cli_trace_input_end(llmm_cli_trace *t);

/* Add an event at t seconds on the merged time line (--event). */
int llmm_cli_trace_add_event(llmm_cli_trace *t, double t_s, int32_t type, double value);
/* Sort the events by time and finish the time line (call once every input and --event is
 * in). */
int llmm_cli_trace_done(llmm_cli_trace *t, llmm_cli_error *err);

/* Why the time line has nothing to show (no start times, or no request with the watched
 * metric), NULL when it has. */
const char *llmm_cli_trace_why_no_timeline(const llmm_cli_trace *t);

/* One metric's summary. */
typedef struct llmm_cli_msum {
    uint64_t count;
    double mean, min, max;
    double q[LLMM_CLI_NQ];   /* sketch, nearest rank */
    int has_exact;
    double lin[LLMM_CLI_NQ]; /* numpy 'linear' on every value */
} llmm_cli_msum;

/* Everything the basic report shows. */
typedef struct llmm_cli_summary {
    uint64_t total, completed, failed;
    int failed_unknown;    /* a run states no count of failed requests: failed is a lower bound */
    uint64_t one_response; /* successes not streamed (every token in one response): no TPOT */
    uint64_t sampled_runs, sample_records; /* percentiles over a sample of the requests */
    llmm_cli_failure_kinds kinds; /* the failures by kind, where the inputs say it */
    double error_rate; /* NaN when there are no requests, or a run states no counts */
    double duration_s; /* NaN when unknown */
    const char *duration_source;
    double req_per_s, tok_per_s, total_tok_per_s; /* NaN when unknown */
    int rates_stated;        /* req_per_s and tok_per_s are the file's own (no duration) */
    const char *tokens_from; /* how the token totals follow from a file's figures, or NULL */
    uint64_t out_tokens, in_tokens, out_unknown, in_unknown;
    llmm_cli_msum m[LLMM_CLI_M_COUNT];
    double rel_error; /* the sketches' guaranteed relative error */
    int32_t scale;
    /* goodput */
    int has_goodput;
    uint64_t good;
    uint64_t good_unjudged; /* successes without a TTFT: goodput not computed when > 0 */
    uint64_t good_stats_only; /* runs with statistics only: goodput not computed when > 0 */
    uint64_t good_sampled;    /* runs listing a sample of requests: not computed when > 0 */
    double good_fraction, good_per_s;
} llmm_cli_summary;

/* duration_override: seconds, or NaN to use what the inputs say (summary.c). */
int llmm_cli_trace_summarize(llmm_cli_trace *t, double duration_override, llmm_cli_summary *s,
                             llmm_cli_error *err);

/* Our value of what a tool's figure measures, in SI units (seconds, per second, a count), from
 * the trace and its summary; NaN when we have none (no counterpart, a statistic we do not
 * compute, no sample). */
double llmm_cli_figure_ours(const llmm_cli_trace *t, const llmm_cli_summary *s,
                            const llmm_cli_figure *f);
/* What one SI unit is in a figure's unit (1000 for "ms"). */
double llmm_cli_unit_per_si(const char *unit);

#endif /* LLMM_CLI_TRACE_H */
