/* collector.bpf.c: the kernel side of the event collector (collector.h), CO-RE, compiled by
 * clang -target bpf against the build machine's vmlinux.h. Every program keeps to the
 * targets the collector sets before loading (thread groups, one cgroup v2, local or remote
 * TCP ports) and hands one struct llmm_bpf_event per event to user space through one ring
 * buffer; a record the ring has no room for is counted (LLMM_BPF_STAT_LOST), never dropped
 * silently. The counting rules are the kernel's own, cited per program; doc/bpf.md has them
 * for users. */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "event.h"

#define AF_INET 2
#define AF_INET6 10
#define IPPROTO_TCP 6
#define TCP_CLOSE 7
#define TASK_RUNNING 0

char LICENSE[] SEC("license") = "GPL"; /* tp_btf and perf_event programs need GPL helpers */

/* Set by the collector before loading. */
const volatile __u32 want_pids = 0;   /* the pids map holds targets */
const volatile __u32 want_cgroup = 0; /* cg_id at cg_level is a target */
const volatile __u32 want_ports = 0;  /* the ports map holds targets */
const volatile __u32 cg_level = 0;
const volatile __u64 cg_id = 0;
const volatile __u64 wake_bytes = 1 << 20; /* wake the reader once this much is waiting */

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 256);
    __type(key, __u32); /* tgid */
    __type(value, __u8);
} pids SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 64);
    __type(key, __u16); /* port, host order */
    __type(value, __u8);
} ports SEC(".maps");

/* Sockets a target task used (connect, listen, send, receive): retransmits run in softirq
 * or timer context, where the current task is anybody's. LRU: bounded, the least recently
 * used forgotten first; a closed socket is removed at once. */
struct {
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 16384);
    __type(key, __u64);   /* struct sock * */
    __type(value, __u32); /* tgid of the task that used it */
} socks SEC(".maps");

/* Threads of targets that are runnable but not running: tid → when they became runnable. */
/* The socket inodes the target processes held when the collector started (their
 * /proc/PID/fd), so that a connection or listener older than the collector is known too. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 65536);
    __type(key, __u64);   /* inode number */
    __type(value, __u32); /* tgid */
} inodes SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 65536);
    __type(key, __u32);
    __type(value, __u64);
} queued SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 22); /* the collector resizes it before loading */
} rb SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, LLMM_BPF_STAT_COUNT);
    __type(key, __u32);
    __type(value, __u64);
} stats SEC(".maps");

static __always_inline void count(__u32 which)
{
    __u64 *v = bpf_map_lookup_elem(&stats, &which);
    if (v)
        *v += 1; /* per CPU: no other writer */
}

/* Hand a record over. A wake-up per record costs the sending CPU an interrupt (measured in a
 * VM: the sched_switch program went from 0.2 to 2.6 us per run): the reader drains the ring
 * at each interval anyway, and is woken early only when a quarter of the ring is waiting. */
static __always_inline void submit(struct llmm_bpf_event *e)
{
    bpf_ringbuf_submit(e, bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= wake_bytes
                              ? BPF_RB_FORCE_WAKEUP
                              : BPF_RB_NO_WAKEUP);
}

static __always_inline struct llmm_bpf_event *reserve(__u32 kind)
{
    struct llmm_bpf_event *e = bpf_ringbuf_reserve(&rb, sizeof *e, 0);
    if (!e) {
        count(LLMM_BPF_STAT_LOST);
        return NULL;
    }
    __builtin_memset(e, 0, sizeof *e);
    e->ts_ns = bpf_ktime_get_ns();
    e->kind = kind;
    return e;
}

/* Is cg the target cgroup or under it? The kernel's cgroup_is_descendant(): cg has the
 * target as its ancestor at the target's level. */
static __always_inline int cgroup_targeted(struct cgroup *cg)
{
    struct cgroup *anc = NULL;
    int level;
    if (!cg)
        return 0;
    level = BPF_CORE_READ(cg, level);
    if (level < (int)cg_level)
        return 0;
    bpf_probe_read_kernel(&anc, sizeof anc,
                          (char *)cg + bpf_core_field_offset(struct cgroup, ancestors) +
                              (unsigned long)cg_level * sizeof anc);
    return anc && BPF_CORE_READ(anc, kn, id) == cg_id;
}

/* Is t in a target thread group or under the target cgroup? */
static __always_inline int task_targeted(struct task_struct *t)
{
    if (want_pids) {
        __u32 tgid = BPF_CORE_READ(t, tgid);
        if (bpf_map_lookup_elem(&pids, &tgid))
            return 1;
    }
    return want_cgroup && cgroup_targeted(BPF_CORE_READ(t, cgroups, dfl_cgrp));
}

