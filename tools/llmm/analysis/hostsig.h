/* hostsig.h (analysis): a host-signal file beside the trace (`report --host-signals FILE`)
 * becomes events on the report's time line, which the spikes section then attributes spikes
 * to like any other event (hostsig.c). */
#ifndef LLMM_CLI_ANALYSIS_HOSTSIG_H
#define LLMM_CLI_ANALYSIS_HOSTSIG_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/trace.h"
#include "common/hostsig.h"

typedef struct llmm_cli_host {
    /* options */
    const char *path;                 /* --host-signals FILE; NULL: none */
    double above[LLMM_CLI_HOST_MAX];  /* --host-threshold, per signal; NaN: the library's */
    /* results */
    uint64_t samples;                 /* lines read */
    uint64_t unknown;                 /* keys skipped */
    char first_unknown[64];
    uint64_t events[LLMM_CLI_HOST_MAX]; /* events made, per signal */
    /* `llmm host --bpf` files: the kernel's own events replace the rates of the signals
     * they explain (tcp_retrans, major_faults, run_delay) */
    uint64_t bpf_lines;               /* lines with kernel events */
    uint64_t bpf_lost;                /* events the collector could not list */
    uint64_t kevents[3];              /* net.tcp.retrans, mem.major_fault, sched.jitter */
    double threshold[LLMM_CLI_HOST_MAX]; /* the thresholds used */
} llmm_cli_host;

/* Set every threshold to "the library's default" (NaN). */
void llmm_cli_host_init(llmm_cli_host *h);

/* --host-threshold NAME=VALUE, NAME an option of the host sampler (llmm_option_describe():
 * tcp_retrans_above, cpu_freq_drop, …): LLMM_CLI_EUSAGE with a message when it is not one
 * or VALUE is outside its bounds. */
int llmm_cli_host_threshold_option(llmm_cli_host *h, const char *arg, llmm_cli_error *err);

/* The thresholds' names and defaults, for --help. */
void llmm_cli_host_threshold_help(FILE *f);

/* Read h->path (when set) and add its events to the trace: after every input, before
 * llmm_cli_trace_done(). Times move by the first input's earliest start time (the
 * trace's clock → the report's time line); the file needs that input to have start times. */
int llmm_cli_host_events(llmm_cli_host *h, llmm_cli_trace *t, llmm_cli_error *err);

#endif /* LLMM_CLI_ANALYSIS_HOSTSIG_H */
