/* report.h: the model of one `llmm report` run, built by report.c and the section files,
 * printed by render_text.c or render_json.c. */
#ifndef LLMM_CLI_REPORT_H
#define LLMM_CLI_REPORT_H

#include "trace.h"

/* ---- scorecard section (section_score.c) -------------------------------------------------- */

#define LLMM_CLI_SCORE_MAX_METRICS 64

typedef struct llmm_cli_score_metric {
    llmm_layer layer;
    char name[96];
    int from_trace;  /* the value comes from the report (NAME is a trace metric) */
    int is_default;  /* added by the report, not by --metric */
    double value, target, worst;
    llmm_direction dir;
    double score;    /* NaN until evaluated */
} llmm_cli_score_metric;

typedef struct llmm_cli_score {
    int enabled;     /* --scenario given */
    llmm_scenario scenario;
    const char *scenario_name;
    llmm_cli_score_metric metrics[LLMM_CLI_SCORE_MAX_METRICS];
    size_t n;
    /* result */
    int evaluated;
    llmm_status status;
    llmm_score_result result;
} llmm_cli_score;

int llmm_cli_score_scenario(llmm_cli_score *sc, const char *name, llmm_cli_error *err);
int llmm_cli_score_metric_option(llmm_cli_score *sc, const char *arg, llmm_cli_error *err);
const char *llmm_cli_layer_name(llmm_layer l);
/* Trace metric names a --metric may use with the value '-' (from the report). */
void llmm_cli_score_trace_names(FILE *f);

/* ---- spike section (section_spikes.c) ------------------------------------------------------ */

typedef struct llmm_cli_spike_row {
    double t0, t1;          /* seconds on the merged time line */
    uint64_t samples, classified, level1, level2;
    double base_threshold;  /* P99 in force at the row's last classified sample; NaN if none */
    double max;
} llmm_cli_spike_row;

typedef struct llmm_cli_spike_pt {
    double t, v;  /* seconds on the merged time line, the value */
    int level;    /* 1 or 2 */
} llmm_cli_spike_pt;

/* Spikes kept for the chart (the first ones). */
#define LLMM_CLI_SPIKE_PTS_MAX 100000

typedef struct llmm_cli_spikes {
    /* options */
    double interval;         /* seconds per row; 0 = automatic */
    uint64_t warmup;         /* 0 = the library's default */
    /* result */
    int metric;              /* the watched metric */
    int available;
    const char *why_not;
    uint64_t samples, classified, level1, level2;
    double rate;
    double interval_used;
    uint64_t warmup_used, slots, slot_ns;
    double base_q, severe_q, factor;
    llmm_cli_spike_row *rows;
    size_t nrows;
    llmm_cli_spike_pt *pts; /* every spike, in time order (at most LLMM_CLI_SPIKE_PTS_MAX) */
    size_t npts, cappts;
    /* attribution to events */
    int attributed;          /* the inputs had events */
    double lookback;         /* seconds */
    uint64_t with_event, without_event;
    int32_t cause_type[16];
    uint64_t cause_count[16];
    size_t ncause;
} llmm_cli_spikes;

/* ---- the time line the time-ordered sections watch (timeline.c) ---------------------------- */

typedef struct llmm_cli_obs {
    double t, v; /* when the value became known (seconds on the time line), the value */
} llmm_cli_obs;

int llmm_cli_watch_option(int *metric, const char *arg, llmm_cli_error *err);
/* The watched metric of every request with a send time, sorted by time; *out is malloc'ed
 * (NULL when n is 0). */
int llmm_cli_timeline(const llmm_cli_trace *t, int metric, llmm_cli_obs **out, size_t *n,
                      llmm_cli_error *err);
/* Seconds on the time line to the detectors' nanoseconds (negative → 0). */
uint64_t llmm_cli_ns(double seconds);

/* ---- collapse section (section_collapse.c) ------------------------------------------------- */

typedef struct llmm_cli_collapse_switch {
    double t;
    uint64_t latencies, flagged;
} llmm_cli_collapse_switch;

typedef struct llmm_cli_collapse_flag {
    double t, v, threshold, mean;
} llmm_cli_collapse_flag;

#define LLMM_CLI_COLLAPSE_LIST 20

