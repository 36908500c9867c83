/* sweep.h: a load sweep (concurrency, QPS[, P99]), the input of `llmm knee` (sweep.c). */
#ifndef LLMM_CLI_SWEEP_H
#define LLMM_CLI_SWEEP_H

#include <stddef.h>

#include "common/error.h"

/* Largest sweep file read. */
#define LLMM_CLI_SWEEP_FILE_MAX ((size_t)256 << 20)

typedef struct llmm_cli_sweep {
    double *conc, *qps, *p99_ms; /* one point per distinct concurrency, increasing; p99_ms NULL
                                    without the column */
    size_t n;                    /* distinct concurrencies */
    size_t rows;                 /* data rows read */
    int has_p99;
    char source[640]; /* where the rows came from, when not a CSV file ("" else) */
} llmm_cli_sweep;

/* One row of a sweep. */
typedef struct llmm_cli_sweep_row {
    double conc, qps, p99; /* p99 NaN without the column */
} llmm_cli_sweep_row;

/* A sweep from rows (sorted and averaged per concurrency, as for a file; the rows are
 * reordered). At least 3 distinct concurrencies, else LLMM_CLI_EPARSE naming `name`. */
int llmm_cli_sweep_from_rows(llmm_cli_sweep_row *r, size_t nr, int has_p99, const char *name,
                             llmm_cli_sweep *s, llmm_cli_error *err);
/* Does this start of a text look like a sweep CSV (concurrency,qps[,p99_ms] rows or header)? */
int llmm_cli_sweep_looks_csv(const char *head, size_t len);

/* CSV `concurrency,qps[,p99_ms]`, header line optional, '#' comments and blank lines
 * skipped. Rows of equal concurrency are averaged (QPS and P99 alike). `name` labels errors. */
int llmm_cli_sweep_parse(const char *buf, size_t len, const char *name, llmm_cli_sweep *s,
                         llmm_cli_error *err);
/* The same from a file ("-" for stdin). */
int llmm_cli_sweep_read(const char *path, llmm_cli_sweep *s, llmm_cli_error *err);
void llmm_cli_sweep_free(llmm_cli_sweep *s);

#endif /* LLMM_CLI_SWEEP_H */