static __always_inline int port_targeted(__u16 sport, __u16 dport)
{
    return want_ports &&
           (bpf_map_lookup_elem(&ports, &sport) || bpf_map_lookup_elem(&ports, &dport));
}

/* --- TCP retransmits --------------------------------------------------------------------- */

/* Remember a TCP socket a target task touches in process context. */
static __always_inline void mark_sock(const struct sock *sk)
{
    struct task_struct *t;
    __u64 key = (__u64)sk;
    __u32 tgid;
    if (!(want_pids || want_cgroup) || BPF_CORE_READ(sk, sk_protocol) != IPPROTO_TCP)
        return;
    t = bpf_get_current_task_btf();
    if (!task_targeted(t))
        return;
    tgid = BPF_CORE_READ(t, tgid);
    bpf_map_update_elem(&socks, &key, &tgid, BPF_ANY);
}

/* connect() (→ SYN_SENT) and listen() (→ LISTEN) run in the caller's context; every
 * transition to CLOSE forgets the socket, whoever runs it. */
SEC("tp_btf/inet_sock_set_state")
int BPF_PROG(on_set_state, const struct sock *sk, const int oldstate, const int newstate)
{
    if (newstate == TCP_CLOSE) {
        __u64 key = (__u64)sk;
        bpf_map_delete_elem(&socks, &key);
        return 0;
    }
    mark_sock(sk);
    return 0;
}

/* tcp_sendmsg_locked() takes a new segment: an accepted socket is known from the start of
 * the target's first write to it, before anything of it can be retransmitted. */
SEC("tp_btf/tcp_sendmsg_locked")
int BPF_PROG(on_send, const struct sock *sk, const struct msghdr *msg, const struct sk_buff *skb,
             int size_goal)
{
    mark_sock(sk);
    return 0;
}

/* And from its first read (sock_recvmsg), which a server does before it answers. */
SEC("tp_btf/sock_recv_length")
int BPF_PROG(on_recv, struct sock *sk, int ret, int flags)
{
    mark_sock(sk);
    return 0;
}

static __always_inline void fill_tuple(struct llmm_bpf_event *e, const struct sock_common *c)
{
    e->family = BPF_CORE_READ(c, skc_family);
    e->sport = BPF_CORE_READ(c, skc_num);
    e->dport = bpf_ntohs(BPF_CORE_READ(c, skc_dport));
    e->state = BPF_CORE_READ(c, skc_state);
    e->netns = BPF_CORE_READ(c, skc_net.net, ns.inum);
    if (e->family == AF_INET6) {
        BPF_CORE_READ_INTO(&e->saddr, c, skc_v6_rcv_saddr.in6_u.u6_addr8);
        BPF_CORE_READ_INTO(&e->daddr, c, skc_v6_daddr.in6_u.u6_addr8);
    } else {
        BPF_CORE_READ_INTO((__u32 *)e->saddr, c, skc_rcv_saddr);
        BPF_CORE_READ_INTO((__u32 *)e->daddr, c, skc_daddr);
    }
}

/* Is this socket a target's: by port, remembered from a target's use, held by a target when
 * the collector started, or made in the target cgroup (the socket's own cgroup, which the
 * kernel sets when it is made and an accepted socket takes from its listener)? */
static __always_inline int sock_targeted(const struct sock *sk, __u32 *tgid)
{
    __u64 key = (__u64)sk;
    __u32 *owner;
    __u16 sport = BPF_CORE_READ(sk, __sk_common.skc_num);
    __u16 dport = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
    *tgid = 0;
    if (want_pids || want_cgroup) {
        owner = bpf_map_lookup_elem(&socks, &key);
        if (!owner && want_pids) {
            __u64 ino = BPF_CORE_READ(sk, sk_socket, file, f_inode, i_ino);
            owner = ino ? bpf_map_lookup_elem(&inodes, &ino) : NULL;
        }
        if (owner) {
            *tgid = *owner;
            return 1;
        }
        if (want_cgroup && cgroup_targeted(BPF_CORE_READ(sk, sk_cgrp_data.cgroup)))
            return 1;
    }
    return port_targeted(sport, dport);
}

/* __tcp_retransmit_skb(): tcp_info's tcpi_total_retrans grows by tcp_skb_pcount(skb) for an
 * attempt that succeeds (err == 0); a failed attempt is counted apart. */