typedef struct llmm_cli_collapse {
    int available;
    const char *why_not;
    int metric;
    double window;          /* seconds after a switch (LLMM_COLLAPSE_SWITCH_NS) */
    uint64_t w;
    double k, floor;
    uint64_t samples, collapsed, switches;
    llmm_cli_collapse_switch *sw; /* one per weight switch */
    size_t nsw;
    llmm_cli_collapse_flag flags[LLMM_CLI_COLLAPSE_LIST]; /* the first flagged samples */
    size_t nflags;
} llmm_cli_collapse;

/* ---- SLO verdict (section_slo.c) ----------------------------------------------------------- */

typedef struct llmm_cli_slo_check {
    int metric;        /* LLMM_CLI_M_TTFT, _TPOT or _E2E */
    double bound;      /* seconds */
    double latency;    /* the quantile checked; +Inf with no success */
    int32_t latency_ok;
} llmm_cli_slo_check;

typedef struct llmm_cli_slo {
    int enabled;
    double quantile, err_max, error_rate;
    int32_t errors_ok, satisfied;
    llmm_cli_slo_check checks[3];
    size_t nchecks;
} llmm_cli_slo;

/* ---- the report --------------------------------------------------------------------------- */

typedef struct llmm_cli_input {
    const char *path;
    llmm_cli_format fmt;
    llmm_cli_input_info info;
} llmm_cli_input;

typedef struct llmm_cli_report {
    /* options */
    int json, exact;
    llmm_cli_format fmt;
    double slo[3];        /* ttft, tpot, e2e in seconds; NaN = not given */
    double err_max;       /* SLO error-rate bound; NaN = not given */
    double slo_quantile;  /* quantile the SLO verdict checks; NaN = 0.95 */
    const char *slo_text; /* --slo as given */
    const char *save_sketch_dir; /* --save-sketch DIR */
    const char *svg_dir;         /* --svg DIR */
    FILE *files_out;             /* where "wrote FILE" lines go (NULL: stderr) */
    double duration_override;
    int watch;            /* metric of the time-ordered sections, LLMM_CLI_M_TTFT by default */
    double lookback;      /* spike attribution look-back, seconds; NaN = 2 s */
    double collapse_window; /* seconds after a switch; NaN = 2 s */
    llmm_cli_event cli_events[64]; /* --event, on the merged time line */
    size_t ncli_events;
    llmm_cli_score score;
    llmm_cli_spikes spikes;
    llmm_cli_slo slo_verdict;
    llmm_cli_collapse collapse;
    /* results */
    llmm_cli_input *inputs;
    size_t ninputs;
    llmm_cli_trace trace;
    llmm_cli_summary sum;
} llmm_cli_report;

/* Evaluate the scorecard from the summary (section_score.c). */
int llmm_cli_score_eval(llmm_cli_report *r, llmm_cli_error *err);
/* The SLO verdict (section_slo.c). */
int llmm_cli_slo_eval(llmm_cli_report *r, llmm_cli_error *err);
/* Replay the time line into a spike detector (section_spikes.c). */
int llmm_cli_spikes_eval(llmm_cli_report *r, llmm_cli_error *err);
/* Replay it with the weight switches into a collapse detector (section_collapse.c). */
int llmm_cli_collapse_eval(llmm_cli_report *r, llmm_cli_error *err);
void llmm_cli_collapse_free(llmm_cli_collapse *c);
void llmm_cli_spikes_free(llmm_cli_spikes *sp);

/* Run the report on files (also used by `llmm demo`); prints to out. Returns the exit
 * status: 0 ok, 1 input or computation error (message on stderr). */
int llmm_cli_report_run(llmm_cli_report *r, char **files, size_t nfiles, FILE *out);
void llmm_cli_report_init(llmm_cli_report *r);
void llmm_cli_report_free(llmm_cli_report *r);

/* --save-sketch and --svg (report_files.c, plot_report.c); names printed to r->files_out. */
int llmm_cli_report_save_sketches(const llmm_cli_report *r, llmm_cli_error *err);
int llmm_cli_report_svg(const llmm_cli_report *r, llmm_cli_error *err);

void llmm_cli_render_text(const llmm_cli_report *r, FILE *out);
int llmm_cli_render_json(const llmm_cli_report *r, FILE *out);

#endif /* LLMM_CLI_REPORT_H */
