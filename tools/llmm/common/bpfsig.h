/* bpfsig.h: kernel events of `llmm host --bpf` (tools/bpf/collector.h) gathered per interval
 * and written into the host-signal file's sample line under the one key "bpf" (doc/cli.md,
 * "Host-signal files"):
 *
 *   "bpf": {"lost": 0, "over": 0, "runq": {"count": 812, "sum_s": 0.0132, "p50_s": …,
 *           "p99_s": …, "max_s": …},
 *           "events": [{"event": "sched.jitter", "dt_ns": -3125000, "pid": 7, "tid": 9,
 *                       "wait_ns": 2400000}, …]}
 *
 * "dt_ns": the event's time minus the line's t, in whole nanoseconds (so that the time keeps
 * its nanoseconds on any clock); "lost": records the kernel's ring had no room for since the
 * line before; "over": events beyond the per-line bound, not listed; "runq": every run-queue
 * wait read since the line before, in an llmm sketch (seconds). 1.1 readers skip the key. */
#ifndef LLMM_CLI_BPFSIG_H
#define LLMM_CLI_BPFSIG_H

#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include <llmmetrics/llmmetrics.h>

#include "common/jsonw.h"
#include "event.h"

typedef struct llmm_cli_bpfsig {
    uint64_t runq_above_ns;    /* a wait this long or longer is a sched.jitter event */
    size_t max_events;         /* events kept per line; more are counted in "over" */
    struct llmm_bpf_event *ev; /* read, not yet written; at most max_events */
    size_t n;
    uint64_t over;               /* events dropped for the bound since the last line */
    llmm_sketch *runq;           /* waits read since the last line, in seconds */
    uint64_t lost, lost_written; /* the kernel's lost records: total, as of the last line */
    /* since the start, as of the last line written (`--metrics-port`, cmd/host_metrics.c) */
    uint64_t retrans_segs, synacks, faults, jitters, unlisted;
    llmm_sketch *runq_all; /* every wait */
} llmm_cli_bpfsig;

/* LLMM_CLI_OK or LLMM_CLI_ENOMEM. */
int llmm_cli_bpfsig_init(llmm_cli_bpfsig *b, uint64_t runq_above_ns, size_t max_events);
void llmm_cli_bpfsig_free(llmm_cli_bpfsig *b);

/* The collector's callback (llmm_bpf_on_event): self is the llmm_cli_bpfsig. */
void llmm_cli_bpfsig_add(void *self, const struct llmm_bpf_event *e);

/* Write "bpf": {…} for the line whose t is t_mono_ns on CLOCK_MONOTONIC: the events up to
 * then (later ones wait for the next line) and the waits' sketch, which starts again. */
void llmm_cli_bpfsig_write(llmm_cli_bpfsig *b, llmm_cli_jw *w, uint64_t t_mono_ns);

/* One event as a JSON object ({"event": "net.tcp.retrans", "dt_ns": …, …}), its time as
 * dt_ns from t_mono_ns (`llmm bench --bpf` writes them from the request's start time). */
void llmm_cli_bpfsig_event(llmm_cli_jw *w, const struct llmm_bpf_event *e, uint64_t t_mono_ns);

#endif /* LLMM_CLI_BPFSIG_H */
