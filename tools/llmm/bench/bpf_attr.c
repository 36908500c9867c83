/* bpf_attr.c: the attribution rule of `llmm bench --bpf` (bench/bpf.h): a level's kernel
 * events joined to its requests, and the share of the latency spikes that have one. Times on
 * both sides are CLOCK_MONOTONIC, the records' in seconds, the events' in nanoseconds. */
#include "bench/bpf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bench/results.h"

/* An event found by a key (a port for retransmits, none for the server's) and its time. */
typedef struct key {
    uint64_t t;
    uint32_t port, i;
} key;

typedef struct attr {
    const struct llmm_bpf_event *ev;
    const llmm_bench_conn *conn;
    uint32_t netns;
    key *net; /* retransmits, once by each port, by port then time */
    size_t nnet;
    key *srv; /* the server's faults and waits, by time */
    size_t nsrv;
    uint64_t max_wait;
    /* the events of the request being attributed */
    struct llmm_bpf_event *list;
    size_t nlist, caplist;
    int nomem;
} attr;

static uint64_t ns_of(double t)
{
    return t > 0 ? (uint64_t)(t * 1e9 + 0.5) : 0;
}

static int cmp_key(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->port != y->port)
        return x->port < y->port ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

static int cmp_event(const void *a, const void *b)
{
    const struct llmm_bpf_event *x = a, *y = b;
    return (x->ts_ns > y->ts_ns) - (x->ts_ns < y->ts_ns);
}

