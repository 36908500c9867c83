/* collector.h: the kernel-event collector: loads the CO-RE programs of collector.bpf.c,
 * restricted to the given targets, and hands their events to a callback as they are read
 * from the ring buffer. Part of the llmm tool (`llmm host --bpf`), not of the library: no ABI
 * promise. Linux only; needs CAP_BPF and CAP_PERFMON (root) and the kernel's BTF. Events,
 * kernel sources and counting rules: doc/bpf.md. */
#ifndef LLMM_BPF_COLLECTOR_H
#define LLMM_BPF_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "event.h"

#define LLMM_BPF_MAX_PIDS 256
#define LLMM_BPF_MAX_PORTS 64

typedef struct llmm_bpf_target {
    const uint32_t *pids; /* thread groups (processes), with every thread */
    size_t n_pids;
    const char *cgroup;    /* a cgroup v2 directory (and everything under it); NULL: none */
    const uint16_t *ports; /* TCP connections with one of these ports at either end */
    size_t n_ports;
    const char *btf;   /* the kernel's BTF; NULL: /sys/kernel/btf/vmlinux */
    size_t ring_bytes; /* ring buffer size, a power of 2 >= 4096; 0: 4 MiB */
} llmm_bpf_target;

typedef struct llmm_bpf llmm_bpf;

/* Called for each event read from the ring, in the order the ring holds them. */
typedef void (*llmm_bpf_on_event)(void *user, const struct llmm_bpf_event *e);

/* Load and attach. 0 on success; otherwise a negative errno and a message in err (cap
 * bytes) naming what is missing: a privilege, the BTF, a tracepoint, a bad target. */
int llmm_bpf_open(const llmm_bpf_target *t, llmm_bpf_on_event cb, void *user, llmm_bpf **out,
                  char *err, size_t cap);

/* Wait up to timeout_ms for events and hand them to the callback: the number handled, or a
 * negative errno (-EINTR when a signal came). */
int llmm_bpf_poll(llmm_bpf *b, int timeout_ms);

/* Hand every event already in the ring to the callback, without waiting. */
int llmm_bpf_drain(llmm_bpf *b);

/* The counters of enum llmm_bpf_stat since open, summed over CPUs. */
void llmm_bpf_stats(const llmm_bpf *b, uint64_t out[LLMM_BPF_STAT_COUNT]);

/* Detach, unload, free; NULL is a no-op. */
void llmm_bpf_close(llmm_bpf *b);

#endif /* LLMM_BPF_COLLECTOR_H */
