/* trace.c: trace context of `llmm bench`'s requests and the run's slowest requests
 * (trace.h). */
#include "bench/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/random.h>
#endif

#include "bench/results.h"

void llmm_bench_ids_seed(llmm_cli_rng *g)
{
    uint64_t seed = 0;
#ifdef __linux__
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
#endif
    {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        seed ^= (uint64_t)getpid() << 32;
    }
    llmm_cli_rng_seed(g, seed);
}

static int zero(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

/* n random bytes, not all zero. */
static void fill(llmm_cli_rng *g, uint8_t *b, size_t n)
{
    do {
        for (size_t i = 0; i < n; i += 8) {
            uint64_t v = llmm_cli_rng_next(g);
            memcpy(b + i, &v, n - i < 8 ? n - i : 8);
        }
    } while (zero(b, n));
}

void llmm_bench_ids_next(llmm_cli_rng *g, const llmm_bench_target *t, uint8_t trace[16],
                         uint8_t span[8])
{
    if (t->tp_given)
        memcpy(trace, t->tp_trace, 16);
    else
        fill(g, trace, 16);
    do /* a child never reuses its parent's span id */
        fill(g, span, 8);
    while (t->tp_given && memcmp(span, t->tp_span, 8) == 0);
}

void llmm_bench_hex(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

void llmm_bench_traceparent_header(const llmm_bench_target *t, const uint8_t trace[16],
                                   const uint8_t span[8], char *buf, size_t cap)
{
    uint8_t tp[56];
    size_t len = 0;
    if (llmm_traceparent_format(trace, span, t->tp_given ? t->tp_flags : 1, tp, sizeof tp, &len) !=
        LLMM_OK)
        len = 0;
    snprintf(buf, cap, "traceparent: %.*s", (int)len, (const char *)tp);
}

/* ---- the slowest requests ------------------------------------------------------------------ */

static void keep_slow(llmm_bench_slowest *s, int k, double v, const char *level, size_t index,
                      const llmm_bench_rec *x)
{
    llmm_bench_slow *top = s->top[k];
    size_t n = s->n[k], at = n;
    if (!isfinite(v) || (n == LLMM_BENCH_SLOWEST && v <= top[n - 1].v))
        return;
    while (at > 0 && top[at - 1].v < v)
        at--;
    if (n == LLMM_BENCH_SLOWEST)
        n--;
    memmove(&top[at + 1], &top[at], (n - at) * sizeof *top);
    top[at].v = v;
    snprintf(top[at].level, sizeof top[at].level, "%s", level);
    top[at].index = index;
    memcpy(top[at].trace_id, x->trace_id, 16);
    memcpy(top[at].span_id, x->span_id, 8);
    s->n[k] = n + 1;
}

/* A measured request's TTFT where its first token came. */
struct llmm_bench_ttft_at {
    double first, ttft;
    llmm_bench_slow who; /* v unused */
};

static void keep_at(llmm_bench_slowest *s, const char *level, size_t index, const llmm_bench_rec *x)
{
    struct llmm_bench_ttft_at *a;
    if (s->nat == s->capat) {
        size_t cap = s->capat ? s->capat * 2 : 1024;
        a = realloc(s->at, cap * sizeof *a);
        if (!a) {
            s->nomem = 1;
            return;
        }
        s->at = a;
        s->capat = cap;
    }
    a = &s->at[s->nat++];
    a->first = x->first;
    a->ttft = x->first - x->sent;
    snprintf(a->who.level, sizeof a->who.level, "%s", level);
    a->who.index = index;
    memcpy(a->who.trace_id, x->trace_id, 16);
    memcpy(a->who.span_id, x->span_id, 8);
}

void llmm_bench_slowest_add(llmm_bench_slowest *s, const llmm_bench_result *r)
{
    char level[16];
    llmm_bench_level_name(&r->level, level, sizeof level);
    for (size_t i = 0; i < r->n; i++) {
        const llmm_bench_rec *x = &r->rec[i];
        if (!x->measured)
            continue;
        if (isfinite(x->first))
            keep_at(s, level, i, x);
        keep_slow(s, LLMM_BENCH_SLOW_E2E, x->last - x->sent, level, i, x);
        keep_slow(s, LLMM_BENCH_SLOW_TTFT, x->first - x->sent, level, i, x);
    }
}

static int by_first(const void *a, const void *b)
{
    double x = ((const struct llmm_bench_ttft_at *)a)->first;
    double y = ((const struct llmm_bench_ttft_at *)b)->first;
    return (x > y) - (x < y);
}

static void print_spike(FILE *f, const llmm_bench_slowest *s, size_t i, int level, double t0)
{
    const struct llmm_bench_ttft_at *a = &s->at[i];
    char trace[33];
    llmm_bench_hex(a->who.trace_id, 16, trace);
    fprintf(f, "spike%d %9.3f s %8.1f ms  level %-6s request bench-%-6zu trace %s\n", level,
            a->first - t0, a->ttft * 1e3, a->who.level, a->who.index, trace);
}

static void print_spikes(FILE *f, const llmm_bench_slowest *s)
{
    llmm_spike *d = NULL;
    uint8_t *lv = NULL;
    size_t n[3] = {0, 0, 0}, shown = 0;
    double t0;
    if (s->nat == 0)
        return;
    if (s->nomem || !(lv = calloc(s->nat, 1)) || llmm_spike_new(NULL, &d) != LLMM_OK) {
        fprintf(f, "TTFT spikes: not computed (out of memory)\n");
        free(lv);
        return;
    }
    qsort(s->at, s->nat, sizeof *s->at, by_first);
    t0 = s->at[0].first;
    for (size_t i = 0; i < s->nat; i++) {
        llmm_spike_level level = LLMM_SPIKE_NONE;
        double ttft = s->at[i].ttft < 0 ? 0 : s->at[i].ttft;
        s->at[i].ttft = ttft;
        if (llmm_spike_observe(d, (uint64_t)llround((s->at[i].first - t0) * 1e9), ttft, &level) ==
            LLMM_OK)
            lv[i] = level == LLMM_SPIKE_LEVEL2 ? 2 : level == LLMM_SPIKE_LEVEL1 ? 1 : 0;
        n[lv[i]]++;
    }
    llmm_spike_free(d);
    if (n[1] + n[2] == 0) {
        fprintf(f,
                "TTFT spikes: none classified (%zu requests; the detector classifies once "
                "its warm-up is full)\n",
                s->nat);
        free(lv);
        return;
    }
    fprintf(f,
            "TTFT spikes (llmm_spike, as the report's spikes section; seconds from the run's "
            "first token): %zu level 2 (severe), %zu level 1%s\n",
            n[2], n[1], n[1] + n[2] > LLMM_BENCH_SPIKES_SHOWN ? "; the severe first" : "");
    for (int level = 2; level >= 1; level--) /* in time order within a level */
        for (size_t i = 0; i < s->nat && shown < LLMM_BENCH_SPIKES_SHOWN; i++)
            if (lv[i] == level) {
                print_spike(f, s, i, level, t0);
                shown++;
            }
    if (n[1] + n[2] > shown)
        fprintf(f, "... and %zu more\n", n[1] + n[2] - shown);
    free(lv);
}

void llmm_bench_slowest_free(llmm_bench_slowest *s)
{
    free(s->at);
    memset(s, 0, sizeof *s);
}

void llmm_bench_slowest_print(FILE *f, const llmm_bench_slowest *s)
{
    static const char *const names[LLMM_BENCH_NSLOW] = {"E2E", "TTFT"};
    if (s->n[LLMM_BENCH_SLOW_E2E] == 0 && s->nat == 0)
        return;
    fprintf(f, "\n== slowest requests (trace ids: find them in your tracing backend) ==\n");
    for (int k = 0; k < LLMM_BENCH_NSLOW; k++)
        for (size_t i = 0; i < s->n[k]; i++) {
            const llmm_bench_slow *x = &s->top[k][i];
            char trace[33], span[17];
            llmm_bench_hex(x->trace_id, 16, trace);
            llmm_bench_hex(x->span_id, 8, span);
            fprintf(f, "%-4s %10.1f ms  level %-6s request bench-%-6zu trace %s span %s\n",
                    names[k], x->v * 1e3, x->level, x->index, trace, span);
        }
    print_spikes(f, s);
}
