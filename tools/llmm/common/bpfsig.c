/* bpfsig.c: kernel events per sample line (bpfsig.h). */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "common/bpfsig.h"
#include "common/error.h"

int llmm_cli_bpfsig_init(llmm_cli_bpfsig *b, uint64_t runq_above_ns, size_t max_events)
{
    memset(b, 0, sizeof *b);
    b->runq_above_ns = runq_above_ns;
    b->max_events = max_events;
    b->ev = malloc((max_events ? max_events : 1) * sizeof *b->ev); /* bounded, once */
    if (!b->ev || llmm_sketch_new(NULL, 8, &b->runq) != LLMM_OK ||
        llmm_sketch_new(NULL, 8, &b->runq_all) != LLMM_OK) {
        llmm_cli_bpfsig_free(b);
        return LLMM_CLI_ENOMEM;
    }
    return LLMM_CLI_OK;
}

void llmm_cli_bpfsig_free(llmm_cli_bpfsig *b)
{
    free(b->ev);
    llmm_sketch_free(b->runq);
    llmm_sketch_free(b->runq_all);
    memset(b, 0, sizeof *b);
}

void llmm_cli_bpfsig_add(void *self, const struct llmm_bpf_event *e)
{
    llmm_cli_bpfsig *b = self;
    if (e->kind == LLMM_BPF_RUNQ) {
        llmm_sketch_add(b->runq, (double)e->value * 1e-9);
        if (e->value < b->runq_above_ns)
            return;
    }
    if (b->n == b->max_events) {
        b->over++;
        return;
    }
    b->ev[b->n++] = *e;
}

static const char *event_name(uint32_t kind)
{
    switch (kind) {
    case LLMM_BPF_RETRANS:
    case LLMM_BPF_SYNACK:
        return LLMM_EVENT_ATTR_TCP_RETRANSMIT;
    case LLMM_BPF_MAJFLT:
        return LLMM_EVENT_ATTR_MAJOR_FAULT;
    default:
        return LLMM_EVENT_ATTR_SCHED_JITTER;
    }
}

/* icsk_ca_state (include/net/tcp.h, enum tcp_ca_state) */
static const char *ca_name(unsigned s)
{
    static const char *const n[] = {"open", "disorder", "cwr", "recovery", "loss"};
    return s < 5 ? n[s] : "unknown";
}

static void address(llmm_cli_jw *w, const char *key, int family, const uint8_t *a)
{
    char s[INET6_ADDRSTRLEN];
    if (!inet_ntop(family == 10 ? AF_INET6 : AF_INET, a, s, sizeof s))
        s[0] = '\0';
    llmm_cli_jw_kv_str(w, key, s);
}

void llmm_cli_bpfsig_event(llmm_cli_jw *w, const struct llmm_bpf_event *e, uint64_t t_mono_ns)
{
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv_str(w, "event", event_name(e->kind));
    llmm_cli_jw_kv_i64(w, "dt_ns", (int64_t)(e->ts_ns - t_mono_ns));
    if (e->pid)
        llmm_cli_jw_kv_u64(w, "pid", e->pid);
    if (e->tid)
        llmm_cli_jw_kv_u64(w, "tid", e->tid);
    if (e->kind == LLMM_BPF_RUNQ)
        llmm_cli_jw_kv_u64(w, "wait_ns", e->value);
    if (e->kind == LLMM_BPF_MAJFLT)
        llmm_cli_jw_kv_u64(w, "addr", e->value);
    if (e->kind == LLMM_BPF_RETRANS || e->kind == LLMM_BPF_SYNACK) {
        llmm_cli_jw_kv_u64(w, "segs", e->value);
        if (e->kind == LLMM_BPF_SYNACK)
            llmm_cli_jw_kv_bool(w, "synack", 1);
        else
            llmm_cli_jw_kv_str(w, "ca_state", ca_name(e->ca_state));
        llmm_cli_jw_kv_u64(w, "netns", e->netns);
        address(w, "saddr", e->family, e->saddr);
        llmm_cli_jw_kv_u64(w, "sport", e->sport);
        address(w, "daddr", e->family, e->daddr);
        llmm_cli_jw_kv_u64(w, "dport", e->dport);
    }
    llmm_cli_jw_map_end(w);
}

static void runq(llmm_cli_jw *w, const llmm_sketch *s)
{
    static const double q[3] = {0.5, 0.99, 1.0};
    double v[3] = {0, 0, 0}, sum = 0;
    uint64_t n = llmm_sketch_count(s);
    if (n > 0) {
        llmm_sketch_sum(s, &sum);
        llmm_sketch_quantiles(s, q, 3, v);
        llmm_sketch_max(s, &v[2]);
    }
    llmm_cli_jw_key_map(w, "runq");
    llmm_cli_jw_kv_u64(w, "count", n);
    llmm_cli_jw_kv(w, "sum_s", sum);
    llmm_cli_jw_kv(w, "p50_s", v[0]);
    llmm_cli_jw_kv(w, "p99_s", v[1]);
    llmm_cli_jw_kv(w, "max_s", v[2]);
    llmm_cli_jw_map_end(w);
}

void llmm_cli_bpfsig_write(llmm_cli_bpfsig *b, llmm_cli_jw *w, uint64_t t_mono_ns)
{
    size_t kept = 0;
    llmm_cli_jw_key_map(w, "bpf");
    llmm_cli_jw_kv_u64(w, "lost", b->lost - b->lost_written);
    llmm_cli_jw_kv_u64(w, "over", b->over);
    runq(w, b->runq);
    llmm_cli_jw_key_arr(w, "events");
    for (size_t i = 0; i < b->n; i++) {
        const struct llmm_bpf_event *e = &b->ev[i];
        if (e->ts_ns <= t_mono_ns) {
            llmm_cli_bpfsig_event(w, e, t_mono_ns);
            b->retrans_segs += e->kind == LLMM_BPF_RETRANS ? e->value : 0;
            b->synacks += e->kind == LLMM_BPF_SYNACK;
            b->faults += e->kind == LLMM_BPF_MAJFLT;
            b->jitters += e->kind == LLMM_BPF_RUNQ;
        } else
            b->ev[kept++] = b->ev[i]; /* after t: the next line's */
    }
    llmm_cli_jw_arr_end(w);
    llmm_cli_jw_map_end(w);
    b->n = kept;
    b->unlisted += b->over;
    b->over = 0;
    llmm_sketch_merge(b->runq_all, b->runq); /* same scale: exact */
    b->lost_written = b->lost;
    llmm_sketch_reset(b->runq);
}
