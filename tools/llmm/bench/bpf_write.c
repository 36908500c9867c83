/* bpf_write.c: what `llmm bench --bpf` writes of a level's kernel events (bench/bpf.h): the
 * result file's per-request keys and "kernel" object (doc/bench.md), and the summary lines. */
#include "bench/bpf.h"

#include <math.h>

#include "bench/results.h"
#include "common/bpfsig.h"

static uint64_t ns_of(double t)
{
    return t > 0 ? (uint64_t)(t * 1e9 + 0.5) : 0;
}

enum { K_PORT, K_END, K_RETRANS, K_FAULTS, K_JITTER, K_NUM };
static const char *const key_name[K_NUM] = {"local_ports", "end_times", "kernel_retransmits",
                                            "kernel_major_faults", "kernel_sched_jitter"};

static double value(const llmm_bench_rec *x, int k)
{
    switch (k) {
    case K_PORT:
        return x->local_port ? (double)x->local_port : NAN;
    case K_END:
        return x->end;
    case K_RETRANS:
        return (double)x->kev_retrans;
    case K_FAULTS:
        return (double)x->kev_major_faults;
    default:
        return (double)x->kev_sched_jitter;
    }
}

void llmm_bench_kev_lists(llmm_cli_jw *w, const llmm_bench_result *r, int phase)
{
    const llmm_bench_kevents *k = r->kev;
    if (!k || k->n != r->n)
        return;
    for (int j = 0; j < K_NUM; j++) {
        llmm_cli_jw_key_arr(w, key_name[j]);
        for (size_t i = 0; i < r->n; i++)
            if (r->rec[i].phase == phase)
                llmm_cli_jw_num(w, value(&r->rec[i], j));
        llmm_cli_jw_arr_end(w);
    }
    /* each event's dt_ns: its time minus the request's start_time */
    llmm_cli_jw_key_arr(w, "kernel_events");
    for (size_t i = 0; i < r->n; i++) {
        if (r->rec[i].phase != phase)
            continue;
        llmm_cli_jw_arr(w);
        for (size_t e = k->at[i]; e < k->at[i + 1]; e++)
            llmm_cli_bpfsig_event(w, &k->ev[e], ns_of(r->rec[i].sent));
        llmm_cli_jw_arr_end(w);
    }
    llmm_cli_jw_arr_end(w);
}

static const char *const gap_name[2] = {"ttft", "itl"};
static const char *const q_name[2] = {"p99", "p99.9"};

void llmm_bench_kev_summary(llmm_cli_jw *w, const llmm_bench_result *r)
{
    const llmm_bench_kevents *k = r->kev;
    if (!k)
        return;
    llmm_cli_jw_key_map(w, "kernel");
    llmm_cli_jw_key(w, "server_pid");
    if (k->server_pid)
        llmm_cli_jw_u64(w, k->server_pid);
    else
        llmm_cli_jw_null(w);
    llmm_cli_jw_kv(w, "runq_above_s", (double)k->runq_above_ns * 1e-9);
    llmm_cli_jw_kv_u64(w, "lost", k->lost);
    llmm_cli_jw_kv_u64(w, "over", k->over);
    llmm_cli_jw_kv_u64(w, "unlisted", k->unlisted);
    llmm_cli_jw_kv_u64(w, "unattributed_retransmits", k->unattributed);
    llmm_cli_jw_key_map(w, "spikes");
    for (int g = 0; g < 2; g++) {
        llmm_cli_jw_key_map(w, gap_name[g]);
        for (int q = 0; q < 2; q++)
            LLMM_CLI_JW_NUM_MAP(w, q_name[q], {"threshold_s", k->threshold[g][q]},
                                {"count", (double)k->spikes[g][q]},
                                {"with_event", (double)k->hit[g][q]});
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_map_end(w);
    llmm_cli_jw_map_end(w);
}

void llmm_bench_kev_print(FILE *f, const llmm_bench_result *r)
{
    const llmm_bench_kevents *k = r->kev;
    uint64_t segs = 0, faults = 0, jitter = 0, hit = 0;
    if (!k)
        return;
    for (size_t i = 0; i < r->n; i++) {
        segs += r->rec[i].kev_retrans;
        hit += r->rec[i].kev_retrans > 0;
        faults += r->rec[i].kev_major_faults;
        jitter += r->rec[i].kev_sched_jitter;
    }
    fprintf(f,
            "  kernel events (--bpf): %llu retransmitted segments on %llu requests (%llu of "
            "no request)",
            (unsigned long long)segs, (unsigned long long)hit, (unsigned long long)k->unattributed);
    if (k->server_pid)
        fprintf(f, ", server %u: %llu major faults and %llu sched.jitter waits in largest gaps",
                k->server_pid, (unsigned long long)faults, (unsigned long long)jitter);
    if (k->lost || k->over)
        fprintf(f, "; %llu events lost, %llu over the bound", (unsigned long long)k->lost,
                (unsigned long long)k->over);
    fputc('\n', f);
    llmm_bench_kev_print_spikes(f, "  ", k);
}

void llmm_bench_kev_print_spikes(FILE *f, const char *lead, const llmm_bench_kevents *k)
{
    fprintf(f, "%sspikes with a kernel event:", lead);
    for (int g = 0; g < 2; g++)
        for (int q = 0; q < 2; q++)
            fprintf(f, "%s %s > %s %llu/%llu", g || q ? "," : "", g ? "ITL" : "TTFT",
                    q ? "P99.9" : "P99", (unsigned long long)k->hit[g][q],
                    (unsigned long long)k->spikes[g][q]);
    fputc('\n', f);
}
