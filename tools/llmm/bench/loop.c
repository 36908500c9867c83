/* loop.c: one level of load (client.h) on libcurl's multi-socket interface: epoll waits on
 * the sockets libcurl names and on the earliest of libcurl's timer, the next arrival (open
 * loop), the next 50 ms sample and the next progress line. Requests keep their handles, so
 * libcurl reuses the connections of the multi handle's pool. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "bench/bpf.h"
#include "bench/metrics.h"
#ifdef LLMM_CLI_HAVE_OTLP
#include "bench/otlp.h"
#endif
#include "bench/prompts.h"
#include "bench/request.h"
#include "bench/results.h"
#include "bench/trace.h"
#include "common/hostsig.h"
#include "synth/rng.h"

volatile sig_atomic_t llmm_bench_interrupted;

#define SAMPLE_EVERY 0.05

typedef struct loop {
    const llmm_bench_target *t;
    const llmm_bench_prompts *p;
    const llmm_bench_level *lv;
    const llmm_bench_progress *pr;
    llmm_bench_result *r;
    CURLM *multi;
    int ep;
    long curl_timeout_ms;      /* -1: none */
    llmm_bench_req *slot;
    llmm_bench_req **free_slot; /* a stack */
    size_t nfree, nslot;
    llmm_cli_json tok;
    llmm_cli_rng rng;
    llmm_cli_rng ids;          /* the requests' trace and span ids (bench/trace.h) */
    size_t *order; /* the prompts' order (llmm_bench_prompt_order) */
    uint64_t sent, done, failed;
    uint64_t warm_n;           /* with --num-requests: the first ones sent are not measured */
    double warm_until;         /* with --duration only: requests sent before are not measured */
    double next_arrival;       /* open loop: intended time of the next request */
    double *queue;             /* open loop: intended times waiting for a slot (FIFO) */
    size_t qhead, qn, qcap;
    int stopped;               /* no more requests will be sent */
    double stop_at, grace_end;
    double next_sample, next_progress;
    double prog_t;             /* the last progress line: its time and successes then */
    uint64_t prog_ok;
    int nomem;
} loop;

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
    size_t c;
    void *n;
    if (need <= *cap)
        return 0;
    c = *cap ? *cap * 2 : 256;
    while (c < need)
        c *= 2;
    n = realloc(*v, c * size);
    if (!n)
        return -1;
    *v = n;
    *cap = c;
    return 0;
}

/* ---- libcurl's callbacks ------------------------------------------------------------------ */

static int on_socket(CURL *e, curl_socket_t s, int what, void *ctx, void *sockp)
{
    loop *L = ctx;
    struct epoll_event ev;
    (void)e;
    memset(&ev, 0, sizeof ev);
    ev.data.fd = s;
    if (what == CURL_POLL_REMOVE) {
        if (sockp)
            epoll_ctl(L->ep, EPOLL_CTL_DEL, s, NULL);
        curl_multi_assign(L->multi, s, NULL);
        return 0;
    }
    ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
    if (epoll_ctl(L->ep, sockp ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, s, &ev) != 0 && errno == EEXIST)
        epoll_ctl(L->ep, EPOLL_CTL_MOD, s, &ev);
    curl_multi_assign(L->multi, s, L);
    return 0;
}

static int on_timer(CURLM *m, long ms, void *ctx)
{
    loop *L = ctx;
    (void)m;
    L->curl_timeout_ms = ms;
    return 0;
}

/* ---- sending and finishing requests --------------------------------------------------------- */

static int send_one(loop *L, double intended)
{
    llmm_bench_result *r = L->r;
    llmm_bench_req *q;
    llmm_bench_rec *rec;
    size_t pi;
    if (grow((void **)&r->rec, &r->cap, r->n + 1, sizeof *r->rec) != 0)
        return -1;
    q = L->free_slot[--L->nfree];
    pi = L->order[(L->lv->first_prompt + r->n) % L->p->n];
    rec = &r->rec[r->n];
    memset(rec, 0, sizeof *rec);
    llmm_bench_ids_next(&L->ids, L->t, rec->trace_id, rec->span_id);
    if (llmm_bench_req_start(q, L->t, &L->p->v[pi], r->n, rec) != 0) {
        L->nfree++;
        return -1;
    }
    q->rec = r->n++;
    rec->intended = intended;
    rec->in_tokens = rec->asked_in = L->p->v[pi].in_len;
    rec->asked_exact = !L->p->v[pi].estimated;
    rec->served_in = -1;
    rec->sent = rec->first_sent = llmm_bench_now();
    if (L->sent == 0) {
        r->t0 = rec->sent;
        if (!L->lv->num_requests)
            L->warm_until = r->t0 + L->lv->warmup * L->lv->duration;
    }
    /* a warm-up request: not measured (measured is settled when it ends) */
    rec->measured = L->lv->num_requests ? r->n - 1 >= L->warm_n : rec->sent >= L->warm_until;
    if (rec->measured && r->w0 == 0)
        r->w0 = rec->sent;
    if (curl_multi_add_handle(L->multi, q->easy) != CURLM_OK) {
        L->nfree++;
        r->n--;
        return -1;
    }
    L->sent++;
    if (L->nslot - L->nfree > r->max_in_flight)
        r->max_in_flight = (uint32_t)(L->nslot - L->nfree);
    return 0;
}

