/* otlp.c: `llmm bench --otlp` (otlp.h): snapshots taken on the event loop's thread, pushed
 * from a thread of their own. */
#include "bench/otlp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/request.h"
#include "bench/results.h"
#include "otlp_push.h"

#define SELF_NAME "llmm bench: --otlp"
/* Snapshots waiting: past it an interval's snapshot is not taken (counted), and the spans it
 * would have held go with the next one; a level's last is always taken. */
#define QUEUE_MAX 2
#define NATTR 13 /* the most attributes of a span */
#define NHIST 3  /* TTFT, ITL, E2E */

static const int hist_sketch[NHIST] = {LLMM_BENCH_TTFT, LLMM_BENCH_ITL, LLMM_BENCH_E2E};
static const char *const hist_name[NHIST] = {"llmm.bench.ttft", "llmm.bench.itl", "llmm.bench.e2e"};
static const char *const phase_name[LLMM_BENCH_NPHASES] = {"warmup", "window", "cooldown"};

/* One snapshot: the level's cumulative points and the spans of the requests ended since the
 * one before. */
typedef struct job {
    struct job *next;
    uint64_t start_ns, time_ns;
    llmm_sketch *sk[NHIST];
    llmm_otlp_exemplar ex[NHIST][2];
    size_t nex[NHIST];
    char hist_attr[48];
    char outcome_attr[LLMM_BENCH_NREASONS][80];
    uint64_t outcomes[LLMM_BENCH_NREASONS];
    char level[16];
    llmm_otlp_span *spans;
    llmm_otlp_attribute *attrs; /* NATTR per span */
    size_t nspans;
} job;

/* The largest value of a figure so far and its request, for the exemplars. */
typedef struct best {
    double v;
    size_t i;
    int set;
} best;

struct llmm_bench_otlp {
    llmm_push_config cfg;
    double every;
    double mono_to_unix; /* CLOCK_REALTIME − CLOCK_MONOTONIC, seconds */
    /* the event loop's side */
    const llmm_bench_result *r;
    char level[16];
    double next_push;
    uint8_t *seen; /* per request of the level: its span was taken */
    size_t nseen, scan_from;
    uint64_t outcomes[LLMM_BENCH_NREASONS];
    uint8_t parent[8]; /* --traceparent's span id: every span's parent (zero: roots) */
    int spans_at_end;  /* the spans of a level go with its last push only (--bpf) */
    best top[NHIST];
    size_t latest;
    int have_latest;
    /* the pusher's side, under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    job *head, *tail;
    size_t queued;
    int closing;
    uint64_t pushes, failed, skipped, lost;
    int down; /* the last push failed: one attempt each until one succeeds */
    char last_error[300];
};

