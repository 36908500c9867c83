/* bpf.c: the kernel-event collector of `llmm bench --bpf` (bench/bpf.h): loaded once for the
 * run, read with every 50 ms sample into a bounded store, the connections learnt from libcurl
 * as requests end, and each level's events attributed when it ends (bench/bpf_attr.c). */
#include "bench/bpf.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "cmd/command.h"
#include "collector.h"

struct llmm_bench_bpf {
    llmm_bpf *c;
    uint32_t server_pid, netns;
    uint64_t runq_above_ns;
    struct llmm_bpf_event *ev; /* read since the level started, at most LLMM_BENCH_KEV_KEPT */
    size_t n, cap;
    uint64_t over;
    llmm_bench_conn *conn; /* by request of the level */
    size_t nconn;
    uint64_t lost; /* the ring's losses as of the last level */
    int nomem;
};

/* The collector's callback: retransmits, and the server's faults and long waits. */
static void on_event(void *user, const struct llmm_bpf_event *e)
{
    llmm_bench_bpf *b = user;
    if (e->kind == LLMM_BPF_MAJFLT || e->kind == LLMM_BPF_RUNQ) {
        if (!b->server_pid || e->pid != b->server_pid ||
            (e->kind == LLMM_BPF_RUNQ && e->value < b->runq_above_ns))
            return;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        struct llmm_bpf_event *v;
        cap = cap < LLMM_BENCH_KEV_KEPT ? cap : LLMM_BENCH_KEV_KEPT;
        v = b->n < LLMM_BENCH_KEV_KEPT ? realloc(b->ev, cap * sizeof *v) : NULL;
        if (!v) {
            b->over++;
            return;
        }
        b->ev = v;
        b->cap = cap;
    }
    b->ev[b->n++] = *e;
}

/* The port of url (its scheme's when it names none): 0, or -1. */
static int url_port(const char *url, uint16_t *port)
{
    CURLU *u = curl_url();
    char *p = NULL;
    long v = 0;
    if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) == CURLUE_OK)
        v = strtol(p, NULL, 10);
    curl_free(p);
    curl_url_cleanup(u);
    *port = (uint16_t)v;
    return v > 0 && v < 65536 ? 0 : -1;
}

int llmm_bench_bpf_open(const char *url, uint32_t server_pid, double runq_above_s,
                        llmm_bench_bpf **out, llmm_cli_error *err)
{
    llmm_bench_bpf *b;
    llmm_bpf_target t;
    struct stat st;
    uint16_t port;
    char msg[512];
    int rc;
    *out = NULL;
    if (url_port(url, &port) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--bpf: no port in --url %s", url);
    if (server_pid && kill((pid_t)server_pid, 0) != 0 && errno == ESRCH)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--server-pid %u: no such process", server_pid);
    if (stat("/proc/self/ns/net", &st) != 0)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "--bpf: /proc/self/ns/net: %s", strerror(errno));
    if (!(b = calloc(1, sizeof *b)))
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    b->server_pid = server_pid;
    b->netns = (uint32_t)st.st_ino;
    b->runq_above_ns = (uint64_t)(runq_above_s * 1e9 + 0.5);
    memset(&t, 0, sizeof t);
    t.ports = &port;
    t.n_ports = 1;
    t.pids = &b->server_pid;
    t.n_pids = server_pid != 0;
    rc = llmm_bpf_open(&t, on_event, b, &b->c, msg, sizeof msg);
    if (rc != 0) {
        free(b);
        return llmm_cli_fail(err, rc == -EINVAL || rc == -E2BIG ? LLMM_CLI_EUSAGE : LLMM_CLI_EIO,
                             "--bpf: %s", msg);
    }
    *out = b;
    return LLMM_CLI_OK;
}

void llmm_bench_bpf_sample(llmm_bench_bpf *b)
{
    if (b)
        llmm_bpf_drain(b->c);
}

