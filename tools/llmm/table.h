/* table.h: the generic one-request-per-line formats (CSV and JSONL), shared by parse_table.c,
 * parse_csv.c and parse_jsonl.c.
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

#include "cli.h"

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

struct llmm_cli_table {
    llmm_cli_format fmt;
    const char *name;
    llmm_cli_sink sink;
    llmm_cli_lines *lines;
    llmm_cli_input_info info;
    /* CSV */
    int have_header;
    size_t ncols;
    int *col_of_field;            /* header position -> enum table_col, or -1 (ignored) */
    char **fld;                   /* fields of the current line (start, NUL-terminated) */
    size_t *fld_len;
    size_t fld_cap;
    /* JSONL: ITLs of the current line, delivered once its status is known */
    llmm_cli_vec itls;
};

int llmm_cli_csv_line(void *user, char *line, size_t len, uint64_t lineno, llmm_cli_error *err);
int llmm_cli_jsonl_line(void *user, char *line, size_t len, uint64_t lineno,
                        llmm_cli_error *err);

/* Deliver a checked record (and, for JSONL, the line's ITLs when it succeeded). */
int llmm_cli_table_emit(struct llmm_cli_table *t, llmm_cli_record *r, uint64_t lineno,
                        llmm_cli_error *err);

#endif /* LLMM_CLI_TABLE_H */
