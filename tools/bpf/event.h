/* event.h: the record the kernel programs (collector.bpf.c) hand the collector (collector.c)
 * through the ring buffer, and the per-CPU counters they keep. Included by both sides: the
 * BPF side sees the kernel's types through vmlinux.h, the user side through <linux/types.h>. */
#ifndef LLMM_BPF_EVENT_H
#define LLMM_BPF_EVENT_H

enum llmm_bpf_kind {
    LLMM_BPF_RETRANS = 1, /* tcp_retransmit_skb with err == 0; value: segments */
    LLMM_BPF_SYNACK = 2,  /* tcp_retransmit_synack; value: 1 */
    LLMM_BPF_MAJFLT = 3,  /* PERF_COUNT_SW_PAGE_FAULTS_MAJ; value: the faulting address */
    LLMM_BPF_RUNQ = 4,    /* a run-queue wait ended; value: its length in ns */
};

/* Counters, one slot each in a per-CPU array. */
enum llmm_bpf_stat {
    LLMM_BPF_STAT_LOST = 0,       /* records the ring had no room for */
    LLMM_BPF_STAT_RETRANS_FAILED, /* retransmit attempts with err != 0 (not counted) */
    LLMM_BPF_STAT_QUEUE_FULL,     /* runnable threads the wait table had no room for */
    LLMM_BPF_STAT_COUNT
};

struct llmm_bpf_event {
    __u64 ts_ns;    /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
    __u64 value;    /* see enum llmm_bpf_kind */
    __u32 kind;     /* enum llmm_bpf_kind */
    __u32 pid;      /* thread group (faults, waits); the sending process when known, else 0 */
    __u32 tid;      /* thread (faults, waits); else 0 */
    __u32 netns;    /* retransmits: the network namespace's inode number */
    __u16 family;   /* retransmits: AF_INET or AF_INET6 */
    __u16 sport;    /* retransmits: local port, host order */
    __u16 dport;    /* retransmits: remote port, host order */
    __u8 ca_state;  /* retransmits: icsk_ca_state (0 open … 4 loss) */
    __u8 state;     /* retransmits: the socket's TCP state */
    __u8 saddr[16]; /* retransmits: local address (IPv4: the first 4 bytes) */
    __u8 daddr[16]; /* retransmits: remote address */
};

#endif /* LLMM_BPF_EVENT_H */