/* conn[0, n) exist (the new ones zero: unknown). */
static int conns(llmm_bench_bpf *b, size_t n)
{
    llmm_bench_conn *v;
    if (n <= b->nconn)
        return 0;
    v = realloc(b->conn, n * sizeof *v);
    if (!v)
        return -1;
    memset(v + b->nconn, 0, (n - b->nconn) * sizeof *v);
    b->conn = v;
    b->nconn = n;
    return 0;
}

void llmm_bench_bpf_ended(llmm_bench_bpf *b, size_t rec, void *easy)
{
    char *lip = NULL, *rip = NULL;
    long lport = 0, rport = 0;
    llmm_bench_conn *c;
    if (!b)
        return;
    if (conns(b, rec < b->nconn ? 0 : (rec + 1) * 2) != 0) {
        b->nomem = 1;
        return;
    }
    c = &b->conn[rec];
    memset(c, 0, sizeof *c);
    if (curl_easy_getinfo(easy, CURLINFO_LOCAL_IP, &lip) != CURLE_OK ||
        curl_easy_getinfo(easy, CURLINFO_PRIMARY_IP, &rip) != CURLE_OK ||
        curl_easy_getinfo(easy, CURLINFO_LOCAL_PORT, &lport) != CURLE_OK ||
        curl_easy_getinfo(easy, CURLINFO_PRIMARY_PORT, &rport) != CURLE_OK || !lip || !rip ||
        lport <= 0 || lport > 65535 || rport <= 0 || rport > 65535)
        return; /* no connection: no retransmit of its own */
    if (inet_pton(AF_INET, lip, c->laddr) == 1 && inet_pton(AF_INET, rip, c->raddr) == 1)
        c->family = AF_INET;
    else if (inet_pton(AF_INET6, lip, c->laddr) == 1 && inet_pton(AF_INET6, rip, c->raddr) == 1)
        c->family = AF_INET6;
    c->lport = (uint16_t)lport;
    c->rport = (uint16_t)rport;
}

int llmm_bench_bpf_level(llmm_bench_bpf *b, llmm_bench_result *r, llmm_cli_error *err)
{
    uint64_t st[LLMM_BPF_STAT_COUNT];
    int rc;
    llmm_bpf_drain(b->c);
    llmm_bpf_stats(b->c, st);
    if (b->nomem || conns(b, r->n) != 0)
        rc = LLMM_CLI_ENOMEM;
    else
        rc = llmm_bench_kev_attribute(r, b->ev, b->n, b->conn, b->netns, b->server_pid,
                                      b->runq_above_ns);
    if (rc == LLMM_CLI_OK) {
        r->kev->lost = st[LLMM_BPF_STAT_LOST] - b->lost;
        r->kev->over = b->over;
    }
    b->lost = st[LLMM_BPF_STAT_LOST];
    b->n = 0;
    b->over = 0;
    memset(b->conn, 0, b->nconn * sizeof *b->conn);
    return rc == LLMM_CLI_OK ? rc : llmm_cli_fail(err, rc, "--bpf: out of memory");
}

void llmm_bench_bpf_close(llmm_bench_bpf *b)
{
    uint64_t st[LLMM_BPF_STAT_COUNT];
    if (!b)
        return;
    llmm_bpf_stats(b->c, st);
    if (st[LLMM_BPF_STAT_LOST] || st[LLMM_BPF_STAT_QUEUE_FULL])
        llmm_cli_say(&llmm_cli_command_bench, 0,
                     "--bpf: %llu events lost to a full ring buffer, %llu waits to a full "
                     "wait table",
                     (unsigned long long)st[LLMM_BPF_STAT_LOST],
                     (unsigned long long)st[LLMM_BPF_STAT_QUEUE_FULL]);
    if (st[LLMM_BPF_STAT_RETRANS_FAILED])
        llmm_cli_say(&llmm_cli_command_bench, 0,
                     "--bpf: %llu retransmit attempts failed (not counted)",
                     (unsigned long long)st[LLMM_BPF_STAT_RETRANS_FAILED]);
    llmm_bpf_close(b->c);
    free(b->ev);
    free(b->conn);
    free(b);
}