static void record(loop *L, llmm_bench_rec *rec, const llmm_bench_req *q)
{
    llmm_bench_result *r = L->r;
    double v[LLMM_BENCH_NSKETCH];
    v[LLMM_BENCH_TTFT] = rec->first - rec->sent;
    v[LLMM_BENCH_E2E] = rec->last - rec->sent;
    v[LLMM_BENCH_TTFT_CO] = rec->first - rec->intended;
    v[LLMM_BENCH_E2E_CO] = rec->last - rec->intended;
    for (int k = 0; k < LLMM_BENCH_NSKETCH; k++) {
        if (k == LLMM_BENCH_ITL)
            continue;
        if (llmm_shard_add(r->sh[k], v[k] < 0 ? 0 : v[k]) != LLMM_OK)
            L->nomem = 1;
    }
    if (q->nitl && llmm_shard_add_many(r->sh[LLMM_BENCH_ITL], q->itl, q->nitl) != LLMM_OK)
        L->nomem = 1;
    r->measured_done++;
}

/* Send q's request again on a fresh connection (llmm_bench_req_should_resend): its send time
 * becomes now. 0, or -1 when the handle cannot be added back. */
static int resend(loop *L, llmm_bench_req *q)
{
    llmm_bench_rec *rec = &L->r->rec[q->rec];
    curl_multi_remove_handle(L->multi, q->easy);
    llmm_bench_req_resend(q);
    rec->sent = llmm_bench_now();
    rec->resends++;
    L->r->resends++;
    return curl_multi_add_handle(L->multi, q->easy) == CURLM_OK ? 0 : -1;
}

static void finish(loop *L, llmm_bench_req *q, CURLcode res)
{
    llmm_bench_result *r = L->r;
    llmm_bench_rec *rec = &r->rec[q->rec];
    int reason;
    double now;
    long connects = 0, port = 0;
    if (curl_easy_getinfo(q->easy, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK && connects > 0)
        r->connects += (uint64_t)connects;
    if (llmm_bench_req_should_resend(q, res) && !llmm_bench_interrupted && resend(L, q) == 0)
        return;
    reason = llmm_bench_req_outcome(q, res);
    now = llmm_bench_now();
    if (curl_easy_getinfo(q->easy, CURLINFO_LOCAL_PORT, &port) == CURLE_OK && port > 0 &&
        port < 65536)
        rec->local_port = (uint16_t)port;
    llmm_bench_bpf_ended(L->pr ? L->pr->bpf : NULL, q->rec, q->easy);
    curl_multi_remove_handle(L->multi, q->easy);
    L->free_slot[L->nfree++] = q;
    if (q->nomem)
        L->nomem = 1;
    rec->reason = reason;
    rec->http_status = q->http_status;
    if (reason != LLMM_BENCH_OK && q->nmsg > 0 && !(rec->msg = strdup(q->msg)))
        L->nomem = 1;
    rec->first = q->first;
    rec->last = q->last;
    rec->chunks = q->chunks;
    rec->usage = q->usage_out >= 0;
    rec->out_tokens = rec->usage ? q->usage_out : (int64_t)q->chunks;
    if (rec->usage && q->usage_in >= 0) {
        rec->served_in = q->usage_in;
        if (!rec->asked_exact) /* the server's count beats an estimate */
            rec->in_tokens = q->usage_in;
    }
    rec->itl = r->nitl;
    rec->nitl = (uint32_t)q->nitl;
    if (grow((void **)&r->itl, &r->capitl, r->nitl + q->nitl, sizeof *r->itl) != 0) {
        L->nomem = 1;
        rec->nitl = 0;
    } else if (q->nitl) {
        memcpy(r->itl + r->nitl, q->itl, q->nitl * sizeof *q->itl);
        r->nitl += q->nitl;
    }
    r->t_end = now;
    rec->end = now;
    /* past the warm-up, and ended while the load was still whole (not the cool-down) */
    rec->windowed = rec->measured && !L->stopped;
    rec->phase = !rec->measured  ? LLMM_BENCH_WARMUP
                 : rec->windowed ? LLMM_BENCH_WINDOW
                                 : LLMM_BENCH_COOLDOWN;
    L->done++;
    if (reason != LLMM_BENCH_OK) {
        rec->measured = 0;
        L->failed++;
        r->failed[reason]++;
        if (reason == LLMM_BENCH_HTTP)
            r->http_status[q->http_status >= 400 && q->http_status < 600 ? q->http_status / 100
                                                                         : 0]++;
        return;
    }
    rec->measured = rec->windowed;
    if (rec->measured)
        record(L, rec, q);
}

static void read_done(loop *L)
{
    CURLMsg *m;
    int left;
    while ((m = curl_multi_info_read(L->multi, &left))) {
        llmm_bench_req *q = NULL;
        if (m->msg != CURLMSG_DONE)
            continue;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&q);
        finish(L, q, m->data.result);
    }
}

