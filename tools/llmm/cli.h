/* cli.h: what the files of the llmm tool share.
 *
 * The tool is the library's first real user: it includes only <llmmetrics/llmmetrics.h> and
 * links only the public shared library. Names here are the tool's own (`llmm_cli_`), never
 * exported by the library.
 *
 * Flow: an input parser (parse_vllm.c, parse_csv.c, parse_jsonl.c) turns bytes into request
 * records and inter-token latencies and hands them to a sink; the trace accumulator (trace.c)
 * is the sink the report uses. Parsers work on any buffer split into any chunks, so the same
 * code serves files, tests and fuzzers.
 */
#ifndef LLMM_CLI_H
#define LLMM_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

/* ---- errors ------------------------------------------------------------------------------ */

/* Return codes of the tool's internal calls (the process exit status of `llmm` is 0 for
 * success, 1 for a bad input or failed computation, 2 for a usage error). */
enum {
    LLMM_CLI_OK = 0,
    LLMM_CLI_EPARSE = 1, /* malformed input; the message names file:line[:column] */
    LLMM_CLI_ENOMEM = 2,
    LLMM_CLI_EIO = 3,
    LLMM_CLI_EUSAGE = 4
};

#define LLMM_CLI_ERR_MAX 640

typedef struct llmm_cli_error {
    char msg[LLMM_CLI_ERR_MAX];
} llmm_cli_error;

