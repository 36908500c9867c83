/* hostsig.h (input): reading a host-signal file, whose format common/hostsig.h describes,
 * into its samples. */
#ifndef LLMM_CLI_INPUT_HOSTSIG_H
#define LLMM_CLI_INPUT_HOSTSIG_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hostsig.h"

/* One line. */
typedef struct llmm_cli_host_sample {
    double t;                    /* seconds, on the clock of the trace's start times */
    double v[LLMM_CLI_HOST_MAX]; /* index signal − 1; NaN: no value on this line */
} llmm_cli_host_sample;

typedef struct llmm_cli_hostsig {
    llmm_cli_host_sample *s; /* in time order */
    size_t n, cap;
    uint64_t unknown;        /* keys skipped */
    char first_unknown[64];  /* the first of them */
} llmm_cli_hostsig;

/* Parse a whole file held in buf; `name` labels messages ("name:line:column: …"). Appends to
 * h (zeroed before the first call); on error h keeps what it had. */
int llmm_cli_hostsig_parse(const char *buf, size_t len, const char *name, llmm_cli_hostsig *h,
                           llmm_cli_error *err);
/* The same on a file. */
int llmm_cli_hostsig_load(const char *path, llmm_cli_hostsig *h, llmm_cli_error *err);
void llmm_cli_hostsig_free(llmm_cli_hostsig *h);

#endif /* LLMM_CLI_INPUT_HOSTSIG_H */
