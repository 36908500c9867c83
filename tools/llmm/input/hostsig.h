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

/* A kernel event of a line's "bpf" key (`llmm host --bpf`, common/bpfsig.h). */
typedef struct llmm_cli_host_kevent {
    double t;     /* seconds on the file's clock: when it happened; a run-queue wait: its start */
    int32_t type; /* LLMM_EVENT_TCP_RETRANSMIT, _MAJOR_FAULT or _SCHED_JITTER */
    double value; /* retransmit: segments; fault: 1; wait: its length in seconds */
} llmm_cli_host_kevent;

typedef struct llmm_cli_hostsig {
    llmm_cli_host_sample *s; /* in time order */
    size_t n, cap;
    llmm_cli_host_kevent *kev; /* in the order of the lines */
    size_t nkev, capkev;
    uint64_t bpf_lines;      /* lines with the key "bpf" */
    uint64_t bpf_lost;       /* their "lost" and "over": events the collector could not list */
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
