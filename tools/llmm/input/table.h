/* table.h: the generic one-request-per-line formats (CSV and JSONL): the table object both
 * readers share (table.c) and their line parsers (csv.c, jsonl.c).
 *
 * Columns (CSV header names, JSONL keys), all optional except ttft_s and e2e_s:
 *   start_s        send time in seconds on any clock (empty / null: unknown)
 *   ttft_s         time to first token, seconds (may be empty for a failed request)
 *   e2e_s          end-to-end latency, seconds (may be empty for a failed request)
 *   output_tokens  generated tokens (empty / null: unknown)
 *   input_tokens   prompt tokens (empty / null: unknown)
 *   status         ok | success | succeeded | true | completed or an HTTP code 2xx: success;
 *                  any other word or code: failed. A missing column means every request
 *                  succeeded.
 *   itls           (JSONL only) list of inter-token latencies in seconds
 */
#ifndef LLMM_CLI_TABLE_H
#define LLMM_CLI_TABLE_H

#include "common/array.h"
#include "input/input.h"
#include "input/lines.h"

enum table_col {
    COL_START = 0,
    COL_TTFT,
    COL_E2E,
    COL_OUT,
    COL_IN,
    COL_STATUS,
    COL_ITLS,
    COL_COUNT
};

extern const char *const llmm_cli_table_col_name[COL_COUNT];

typedef struct llmm_cli_table {
    const char *name;
    const char *empty; /* what an input without content lacks, for the message */
    llmm_cli_sink sink;
    llmm_cli_lines *lines;
    llmm_cli_input_info info;
    int started;       /* CSV: the header line was read; JSONL: a record was */
    /* CSV */
    size_t ncols;
    int *col_of_field; /* header position -> enum table_col, or -1 (ignored) */
    char **fld;        /* fields of the current line (start, NUL-terminated) */
    size_t *fld_len;
    size_t fld_cap;
    /* JSONL: ITLs of the current line, delivered once its status is known */
    llmm_cli_vec itls;
    void *line_parser; /* JSONL: its tokenizer, made at the first line */
    void (*line_parser_free)(void *);
} llmm_cli_table;

/* What a table format's reader adds (its llmm_cli_reader's detail). */
typedef struct llmm_cli_table_kind {
    llmm_cli_line_fn line; /* one line */
    const char *empty;     /* what an input without content lacks, for the message */
} llmm_cli_table_kind;

/* The llmm_cli_reader calls of the table formats. */
int llmm_cli_table_create(const llmm_cli_reader *rd, const char *name, const llmm_cli_sink *sink,
                          const uint8_t *replay, size_t replay_n, void **out,
                          llmm_cli_error *err);
int llmm_cli_table_feed(void *t, const char *buf, size_t len, llmm_cli_error *err);
int llmm_cli_table_finish(void *t, llmm_cli_input_info *info, llmm_cli_error *err);
void llmm_cli_table_destroy(void *t);

/* Deliver a checked record (and, for JSONL, the line's ITLs when it succeeded). */
int llmm_cli_table_emit(llmm_cli_table *t, llmm_cli_record *r, uint64_t lineno,
                        llmm_cli_error *err);

/* A record with nothing known: NaN times, -1 token counts, not failed. */
void llmm_cli_record_unknown(llmm_cli_record *r);
/* Store the number v of column col (COL_START to COL_STATUS; a status number is an HTTP code)
 * in r: NULL, or why v cannot be that column's ("is negative", "is not a token count"), r
 * unchanged. */
const char *llmm_cli_record_set(llmm_cli_record *r, int col, double v);
/* A number field, spaces around it allowed. */
int llmm_cli_parse_number(const char *s, size_t len, double *out);
/* status text: ok / success / succeeded / true / completed → 0, an HTTP code 2xx → 0, any
 * other code or word → 1; empty → -1 (invalid). */
int llmm_cli_status_failed(const char *s, size_t len);
/* Validate a record built by a line parser; fills err with "name:line: ..." on failure. */
int llmm_cli_record_check(llmm_cli_record *r, const char *name, uint64_t line,
                          llmm_cli_error *err);

#endif /* LLMM_CLI_TABLE_H */