SEC("tp_btf/tcp_retransmit_skb")
int BPF_PROG(on_retransmit, const struct sock *sk, const struct sk_buff *skb, int err)
{
    const struct tcp_skb_cb *cb = (const struct tcp_skb_cb *)&skb->cb[0];
    const struct inet_connection_sock *icsk = (const struct inet_connection_sock *)sk;
    struct llmm_bpf_event *e;
    __u32 tgid;
    __u16 segs;
    if (!sock_targeted(sk, &tgid))
        return 0;
    if (err != 0) {
        count(LLMM_BPF_STAT_RETRANS_FAILED);
        return 0;
    }
    e = reserve(LLMM_BPF_RETRANS);
    if (!e)
        return 0;
    segs = BPF_CORE_READ(cb, tcp_gso_segs);
    e->value = segs ? segs : 1;
    e->pid = tgid;
    e->ca_state = (__u8)BPF_CORE_READ_BITFIELD_PROBED(icsk, icsk_ca_state);
    fill_tuple(e, &sk->__sk_common);
    submit(e);
    return 0;
}

/* tcp_rtx_synack(): fires only when the SYN-ACK went out; the child socket starts with
 * tcpi_total_retrans = the request's num_retrans, so each counts one. The tuple is the
 * request's, the listener's port and namespace. */
SEC("tp_btf/tcp_retransmit_synack")
int BPF_PROG(on_synack, const struct sock *sk, const struct request_sock *req)
{
    struct llmm_bpf_event *e;
    __u32 tgid;
    if (!sock_targeted(sk, &tgid)) {
        __u16 sport = BPF_CORE_READ(req, __req_common.skc_num);
        __u16 dport = bpf_ntohs(BPF_CORE_READ(req, __req_common.skc_dport));
        if (!port_targeted(sport, dport))
            return 0;
    }
    e = reserve(LLMM_BPF_SYNACK);
    if (!e)
        return 0;
    e->value = 1;
    e->pid = tgid;
    fill_tuple(e, &req->__req_common);
    e->state = BPF_CORE_READ(sk, __sk_common.skc_state);
    e->netns = BPF_CORE_READ(sk, __sk_common.skc_net.net, ns.inum);
    submit(e);
    return 0;
}

/* --- major faults ------------------------------------------------------------------------ */

/* A perf software event PAGE_FAULTS_MAJ, sample period 1, on every CPU: mm_account_fault()
 * raises it where it counts the task's maj_flt (what /proc/PID/task/TID/stat shows), in the
 * faulting thread's context. */
SEC("perf_event")
int on_major_fault(struct bpf_perf_event_data *ctx)
{
    struct task_struct *t = bpf_get_current_task_btf();
    struct llmm_bpf_event *e;
    __u64 id;
    if (!task_targeted(t))
        return 0;
    e = reserve(LLMM_BPF_MAJFLT);
    if (!e)
        return 0;
    id = bpf_get_current_pid_tgid();
    e->pid = (__u32)(id >> 32);
    e->tid = (__u32)id;
    e->value = ctx->addr;
    submit(e);
    return 0;
}

/* --- run-queue waits --------------------------------------------------------------------- */

/* sched_info (kernel/sched/stats.h) counts run delay from the moment a task is queued
 * runnable (woken, or switched out still TASK_RUNNING) to the moment it is switched in. */
static __always_inline void enqueue(struct task_struct *p)
{
    __u32 tid;
    __u64 now;
    if (!task_targeted(p))
        return;
    tid = BPF_CORE_READ(p, pid);
    now = bpf_ktime_get_ns();
    if (bpf_map_update_elem(&queued, &tid, &now, BPF_ANY) != 0)
        count(LLMM_BPF_STAT_QUEUE_FULL);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_wakeup, struct task_struct *p)
{
    if (BPF_CORE_READ(p, on_cpu)) /* woken before it got off its CPU: never queued */
        return 0;
    enqueue(p);
    return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(on_wakeup_new, struct task_struct *p)
{
    enqueue(p);
    return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
             unsigned int prev_state)
{
    struct llmm_bpf_event *e;
    __u64 *since, now;
    __u32 tid;
    if (task_targeted(prev)) {
        tid = BPF_CORE_READ(prev, pid);
        if (prev_state == TASK_RUNNING) {
            now = bpf_ktime_get_ns();
            if (bpf_map_update_elem(&queued, &tid, &now, BPF_ANY) != 0)
                count(LLMM_BPF_STAT_QUEUE_FULL);
        } else {
            bpf_map_delete_elem(&queued, &tid); /* blocked: any stale wake-up is void */
        }
    }
    if (!task_targeted(next))
        return 0;
    tid = BPF_CORE_READ(next, pid);
    since = bpf_map_lookup_elem(&queued, &tid);
    if (!since)
        return 0;
    now = bpf_ktime_get_ns();
    e = reserve(LLMM_BPF_RUNQ);
    if (e) {
        e->ts_ns = now;
        e->value = now > *since ? now - *since : 0;
        e->pid = BPF_CORE_READ(next, tgid);
        e->tid = tid;
        submit(e);
    }
    bpf_map_delete_elem(&queued, &tid);
    return 0;
}