/* The first of v[0, n) not before (port, t). */
static size_t lower(const key *v, size_t n, uint32_t port, uint64_t t)
{
    key k = {t, port, 0};
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key(&v[mid], &k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int is_retrans(const struct llmm_bpf_event *e)
{
    return e->kind == LLMM_BPF_RETRANS || e->kind == LLMM_BPF_SYNACK;
}

/* Did connection c (either end sending) carry retransmit e? */
static int carried(const struct llmm_bpf_event *e, const llmm_bench_conn *c, uint32_t netns)
{
    size_t len = c->family == AF_INET6 ? 16 : 4;
    if (!c->family || e->family != c->family || e->netns != netns)
        return 0;
    if (e->sport == c->lport && e->dport == c->rport)
        return !memcmp(e->saddr, c->laddr, len) && !memcmp(e->daddr, c->raddr, len);
    if (e->sport == c->rport && e->dport == c->lport)
        return !memcmp(e->saddr, c->raddr, len) && !memcmp(e->daddr, c->laddr, len);
    return 0;
}

static void keep(attr *A, const struct llmm_bpf_event *e)
{
    if (!A->list)
        return;
    if (A->nlist == A->caplist) {
        size_t cap = A->caplist ? A->caplist * 2 : 64;
        struct llmm_bpf_event *v = realloc(A->list, cap * sizeof *v);
        if (!v) {
            A->nomem = 1;
            return;
        }
        A->list = v;
        A->caplist = cap;
    }
    A->list[A->nlist++] = *e;
}

/* The retransmitted segments connection c carried in [a, b] (each event kept when keep). */
static uint64_t net_hits(attr *A, const llmm_bench_conn *c, uint64_t a, uint64_t b, int kept)
{
    uint64_t segs = 0;
    if (!c->family)
        return 0;
    for (size_t j = lower(A->net, A->nnet, c->lport, a);
         j < A->nnet && A->net[j].port == c->lport && A->net[j].t <= b; j++) {
        const struct llmm_bpf_event *e = &A->ev[A->net[j].i];
        if (!carried(e, c, A->netns))
            continue;
        segs += e->value;
        if (kept)
            keep(A, e);
    }
    return segs;
}

/* The server's events of kind (0: either) that overlap [a, b]: a fault at its time, a wait
 * from its start (its end minus its length) to its end. */
static uint64_t srv_hits(attr *A, uint32_t kind, uint64_t a, uint64_t b, int kept)
{
    uint64_t n = 0;
    for (size_t j = lower(A->srv, A->nsrv, 0, a); j < A->nsrv && A->srv[j].t <= b + A->max_wait;
         j++) {
        const struct llmm_bpf_event *e = &A->ev[A->srv[j].i];
        uint64_t start =
            e->kind == LLMM_BPF_RUNQ && e->value < e->ts_ns ? e->ts_ns - e->value : e->ts_ns;
        if (start > b || (kind && e->kind != kind))
            continue;
        n++;
        if (kept)
            keep(A, e);
    }
    return n;
}

/* Request x's largest gap, its TTFT or an ITL (the first of equals): 0 without an output. */
static int largest_gap(const llmm_bench_result *r, const llmm_bench_rec *x, double *a, double *b)
{
    double t, best;
    if (!isfinite(x->first))
        return 0;
    *a = x->sent;
    *b = t = x->first;
    best = x->first - x->sent;
    for (uint32_t j = 0; j < x->nitl; j++) {
        double d = r->itl[x->itl + j];
        if (d > best) {
            best = d;
            *a = t;
            *b = t + d;
        }
        t += d;
    }
    return 1;
}

static int index_events(attr *A, size_t n)
{
    A->net = malloc((2 * n + 1) * sizeof *A->net);
    A->srv = malloc((n + 1) * sizeof *A->srv);
    if (!A->net || !A->srv)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const struct llmm_bpf_event *e = &A->ev[i];
        if (is_retrans(e)) {
            A->net[A->nnet++] = (key){e->ts_ns, e->sport, (uint32_t)i};
            if (e->dport != e->sport)
                A->net[A->nnet++] = (key){e->ts_ns, e->dport, (uint32_t)i};
        } else {
            A->srv[A->nsrv++] = (key){e->ts_ns, 0, (uint32_t)i};
            if (e->kind == LLMM_BPF_RUNQ && e->value > A->max_wait)
                A->max_wait = e->value;
        }
    }
    qsort(A->net, A->nnet, sizeof *A->net, cmp_key);
    qsort(A->srv, A->nsrv, sizeof *A->srv, cmp_key);
    return 0;
}

/* Request i's counts, and its events onto k's list (at most LLMM_BENCH_KEV_LISTED). */
static int one_request(attr *A, llmm_bench_result *r, size_t i, llmm_bench_kevents *k)
{
    llmm_bench_rec *x = &r->rec[i];
    uint64_t end = ns_of(isfinite(x->end) && x->end > 0 ? x->end : x->last);
    double a, b;
    A->nlist = 0;
    x->kev_retrans = (uint32_t)net_hits(A, &A->conn[i], ns_of(x->sent), end, 1);
    x->kev_major_faults = x->kev_sched_jitter = 0;
    if (largest_gap(r, x, &a, &b)) {
        x->kev_major_faults = (uint32_t)srv_hits(A, LLMM_BPF_MAJFLT, ns_of(a), ns_of(b), 1);
        x->kev_sched_jitter = (uint32_t)srv_hits(A, LLMM_BPF_RUNQ, ns_of(a), ns_of(b), 1);
    }
    if (A->nomem)
        return -1;
    qsort(A->list, A->nlist, sizeof *A->list, cmp_event);
    if (A->nlist > LLMM_BENCH_KEV_LISTED) {
        k->unlisted += A->nlist - LLMM_BENCH_KEV_LISTED;
        A->nlist = LLMM_BENCH_KEV_LISTED;
    }
    k->at[i] = k->nev;
    if (A->nlist) {
        struct llmm_bpf_event *v = realloc(k->ev, (k->nev + A->nlist) * sizeof *v);
        if (!v)
            return -1;
        k->ev = v;
        memcpy(k->ev + k->nev, A->list, A->nlist * sizeof *v);
        k->nev += A->nlist;
    }
    return 0;
}

/* Does interval [a, b] of request i hold an event: a retransmit of its connection or a
 * server event overlapping it? */
static int has_event(attr *A, size_t i, double a, double b)
{
    return net_hits(A, &A->conn[i], ns_of(a), ns_of(b), 0) > 0 ||
           srv_hits(A, 0, ns_of(a), ns_of(b), 0) > 0;
}

/* The TTFT (g 0) or ITL (g 1) spikes of the measured window above the P99 and P99.9. */
static int spikes(attr *A, const llmm_bench_result *r, int g, llmm_bench_kevents *k)
{
    double *v = malloc((g ? r->nitl : r->n) * sizeof *v + sizeof *v);
    size_t n = 0;
    if (!v)
        return -1;
    for (size_t i = 0; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        for (uint32_t j = 0; x->measured && j < (g ? x->nitl : 1); j++)
            v[n++] = g ? r->itl[x->itl + j] : x->first - x->sent;
    }
    qsort(v, n, sizeof *v, llmm_bench_cmp_double);
    for (int q = 0; q < 2; q++)
        k->threshold[g][q] = n ? llmm_bench_linear(v, n, q ? 0.999 : 0.99) : NAN;
    free(v);
    for (size_t i = 0; i < r->n && n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        double t = x->first;
        for (uint32_t j = 0; x->measured && j < (g ? x->nitl : 1); j++) {
            double a = g ? t : x->sent, b = g ? t + r->itl[x->itl + j] : x->first;
            int hit = -1; /* not looked for yet */
            t = g ? b : t;
            for (int q = 0; q < 2; q++) {
                if (!(b - a > k->threshold[g][q]))
                    continue;
                if (hit < 0)
                    hit = has_event(A, i, a, b);
                k->spikes[g][q]++;
                k->hit[g][q] += (uint64_t)hit;
            }
        }
    }
    return 0;
}

int llmm_bench_kev_attribute(llmm_bench_result *r, const struct llmm_bpf_event *ev, size_t n,
                             const llmm_bench_conn *conn, uint32_t netns, uint32_t server_pid,
                             uint64_t runq_above_ns)
{
    attr A;
    llmm_bench_kevents *k = calloc(1, sizeof *k);
    uint64_t segs = 0, attributed = 0;
    int rc = 0;
    memset(&A, 0, sizeof A);
    A.ev = ev;
    A.conn = conn;
    A.netns = netns;
    if (!k || !(k->at = calloc(r->n + 1, sizeof *k->at)) || index_events(&A, n) != 0) {
        rc = -1;
    } else {
        k->n = r->n;
        k->server_pid = server_pid;
        k->runq_above_ns = runq_above_ns;
        A.list = malloc(64 * sizeof *A.list);
        A.caplist = A.list ? 64 : 0;
        for (size_t i = 0; i < r->n && rc == 0; i++) {
            rc = A.list ? one_request(&A, r, i, k) : -1;
            attributed += r->rec[i].kev_retrans;
        }
        k->at[r->n] = k->nev;
        for (int g = 0; g < 2 && rc == 0; g++)
            rc = spikes(&A, r, g, k);
        for (size_t i = 0; i < n; i++)
            segs += is_retrans(&ev[i]) ? ev[i].value : 0;
        k->unattributed = segs > attributed ? segs - attributed : 0;
    }
    free(A.net);
    free(A.srv);
    free(A.list);
    if (rc != 0) {
        llmm_bench_kevents_free(k);
        return LLMM_CLI_ENOMEM;
    }
    llmm_bench_kevents_free(r->kev);
    r->kev = k;
    return LLMM_CLI_OK;
}

void llmm_bench_kevents_free(llmm_bench_kevents *k)
{
    if (!k)
        return;
    free(k->ev);
    free(k->at);
    free(k);
}