/* Format a message into err (always NUL-terminated, truncated if needed); returns code. */
int llmm_cli_fail(llmm_cli_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- records ----------------------------------------------------------------------------- */

/* One request as every input format describes it. Times in seconds. */
typedef struct llmm_cli_record {
    double start_s;        /* send time on the run's own clock; NaN when the input has none */
    double ttft_s;         /* time to first token; NaN for a failed request */
    double e2e_s;          /* end-to-end latency; NaN for a failed request */
    int64_t input_tokens;  /* -1 when unknown */
    int64_t output_tokens; /* -1 when unknown */
    int32_t failed;        /* 1: counts in the error rate, never in latency percentiles */
} llmm_cli_record;

/* Where parsers deliver what they read. Every callback returns LLMM_CLI_OK or an error code
 * (after filling err through the parser); any callback may be NULL. */
typedef struct llmm_cli_sink {
    void *user;
    /* One request. Records of a run arrive in the input's order. */
    int (*record)(void *user, const llmm_cli_record *r);
    /* One inter-token latency (seconds) of a successful request. */
    int (*itl)(void *user, double v);
    /* Forget every ITL delivered since the current input began (the vLLM parser calls it
     * before a second pass over the input; see llmm_cli_vllm_needs_replay()). */
    int (*itl_reset)(void *user);
    /* A run (one benchmark: a vLLM result document, a CSV or JSONL file) ended.
     * duration_s: the run's own benchmark duration if the input states it, else NaN. */
    int (*run_end)(void *user, double duration_s);
    /* A remark about the input that is not an error (printed to stderr by the tool). */
    void (*note)(void *user, const char *msg);
    /* An event the input records (vLLM: the "llmm_events" list), t_s on the run's clock (the
     * clock of its start times), type an event attribute name such as "model.weight_switch";
     * delivered before the run's records. */
    int (*event)(void *user, double t_s, const char *type, double value);
} llmm_cli_sink;

/* ---- input formats ----------------------------------------------------------------------- */

typedef enum llmm_cli_format {
    LLMM_CLI_FORMAT_AUTO = 0,
    LLMM_CLI_FORMAT_VLLM = 1,  /* vllm bench serve --save-result --save-detailed JSON */
    LLMM_CLI_FORMAT_CSV = 2,   /* header line, then one request per line */
    LLMM_CLI_FORMAT_JSONL = 3  /* one JSON object per line */
} llmm_cli_format;

const char *llmm_cli_format_name(llmm_cli_format f);
int llmm_cli_format_parse(const char *s, llmm_cli_format *out);

/* Guess the format from the file name (.json, .csv, .jsonl/.ndjson) and, failing that, from
 * the first bytes of the content. */
llmm_cli_format llmm_cli_format_guess(const char *name, const char *head, size_t len);

/* Statistics about what a parser read, for the report's input table. */
typedef struct llmm_cli_input_info {
    uint64_t requests;     /* records delivered */
    uint64_t runs;         /* vLLM documents (several with --append-result), else 1 */
    uint64_t e2e_from_latencies; /* vLLM: successful requests whose E2E is 'latencies' */
    uint64_t e2e_from_itls;      /* vLLM: successful requests whose E2E is TTFT + sum(ITL) */
    int32_t has_start_times;
    int32_t has_itls;
    int32_t replayed;      /* vLLM: a second pass dropped ITLs of failed requests */
} llmm_cli_input_info;

/* vLLM result JSON, streamed through YAJL. Memory: a few numbers per request, never the
 * per-token lists or the generated texts. */
typedef struct llmm_cli_vllm llmm_cli_vllm;

/* replay_failed: NULL for a first pass; for a second pass, the failure flags of every request
 * of the input in order (from llmm_cli_vllm_failed_flags() of the first pass): only ITLs of
 * successful requests are delivered and nothing else. */
int llmm_cli_vllm_new(const char *name, const llmm_cli_sink *sink, const uint8_t *replay_failed,
                      size_t replay_n, llmm_cli_vllm **out, llmm_cli_error *err);
int llmm_cli_vllm_feed(llmm_cli_vllm *p, const char *buf, size_t len, llmm_cli_error *err);
int llmm_cli_vllm_finish(llmm_cli_vllm *p, llmm_cli_error *err);
/* 1 when ITLs of a request that turned out to have failed were delivered before its error
 * was known (vLLM writes "errors" after "itls"): call sink->itl_reset and parse again with
 * the flags below. */
int llmm_cli_vllm_needs_replay(const llmm_cli_vllm *p);
const uint8_t *llmm_cli_vllm_failed_flags(const llmm_cli_vllm *p, size_t *n);
void llmm_cli_vllm_info(const llmm_cli_vllm *p, llmm_cli_input_info *info);
void llmm_cli_vllm_free(llmm_cli_vllm *p);

/* Whole-buffer entry points (tests and fuzzers). The vLLM one runs the second pass itself
 * when needed. `name` labels error messages. */
int llmm_cli_parse_vllm(const char *buf, size_t len, const char *name, const llmm_cli_sink *sink,
                        llmm_cli_input_info *info, llmm_cli_error *err);
int llmm_cli_parse_csv(const char *buf, size_t len, const char *name, const llmm_cli_sink *sink,
                       llmm_cli_input_info *info, llmm_cli_error *err);
int llmm_cli_parse_jsonl(const char *buf, size_t len, const char *name,
                         const llmm_cli_sink *sink, llmm_cli_input_info *info,
                         llmm_cli_error *err);

/* Line-oriented parsers (CSV, JSONL) share a line assembler: feed chunks, get lines. */
typedef struct llmm_cli_lines llmm_cli_lines;
typedef int (*llmm_cli_line_fn)(void *user, char *line, size_t len, uint64_t lineno,
                                llmm_cli_error *err);
int llmm_cli_lines_new(const char *name, llmm_cli_line_fn fn, void *user,
                       llmm_cli_lines **out, llmm_cli_error *err);
int llmm_cli_lines_feed(llmm_cli_lines *l, const char *buf, size_t len, llmm_cli_error *err);
int llmm_cli_lines_finish(llmm_cli_lines *l, llmm_cli_error *err);
void llmm_cli_lines_free(llmm_cli_lines *l);
/* Longest accepted line (bytes). */
#define LLMM_CLI_LINE_MAX ((size_t)64 << 20)

/* Streaming CSV / JSONL parser objects with the same shape as the vLLM one. */
typedef struct llmm_cli_table llmm_cli_table;
int llmm_cli_table_new(llmm_cli_format fmt, const char *name, const llmm_cli_sink *sink,
                       llmm_cli_table **out, llmm_cli_error *err);
int llmm_cli_table_feed(llmm_cli_table *t, const char *buf, size_t len, llmm_cli_error *err);
int llmm_cli_table_finish(llmm_cli_table *t, llmm_cli_error *err);
void llmm_cli_table_info(const llmm_cli_table *t, llmm_cli_input_info *info);
void llmm_cli_table_free(llmm_cli_table *t);

/* CSV/JSONL record helpers (parse_table.c). */
int llmm_cli_parse_number(const char *s, size_t len, double *out);
/* status text: ok / success / succeeded / true → 0, an HTTP code 2xx → 0, any other code or
 * word → 1; empty → -1 (invalid). */
int llmm_cli_status_failed(const char *s, size_t len);
/* Validate a record built by a line parser; fills err with "name:line: ..." on failure. */
int llmm_cli_record_check(llmm_cli_record *r, const char *name, uint64_t line,
                          llmm_cli_error *err);

/* Read a file (or "-" for stdin) in chunks into the parser for its format, with the second
 * vLLM pass when needed and a progress line on a terminal for large inputs. */
int llmm_cli_read_file(const char *path, llmm_cli_format fmt, const llmm_cli_sink *sink,
                       llmm_cli_input_info *info, llmm_cli_format *used, llmm_cli_error *err);

/* ---- events ------------------------------------------------------------------------------ */

/* Event types the report knows, by their attribute names (detect.h's table): returns the
 * llmm_event_type value, or 0 for an unknown name. */
int32_t llmm_cli_event_type(const char *name);
const char *llmm_cli_event_name(int32_t type);
/* The known names, comma-separated, for messages. */
const char *llmm_cli_event_names(void);

/* ---- numbers ----------------------------------------------------------------------------- */

/* A JSON-grammar decimal (s, len, no NUL needed) to the correctly rounded double, as strtod;
 * LLMM_CLI_EPARSE if it is not one number or not finite. */
int llmm_cli_number(const char *s, size_t len, double *out);
/* Sort ascending (doubles, no NaN). */
void llmm_cli_sort(double *v, size_t n);
/* numpy.percentile(v, p) with the default 'linear' method, v sorted, n > 0, p in [0, 100]. */
double llmm_cli_linear_percentile(const double *sorted, size_t n, double p);
/* Nearest-rank quantile (doc/spec.md §5): rank max(1, ceil(q·n)), q·n within 1e-9 of an integer
 * counts as that integer; v sorted, n > 0. */
double llmm_cli_nearest_rank(const double *sorted, size_t n, double q);

/* Deterministic pseudo-random numbers for the demo trace (xoshiro256**, seeded by
 * splitmix64). */
typedef struct llmm_cli_rng {
    uint64_t s[4];
} llmm_cli_rng;
void llmm_cli_rng_seed(llmm_cli_rng *r, uint64_t seed);
uint64_t llmm_cli_rng_next(llmm_cli_rng *r);
double llmm_cli_rng_uniform(llmm_cli_rng *r);   /* (0, 1) */
double llmm_cli_rng_normal(llmm_cli_rng *r);    /* N(0, 1) */
double llmm_cli_rng_exp(llmm_cli_rng *r, double mean);

/* ---- small utilities --------------------------------------------------------------------- */

/* Growable array of doubles. */
typedef struct llmm_cli_vec {
    double *v;
    size_t n, cap;
} llmm_cli_vec;
int llmm_cli_vec_push(llmm_cli_vec *a, double x);
void llmm_cli_vec_free(llmm_cli_vec *a);

/* Parse a duration such as "250ms", "0.25s", "250us", "1.5" (bare number: milliseconds, as
 * vLLM's --goodput). Result in seconds. */
int llmm_cli_parse_duration(const char *s, double *seconds);

/* Output helpers. */
const char *llmm_cli_basename(const char *path);

/* ---- subcommands ------------------------------------------------------------------------- */

int llmm_cli_cmd_report(int argc, char **argv);
int llmm_cli_cmd_demo(int argc, char **argv);
void llmm_cli_report_usage(FILE *f);
void llmm_cli_demo_usage(FILE *f);
int llmm_cli_cmd_knee(int argc, char **argv);
void llmm_cli_knee_usage(FILE *f);
int llmm_cli_cmd_merge(int argc, char **argv);
void llmm_cli_merge_usage(FILE *f);
int llmm_cli_cmd_quantiles(int argc, char **argv);
void llmm_cli_quantiles_usage(FILE *f);
int llmm_cli_cmd_capacity(int argc, char **argv);
void llmm_cli_capacity_usage(FILE *f);

#endif /* LLMM_CLI_H */