/* ---- the schedule --------------------------------------------------------------------------- */

static double gap(loop *L)
{
    const llmm_bench_level *lv = L->lv;
    return lv->poisson ? llmm_cli_rng_exp(&L->rng, 1.0 / lv->rate) : 1.0 / lv->rate;
}

static int may_send_more(loop *L, double now)
{
    const llmm_bench_level *lv = L->lv;
    if (L->stopped)
        return 0;
    if ((lv->num_requests && L->sent + L->qn >= lv->num_requests) ||
        (lv->duration > 0 && L->sent > 0 && now >= L->stop_at) || llmm_bench_interrupted) {
        L->stopped = 1;
        L->r->w1 = now;
        L->r->interrupted = llmm_bench_interrupted != 0;
        return 0;
    }
    return 1;
}

/* Send what the schedule asks for now. */
static int schedule(loop *L, double now)
{
    may_send_more(L, now);
    if (llmm_bench_interrupted)
        L->qn = 0; /* arrivals waiting for a slot are not sent */
    if (!L->lv->open) {
        while (L->nfree > 0 && may_send_more(L, now))
            if (send_one(L, now) != 0)
                return -1;
        return 0;
    }
    while (may_send_more(L, now) && L->next_arrival <= now) {
        if (grow((void **)&L->queue, &L->qcap, L->qhead + L->qn + 1, sizeof *L->queue) != 0)
            return -1;
        L->queue[L->qhead + L->qn++] = L->next_arrival;
        L->next_arrival += gap(L);
    }
    while (L->qn > 0 && L->nfree > 0) {
        if (send_one(L, L->queue[L->qhead]) != 0)
            return -1;
        L->qhead++;
        L->qn--;
    }
    return 0;
}

/* ---- samples and progress ------------------------------------------------------------------- */

/* --host-signals: one sample of the host, one line of its file. */
static void sample_host(const llmm_bench_progress *pr, double now)
{
    if (!pr || !pr->host || *pr->host_failed)
        return;
    if (llmm_host_sample(pr->host, (uint64_t)(now * 1e9), NULL) != LLMM_OK ||
        llmm_cli_hostsig_write(pr->host_file, now, pr->host) != LLMM_CLI_OK)
        *pr->host_failed = 1;
}

static void sample(loop *L, double now)
{
    llmm_bench_result *r = L->r;
    if (grow((void **)&r->series, &r->capseries, r->nseries * 3 + 3, sizeof *r->series) != 0) {
        L->nomem = 1;
        return;
    }
    r->series[r->nseries * 3] = now - r->t0;
    r->series[r->nseries * 3 + 1] = (double)(L->nslot - L->nfree);
    r->series[r->nseries * 3 + 2] = (double)(L->done - L->failed);
    r->nseries++;
    sample_host(L->pr, now);
    llmm_bench_bpf_sample(L->pr ? L->pr->bpf : NULL);
}

