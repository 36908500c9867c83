/* hostsig.h: host-signal files, the samples of a llmm_host_sampler recorded beside a trace
 * (doc/cli.md, "Host-signal files"). JSONL, one object per sample, in time order:
 *
 *   {"t": 1712.35, "tcp_retrans": 0, "ctx_switches": 5120.5, "psi_cpu": 0.013,
 *    "cpu_freq_mhz": null, …}
 *
 * "t" (required): the time of the sample, in seconds on the clock of the trace's start times.
 * Every other key is a signal's stable name (llmm_host_signal_name()) with its rate per second
 * over the interval since the previous line's t (cpu_freq_mhz: the level at t), or null when
 * the sample had none; a signal the host does not expose is left out. Keys this version does
 * not know are skipped (a newer library may record more signals). The writer is here, for
 * `llmm host` and tests; the reader is input/hostsig.c. */
#ifndef LLMM_CLI_HOSTSIG_H
#define LLMM_CLI_HOSTSIG_H

#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

/* Signals a file may hold: llmm_host_signal 1 … LLMM_CLI_HOST_MAX (the library names fewer). */
#define LLMM_CLI_HOST_MAX 32

/* Append the sampler's latest sample, taken at t_s seconds, as one line of f: LLMM_CLI_OK,
 * LLMM_CLI_ENOMEM or LLMM_CLI_EIO. */
int llmm_cli_hostsig_write(FILE *f, double t_s, const llmm_host_sampler *s);

/* The same with more keys after the signals: extra(w, ctx) writes them (`llmm host --bpf`:
 * "bpf", common/bpfsig.h); extra NULL: none. */
typedef struct llmm_cli_jw llmm_cli_jw;
int llmm_cli_hostsig_write_with(FILE *f, double t_s, const llmm_host_sampler *s,
                                void (*extra)(llmm_cli_jw *w, void *ctx), void *ctx);

#endif /* LLMM_CLI_HOSTSIG_H */