static double clock_s(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t unix_ns(const llmm_bench_otlp *p, double mono)
{
    double t = (mono + p->mono_to_unix) * 1e9;
    return t > 0 ? (uint64_t)t : 0;
}

static void job_free(job *j)
{
    for (int k = 0; k < NHIST; k++)
        llmm_sketch_free(j->sk[k]);
    free(j->spans);
    free(j->attrs);
    free(j);
}

/* ---- the pusher's thread -------------------------------------------------------------------- */

static void note(llmm_bench_otlp *p, int rc, const char *what, const llmm_push_result *res)
{
    pthread_mutex_lock(&p->mu);
    p->pushes++;
    p->down = rc != 0;
    if (rc != 0) {
        if (p->failed++ == 0) /* the first failure at once, the count at the end */
            fprintf(stderr, "%s: %s push to %s failed: %s\n", SELF_NAME, what, p->cfg.endpoint,
                    res->error);
        snprintf(p->last_error, sizeof p->last_error, "%s: %s", what, res->error);
    }
    pthread_mutex_unlock(&p->mu);
}

static void push_job(llmm_bench_otlp *p, job *j)
{
    llmm_push_histogram h[NHIST];
    llmm_push_counter c[LLMM_BENCH_NREASONS];
    llmm_push_result res;
    llmm_push_config cfg = p->cfg;
    size_t nc = 0;
    pthread_mutex_lock(&p->mu);
    if (p->down) /* a collector known to be down costs one attempt per push, not the run's end */
        cfg.max_attempts = 1;
    pthread_mutex_unlock(&p->mu);
    for (int k = 0; k < NHIST; k++) {
        memset(&h[k], 0, sizeof h[k]);
        h[k].name = hist_name[k];
        h[k].unit = "s";
        h[k].attributes = j->hist_attr;
        h[k].sketch = j->sk[k];
        h[k].exemplars = j->nex[k] ? j->ex[k] : NULL;
        h[k].exemplar_count = j->nex[k];
    }
    for (int k = 0; k < LLMM_BENCH_NREASONS; k++)
        if (k == LLMM_BENCH_OK || j->outcomes[k]) {
            c[nc].name = "llmm.bench.requests";
            c[nc].unit = "{request}";
            c[nc].attributes = j->outcome_attr[k];
            c[nc].value = (double)j->outcomes[k];
            nc++;
        }
    note(p, llmm_push_metrics(&cfg, j->start_ns, j->time_ns, h, NHIST, c, nc, &res), "metrics",
         &res);
    if (j->nspans)
        note(p, llmm_push_spans(&cfg, j->spans, j->nspans, &res), "spans", &res);
}

static void *pusher(void *arg)
{
    llmm_bench_otlp *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        job *j;
        while (!p->head && !p->closing)
            pthread_cond_wait(&p->cv, &p->mu);
        if (!p->head)
            break;
        j = p->head;
        p->head = j->next;
        if (!p->head)
            p->tail = NULL;
        p->queued--;
        pthread_mutex_unlock(&p->mu);
        push_job(p, j);
        job_free(j);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- the event loop's side ------------------------------------------------------------------ */

/* The typed attributes of request i's span into a (NATTR); how many. */
static size_t span_attrs(const llmm_bench_rec *x, size_t i, const char *level,
                         llmm_otlp_attribute *a)
{
    size_t n = 0;
#define ATTR(k, t, field, v)                                                                       \
    do {                                                                                           \
        llmm_otlp_attribute_init(&a[n]);                                                           \
        a[n].key = (k);                                                                            \
        a[n].type = (t);                                                                           \
        a[n].field = (v);                                                                          \
        n++;                                                                                       \
    } while (0)
    ATTR("llmm.bench.level", LLMM_OTLP_STRING, string_value, level);
    ATTR("llmm.bench.request", LLMM_OTLP_INT, int_value, (int64_t)i);
    ATTR("llmm.bench.phase", LLMM_OTLP_STRING, string_value, phase_name[x->phase]);
    ATTR("llmm.bench.outcome", LLMM_OTLP_STRING, string_value, llmm_bench_reason_name(x->reason));
    ATTR("http.response.status_code", LLMM_OTLP_INT, int_value, x->http_status);
    ATTR("gen_ai.usage.input_tokens", LLMM_OTLP_INT, int_value, x->in_tokens);
    ATTR("gen_ai.usage.output_tokens", LLMM_OTLP_INT, int_value, x->out_tokens);
    ATTR("llmm.bench.output_chunks", LLMM_OTLP_INT, int_value, x->chunks);
    if (x->first == x->first) /* an output chunk came: its times */
        ATTR("llmm.bench.ttft", LLMM_OTLP_DOUBLE, double_value, x->first - x->sent);
    if (x->last == x->last)
        ATTR("llmm.bench.e2e", LLMM_OTLP_DOUBLE, double_value, x->last - x->sent);
    /* the kernel events attributed to it (llmm bench --bpf; doc/bpf.md): only when there
     * are any, as a run without --bpf has none */
    if (x->kev_retrans || x->kev_major_faults || x->kev_sched_jitter) {
        ATTR("net.tcp.retrans", LLMM_OTLP_INT, int_value, x->kev_retrans);
        ATTR("mem.major_fault", LLMM_OTLP_INT, int_value, x->kev_major_faults);
        ATTR("sched.jitter", LLMM_OTLP_INT, int_value, x->kev_sched_jitter);
    }
#undef ATTR
    return n;
}

static double max_itl(const llmm_bench_result *r, const llmm_bench_rec *x)
{
    double m = -1;
    for (uint32_t k = 0; k < x->nitl; k++)
        if (r->itl[x->itl + k] > m)
            m = r->itl[x->itl + k];
    return m;
}

/* A request ended: count it, keep it for the exemplars. */
static void saw(llmm_bench_otlp *p, size_t i)
{
    const llmm_bench_rec *x = &p->r->rec[i];
    double v[NHIST];
    p->outcomes[x->reason >= 0 && x->reason < LLMM_BENCH_NREASONS ? x->reason : 0]++;
    if (!x->measured) /* the sketches hold the measured requests only */
        return;
    v[0] = x->first - x->sent;
    v[1] = max_itl(p->r, x);
    v[2] = x->last - x->sent;
    for (int k = 0; k < NHIST; k++)
        if (v[k] >= 0 && (!p->top[k].set || v[k] > p->top[k].v))
            p->top[k] = (best){v[k], i, 1};
    p->latest = i;
    p->have_latest = 1;
}

static void exemplar(const llmm_bench_otlp *p, llmm_otlp_exemplar *e, size_t i, double v)
{
    const llmm_bench_rec *x = &p->r->rec[i];
    llmm_otlp_exemplar_init(e);
    e->value = v;
    e->time_unix_nano = unix_ns(p, x->end);
    memcpy(e->trace_id, x->trace_id, 16);
    memcpy(e->span_id, x->span_id, 8);
}

/* The spans of the requests ended since the last snapshot (with spans_at_end: none until the
 * level's last snapshot, which takes every ended request's); 0, or -1 out of memory. Every
 * newly ended request is seen once (saw: the exemplars) whether or not its span goes now. */
static int take_spans(llmm_bench_otlp *p, job *j, int last)
{
    const llmm_bench_result *r = p->r;
    const int emit = !p->spans_at_end || last, every = p->spans_at_end && last;
    const size_t from = every ? 0 : p->scan_from;
    size_t n = 0;
    if (r->n > p->nseen) {
        uint8_t *s = realloc(p->seen, r->n);
        if (!s)
            return -1;
        memset(s + p->nseen, 0, r->n - p->nseen);
        p->seen = s;
        p->nseen = r->n;
    }
    for (size_t i = from; emit && i < r->n; i++)
        n += (every || !p->seen[i]) && r->rec[i].end > 0;
    if (n > 0) {
        j->spans = calloc(n, sizeof *j->spans);
        j->attrs = calloc(n * NATTR, sizeof *j->attrs);
        if (!j->spans || !j->attrs)
            return -1;
    }
    for (size_t i = from; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        llmm_otlp_span *s;
        if (x->end <= 0)
            continue;
        if (!p->seen[i]) {
            p->seen[i] = 1;
            saw(p, i);
        } else if (!every) {
            continue;
        }
        if (!emit)
            continue;
        s = &j->spans[j->nspans];
        llmm_otlp_span_init(s);
        memcpy(s->trace_id, x->trace_id, 16);
        memcpy(s->span_id, x->span_id, 8);
        memcpy(s->parent_span_id, p->parent, 8);
        s->name = "llmm bench request";
        s->start_time_unix_nano = unix_ns(p, x->first_sent);
        s->end_time_unix_nano = unix_ns(p, x->end);
        if (s->end_time_unix_nano < s->start_time_unix_nano)
            s->end_time_unix_nano = s->start_time_unix_nano;
        s->attributes = &j->attrs[j->nspans * NATTR];
        s->attribute_count = span_attrs(x, i, j->level, &j->attrs[j->nspans * NATTR]);
        s->status_code = x->reason == LLMM_BENCH_OK ? LLMM_OTLP_STATUS_OK : LLMM_OTLP_STATUS_ERROR;
        if (x->reason != LLMM_BENCH_OK)
            s->status_message = llmm_bench_reason_name(x->reason);
        j->nspans++;
    }
    while (p->scan_from < r->n && p->seen[p->scan_from])
        p->scan_from++;
    return 0;
}

/* Take a snapshot and queue it (always: a level's last must go out). */
static void snapshot(llmm_bench_otlp *p, double now, int last)
{
    job *j;
    if (!p->r)
        return;
    j = calloc(1, sizeof *j);
    if (!j)
        goto nomem;
    snprintf(j->level, sizeof j->level, "%s", p->level);
    if (take_spans(p, j, last) != 0)
        goto nomem;
    j->start_ns = unix_ns(p, p->r->t0 > 0 ? p->r->t0 : now);
    j->time_ns = unix_ns(p, now);
    snprintf(j->hist_attr, sizeof j->hist_attr, "level=\"%s\"", p->level);
    for (int k = 0; k < LLMM_BENCH_NREASONS; k++) {
        snprintf(j->outcome_attr[k], sizeof j->outcome_attr[k], "level=\"%s\",outcome=\"%s\"",
                 p->level, llmm_bench_reason_name(k));
        j->outcomes[k] = p->outcomes[k];
    }
    for (int k = 0; k < NHIST; k++) {
        if (!(j->sk[k] = llmm_bench_result_sketch(p->r, hist_sketch[k])))
            goto nomem;
        if (p->top[k].set)
            exemplar(p, &j->ex[k][j->nex[k]++], p->top[k].i, p->top[k].v);
        if (p->have_latest && k != 1 && (!p->top[k].set || p->latest != p->top[k].i)) {
            const llmm_bench_rec *x = &p->r->rec[p->latest];
            exemplar(p, &j->ex[k][j->nex[k]++], p->latest,
                     k == 0 ? x->first - x->sent : x->last - x->sent);
        }
    }
    pthread_mutex_lock(&p->mu);
    if (p->tail)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    p->queued++;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return;
nomem: /* the spans taken are lost: said at the end */
    pthread_mutex_lock(&p->mu);
    p->lost += j ? j->nspans : 0;
    pthread_mutex_unlock(&p->mu);
    if (j)
        job_free(j);
}

llmm_bench_otlp *llmm_bench_otlp_open(const llmm_bench_otlp_options *o)
{
    llmm_bench_otlp *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    llmm_push_config_default(&p->cfg);
    p->cfg.endpoint = o->url;
    p->cfg.json = o->json;
    p->cfg.headers = o->headers;
    p->cfg.nheaders = o->nheaders;
    p->cfg.timeout_ms = 5000; /* a snapshot every interval: a dead collector gives up soon */
    p->cfg.max_attempts = 3;
    p->cfg.resource_attributes = "service.name=\"llmm-bench\"";
    if (o->parent)
        memcpy(p->parent, o->parent, 8);
    p->every = o->every;
    p->spans_at_end = o->spans_at_end;
    p->mono_to_unix = clock_s(CLOCK_REALTIME) - llmm_bench_now();
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, pusher, p) != 0) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return NULL;
    }
    return p;
}