static void progress(loop *L, double now, int last)
{
    const llmm_bench_progress *pr = L->pr;
    llmm_sketch *s;
    uint64_t ok = L->done - L->failed;
    double p99 = NAN, el = now - L->r->t0;
    char b[32];
    /* the current QPS: since the last line (the whole level's on the last line) */
    double since = last ? L->r->t0 : L->prog_t, n = (double)(last ? ok : ok - L->prog_ok);
    if (!pr || pr->quiet || (!pr->tty && !last && pr->every <= 0))
        return;
    L->prog_t = now;
    L->prog_ok = ok;
    s = llmm_bench_result_sketch(L->r, LLMM_BENCH_TTFT);
    if (s && llmm_sketch_count(s) > 0)
        llmm_sketch_quantile(s, 0.99, &p99);
    llmm_sketch_free(s);
    fprintf(stderr,
            "%s%s: %.1fs  done %llu  in flight %zu  failed %llu  re-sent %llu  %.1f req/s  "
            "P99 TTFT %s ms%s",
            pr->tty ? "\r\033[K" : "", pr->label, el, (unsigned long long)ok, L->nslot - L->nfree,
            (unsigned long long)L->failed, (unsigned long long)L->r->resends,
            now > since ? n / (now - since) : 0.0, llmm_bench_num(b, sizeof b, "%.1f", p99 * 1e3),
            pr->tty && !last ? "" : "\n");
    fflush(stderr);
}

/* ---- the loop ------------------------------------------------------------------------------- */

static double min2(double a, double b)
{
    return a < b ? a : b;
}

/* How long epoll may wait, in ms. */
static int wait_ms(loop *L, double now)
{
    double until = min2(L->next_sample, L->next_progress);
    double w;
    if (L->lv->open && !L->stopped)
        until = min2(until, L->next_arrival);
    if (L->lv->duration > 0 && !L->stopped)
        until = min2(until, L->stop_at);
    if (L->stopped && L->grace_end > 0)
        until = min2(until, L->grace_end);
    w = (until - now) * 1e3;
    if (L->curl_timeout_ms >= 0 && (double)L->curl_timeout_ms < w)
        w = (double)L->curl_timeout_ms;
    return w <= 0 ? 0 : (int)ceil(w);
}

