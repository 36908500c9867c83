/* bpf.h: `llmm bench --bpf [--server-pid P]` (doc/bpf.md, "llmm bench --bpf"): the
 * kernel-event collector (tools/bpf/collector.h) traces the bench's connections to the
 * server's port and, with --server-pid, the server's threads; each level's events are joined
 * to its requests by the attribution rule (bench/bpf_attr.c):
 *
 * - a TCP retransmit belongs to the request whose connection (its 4-tuple, either way round,
 *   in the bench's network namespace) carried it, between the request's send and the end of
 *   its transfer (its last byte);
 * - a server thread's major fault or run-queue wait above the threshold (sched.jitter) belongs
 *   to each request whose largest gap (its TTFT or one of its ITLs) it overlaps.
 *
 * Built with the feature `bpf` and libcurl; otherwise every call below is a no-op and
 * `llmm bench --bpf` says the collector is missing. */
#ifndef LLMM_BENCH_BPF_H
#define LLMM_BENCH_BPF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/client.h"
#include "common/jsonw.h"

#if defined(LLMM_CLI_HAVE_BPF) && defined(LLMM_CLI_HAVE_CURL)
#define LLMM_BENCH_HAVE_BPF 1

#include <linux/types.h>

#include "event.h"

/* The most events listed per request in the result file (the counts are exact). */
#define LLMM_BENCH_KEV_LISTED 64
/* The most events a level keeps before attributing them; more are counted ("over"). */
#define LLMM_BENCH_KEV_KEPT 1000000

/* A request's connection: its 4-tuple from libcurl (the bench's end first). */
typedef struct llmm_bench_conn {
    uint8_t laddr[16], raddr[16]; /* IPv4: the first 4 bytes */
    uint16_t family;              /* AF_INET, AF_INET6; 0: unknown (no connection) */
    uint16_t lport, rport;
} llmm_bench_conn;

/* A level's kernel events as attributed (llmm_bench_result.kev). Spikes: [0] TTFT, [1] ITL;
 * [.][0] above the level's P99, [.][1] above its P99.9 (numpy's linear quantiles of the
 * measured window's successful requests). */
typedef struct llmm_bench_kevents {
    struct llmm_bpf_event *ev; /* the listed events, request after request */
    size_t nev;
    size_t *at;          /* n + 1: request i's are ev[at[i] .. at[i + 1]) */
    size_t n;            /* requests (llmm_bench_result.n) */
    uint32_t server_pid; /* 0: none traced */
    uint64_t runq_above_ns;
    uint64_t lost;         /* records the kernel's ring had no room for, this level */
    uint64_t over;         /* events beyond LLMM_BENCH_KEV_KEPT, not attributed */
    uint64_t unlisted;     /* attributed but beyond LLMM_BENCH_KEV_LISTED of a request */
    uint64_t unattributed; /* retransmit segments of no request (other connections,
                              between requests, the preflight) */
    double threshold[2][2];
    uint64_t spikes[2][2], hit[2][2];
} llmm_bench_kevents;

/* Join events ev[0, n) (retransmits of any connection; the server's faults and waits at or
 * above runq_above_ns) to the requests of r, whose connections are conn[0, r->n): fills each
 * record's kev_* counts and r->kev. LLMM_CLI_OK or LLMM_CLI_ENOMEM. */
int llmm_bench_kev_attribute(llmm_bench_result *r, const struct llmm_bpf_event *ev, size_t n,
                             const llmm_bench_conn *conn, uint32_t netns, uint32_t server_pid,
                             uint64_t runq_above_ns);
void llmm_bench_kevents_free(llmm_bench_kevents *k);

/* The collector of a run. */
typedef struct llmm_bench_bpf llmm_bench_bpf;

/* Trace the connections to url's port and, when server_pid is not 0, that process's threads
 * (waits of runq_above_s or longer are events). LLMM_CLI_OK, or LLMM_CLI_EIO (the collector
 * cannot run: what is missing) / LLMM_CLI_EUSAGE / LLMM_CLI_ENOMEM with a message. */
int llmm_bench_bpf_open(const char *url, uint32_t server_pid, double runq_above_s,
                        llmm_bench_bpf **out, llmm_cli_error *err);
/* Read the events waiting in the ring (with every 50 ms sample). */
void llmm_bench_bpf_sample(llmm_bench_bpf *b);
/* Request rec of the level ended on libcurl handle easy: learn its connection. */
void llmm_bench_bpf_ended(llmm_bench_bpf *b, size_t rec, void *easy);
/* The level r ended: attribute its events (llmm_bench_kev_attribute) and start again. */
int llmm_bench_bpf_level(llmm_bench_bpf *b, llmm_bench_result *r, llmm_cli_error *err);
/* Events lost and failed retransmit attempts since the start said on stderr; unload. */
void llmm_bench_bpf_close(llmm_bench_bpf *b);

/* The result file's per-request keys of phase (doc/bench.md): local_ports, end_times,
 * kernel_retransmits, kernel_major_faults, kernel_sched_jitter, kernel_events. */
void llmm_bench_kev_lists(llmm_cli_jw *w, const llmm_bench_result *r, int phase);
/* The extension's "kernel" object: what was traced, losses, the spikes with an event. */
void llmm_bench_kev_summary(llmm_cli_jw *w, const llmm_bench_result *r);
/* The level summary's kernel lines. */
void llmm_bench_kev_print(FILE *f, const llmm_bench_result *r);
/* The line of spikes with an event: "LEADspikes with a kernel event: TTFT > P99 1/1, …". */
void llmm_bench_kev_print_spikes(FILE *f, const char *lead, const llmm_bench_kevents *k);

#else /* without the collector: nothing to do */

typedef struct llmm_bench_bpf llmm_bench_bpf;
static inline void llmm_bench_bpf_sample(llmm_bench_bpf *b)
{
    (void)b;
}
static inline void llmm_bench_bpf_ended(llmm_bench_bpf *b, size_t rec, void *easy)
{
    (void)b, (void)rec, (void)easy;
}
static inline void llmm_bench_kev_lists(llmm_cli_jw *w, const llmm_bench_result *r, int phase)
{
    (void)w, (void)r, (void)phase;
}
static inline void llmm_bench_kev_summary(llmm_cli_jw *w, const llmm_bench_result *r)
{
    (void)w, (void)r;
}
static inline void llmm_bench_kev_print(FILE *f, const llmm_bench_result *r)
{
    (void)f, (void)r;
}
static inline void llmm_bench_kevents_free(struct llmm_bench_kevents *k)
{
    (void)k;
}
#endif

#endif /* LLMM_BENCH_BPF_H */