void llmm_bench_otlp_level_start(llmm_bench_otlp *p, const char *level, const llmm_bench_result *r)
{
    p->r = r;
    snprintf(p->level, sizeof p->level, "%s", level);
    p->next_push = llmm_bench_now() + p->every;
    memset(p->outcomes, 0, sizeof p->outcomes);
    memset(p->top, 0, sizeof p->top);
    p->have_latest = 0;
    p->nseen = p->scan_from = 0;
}

void llmm_bench_otlp_tick(llmm_bench_otlp *p, double now)
{
    int behind;
    if (!p || !p->r || now < p->next_push)
        return;
    p->next_push = now + p->every;
    pthread_mutex_lock(&p->mu);
    behind = p->queued >= QUEUE_MAX;
    p->skipped += behind;
    pthread_mutex_unlock(&p->mu);
    if (!behind)
        snapshot(p, now, 0);
}

void llmm_bench_otlp_level_end(llmm_bench_otlp *p, int push)
{
    if (!p || !p->r)
        return;
    if (push)
        snapshot(p, p->r->t_end > 0 ? p->r->t_end : llmm_bench_now(), 1);
    p->r = NULL;
}

void llmm_bench_otlp_close(llmm_bench_otlp *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->closing = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    if (p->failed)
        fprintf(stderr,
                "%s: %llu of %llu pushes to %s failed (last: %s); the run's files are "
                "whole\n",
                SELF_NAME, (unsigned long long)p->failed, (unsigned long long)p->pushes,
                p->cfg.endpoint, p->last_error);
    else
        fprintf(stderr, "%s: %llu pushes to %s\n", SELF_NAME, (unsigned long long)p->pushes,
                p->cfg.endpoint);
    if (p->skipped)
        fprintf(stderr,
                "%s: %llu intervals without a push (the collector was behind; their "
                "spans went with the next)\n",
                SELF_NAME, (unsigned long long)p->skipped);
    if (p->lost)
        fprintf(stderr, "%s: %llu spans not sent (out of memory)\n", SELF_NAME,
                (unsigned long long)p->lost);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->seen);
    free(p);
}