static int step(loop *L)
{
    struct epoll_event ev[64];
    int running, n;
    double now = llmm_bench_now();
    n = epoll_wait(L->ep, ev, 64, wait_ms(L, now));
    if (n < 0 && errno != EINTR)
        return -1;
    for (int i = 0; i < n; i++) {
        llmm_bench_metrics *m = L->pr ? L->pr->metrics : NULL;
        if (llmm_bench_metrics_owns(m, ev[i].data.fd)) {
            llmm_bench_live live = {L->r, L->pr->label, L->nslot - L->nfree};
            llmm_bench_metrics_event(m, &live);
            continue;
        }
        int flags = (ev[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                    (ev[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                    (ev[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
        curl_multi_socket_action(L->multi, ev[i].data.fd, flags, &running);
    }
    if (L->pr && L->pr->metrics)
        llmm_bench_metrics_expire(L->pr->metrics);
    now = llmm_bench_now();
    if (n <= 0 || L->curl_timeout_ms == 0)
        curl_multi_socket_action(L->multi, CURL_SOCKET_TIMEOUT, 0, &running);
    read_done(L);
    now = llmm_bench_now();
    if (now >= L->next_sample) {
        sample(L, now);
#ifdef LLMM_CLI_HAVE_OTLP
        if (L->pr && L->pr->otlp)
            llmm_bench_otlp_tick(L->pr->otlp, now);
#endif
        L->next_sample += SAMPLE_EVERY;
        if (L->next_sample < now)
            L->next_sample = now + SAMPLE_EVERY;
    }
    if (now >= L->next_progress) {
        progress(L, now, 0);
        L->next_progress = now + (L->pr && !L->pr->tty && L->pr->every > 0 ? L->pr->every : 1.0);
    }
    return schedule(L, now);
}

static void loop_free(loop *L)
{
    for (size_t i = 0; i < L->nslot; i++) {
        if (L->slot[i].easy)
            curl_multi_remove_handle(L->multi, L->slot[i].easy);
        llmm_bench_req_free(&L->slot[i]);
    }
    free(L->slot);
    free(L->free_slot);
    free(L->queue);
    free(L->order);
    if (L->multi)
        curl_multi_cleanup(L->multi);
    if (L->ep >= 0)
        close(L->ep);
    llmm_cli_json_free(&L->tok);
}

static int loop_init(loop *L, size_t nslot)
{
    L->ep = epoll_create1(EPOLL_CLOEXEC);
    L->multi = curl_multi_init();
    L->slot = calloc(nslot, sizeof *L->slot);
    L->free_slot = calloc(nslot, sizeof *L->free_slot);
    if (L->ep < 0 || !L->multi || !L->slot || !L->free_slot)
        return -1;
    L->nslot = nslot;
    for (size_t i = 0; i < nslot; i++) {
        if (llmm_bench_req_init(&L->slot[i], &L->tok) != 0)
            return -1;
        L->free_slot[L->nfree++] = &L->slot[nslot - 1 - i];
    }
    if (L->pr && L->pr->metrics && L->pr->metrics->ep >= 0) {
        struct epoll_event ev = {.events = EPOLLIN};
        ev.data.fd = L->pr->metrics->ep;
        if (epoll_ctl(L->ep, EPOLL_CTL_ADD, ev.data.fd, &ev) != 0)
            return -1;
    }
    curl_multi_setopt(L->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(L->multi, CURLMOPT_SOCKETDATA, L);
    curl_multi_setopt(L->multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl_multi_setopt(L->multi, CURLMOPT_TIMERDATA, L);
    curl_multi_setopt(L->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)nslot);
    return 0;
}

/* Requests still running once the grace period is over: cancelled. */
static void cancel_rest(loop *L)
{
    for (size_t i = 0; i < L->nslot; i++) {
        llmm_bench_req *q = &L->slot[i];
        int busy = 1;
        for (size_t j = 0; j < L->nfree; j++)
            busy &= L->free_slot[j] != q;
        if (busy) {
            q->reason = LLMM_BENCH_CANCELLED;
            finish(L, q, CURLE_OK);
        }
    }
}

static int make_recorders(llmm_bench_result *r)
{
    for (int k = 0; k < LLMM_BENCH_NSKETCH; k++)
        if (llmm_recorder_new(NULL, LLMM_SCALE_DEFAULT, &r->rc[k]) != LLMM_OK ||
            llmm_recorder_shard(r->rc[k], &r->sh[k]) != LLMM_OK)
            return -1;
    return 0;
}

int llmm_bench_run(const llmm_bench_target *t, const llmm_bench_prompts *p,
                   const llmm_bench_level *lv, double grace, const llmm_bench_progress *pr,
                   llmm_bench_result *out, llmm_cli_error *err)
{
    loop *L = calloc(1, sizeof *L);
    size_t nslot = lv->concurrency ? lv->concurrency : 1024;
    int rc = LLMM_CLI_OK;
    double now;
    memset(out, 0, sizeof *out);
    out->level = *lv;
    if (!L)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    L->ep = -1;
    L->t = t;
    L->p = p;
    L->lv = lv;
    L->pr = pr;
    L->r = out;
    L->curl_timeout_ms = -1;
    llmm_cli_rng_seed(&L->rng, lv->seed);
    llmm_bench_ids_seed(&L->ids);
    L->order = llmm_bench_prompt_order(p->n, lv->seed);
    if (!L->order || make_recorders(out) != 0 || loop_init(L, nslot) != 0) {
        loop_free(L);
        free(L);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "cannot set up the event loop: %s",
                             errno ? strerror(errno) : "out of memory");
    }
    L->warm_n = (uint64_t)floor(lv->warmup * (double)lv->num_requests);
    now = llmm_bench_now();
    L->next_arrival = now;
    L->stop_at = now + lv->duration;
    L->next_sample = now;
    L->prog_t = now;
    L->next_progress = now + (pr && !pr->tty && pr->every > 0 ? pr->every : 1.0);
    if (schedule(L, now) != 0)
        L->nomem = 1;
    while (!L->nomem && (!L->stopped || L->qn > 0 || L->nfree < L->nslot)) {
        if (L->stopped && llmm_bench_interrupted && L->grace_end == 0)
            L->grace_end = llmm_bench_now() + grace;
        if (L->grace_end > 0 && llmm_bench_now() >= L->grace_end) {
            cancel_rest(L);
            break;
        }
        if (step(L) != 0) {
            rc = llmm_cli_fail(err, LLMM_CLI_EIO, "event loop: %s", strerror(errno));
            break;
        }
    }
    if (!L->stopped) /* a failure ended the loop early */
        out->w1 = llmm_bench_now();
    if (out->w0 == 0) /* nothing measured */
        out->w0 = out->w1;
    progress(L, llmm_bench_now(), 1);
    if (L->nomem && rc == LLMM_CLI_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    loop_free(L);
    free(L);
    return rc;
}
