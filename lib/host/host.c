/* The host sampler (host.h): samples driven by the caller's clock, rates over the interval
 * between the two latest samples, one event per signal above its threshold, and the
 * thresholds as an option table. The files and the parsing are host_open.c's. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "core/options.h"
#include "detect/detect_internal.h"
#include "host_internal.h"

/* Per signal, index signal − 1: its stable name and the event type it is logged as. */
static const struct {
    const char *name;
    int32_t event;
} signals[LLMM__HOST_SIGNALS] = {
    {"tcp_retrans", LLMM_EVENT_TCP_RETRANSMIT},     {"major_faults", LLMM_EVENT_MAJOR_FAULT},
    {"ctx_switches", LLMM_EVENT_CTX_SWITCHES},      {"run_delay", LLMM_EVENT_SCHED_JITTER},
    {"numa_migrations", LLMM_EVENT_NUMA_MIGRATION}, {"psi_cpu", LLMM_EVENT_CPU_PRESSURE},
    {"psi_memory", LLMM_EVENT_MEMORY_PRESSURE},     {"psi_io", LLMM_EVENT_IO_PRESSURE},
    {"cpu_freq_mhz", LLMM_EVENT_CPU_FREQ_DROP},     {"cpu_throttle", LLMM_EVENT_CPU_THROTTLE},
};

#define LEVEL (LLMM_HOST_CPU_FREQ_MHZ - 1) /* the one signal that is a level, not a rate */

static int known(llmm_host_signal sig)
{
    return (int)sig >= 1 && (int)sig <= LLMM__HOST_SIGNALS;
}

const char *llmm_host_signal_name(llmm_host_signal sig)
{
    return known(sig) ? signals[sig - 1].name : NULL;
}

int32_t llmm_host_signal_event(llmm_host_signal sig)
{
    return known(sig) ? signals[sig - 1].event : 0;
}

/* ---- options: one threshold per signal ---------------------------------------------------- */

#define INF INFINITY
#define ABOVE(key, name, def)                                                                      \
    LLMM__OPTION_F64(llmm_host_sampler, key, name, 0, 0.0, INF, def, above[(key)-1])

static const llmm__option host_opts[] = {
    ABOVE(LLMM_HOST_TCP_RETRANS_ABOVE, "tcp_retrans_above", 0.0),
    ABOVE(LLMM_HOST_MAJOR_FAULTS_ABOVE, "major_faults_above", 0.0),
    ABOVE(LLMM_HOST_CTX_SWITCHES_ABOVE, "ctx_switches_above", INF),
    ABOVE(LLMM_HOST_RUN_DELAY_ABOVE, "run_delay_above", 0.05),
    ABOVE(LLMM_HOST_NUMA_MIGRATIONS_ABOVE, "numa_migrations_above", 0.0),
    ABOVE(LLMM_HOST_PSI_CPU_ABOVE, "psi_cpu_above", 0.2),
    ABOVE(LLMM_HOST_PSI_MEMORY_ABOVE, "psi_memory_above", 0.05),
    ABOVE(LLMM_HOST_PSI_IO_ABOVE, "psi_io_above", 0.1),
    LLMM__OPTION_F64(llmm_host_sampler, LLMM_HOST_CPU_FREQ_DROP, "cpu_freq_drop", 0, 0.0, 1.0, 0.2,
                     above[LEVEL]),
    ABOVE(LLMM_HOST_CPU_THROTTLE_ABOVE, "cpu_throttle_above", 0.0),
};

const llmm__option_kind llmm__host_options = {
    LLMM__KIND_OF(host_opts), LLMM__KIND_NAN_INVALID, NULL, NULL, NULL, NULL,
};

LLMM__OPTION_CALLS_F64(llmm_host_sampler, llmm_host_option, &llmm__host_options)

/* ---- life ----------------------------------------------------------------------------------- */

llmm_status llmm_host_sampler_new(llmm_ctx *ctx, const char *root, llmm_host_sampler **out)
{
    char base[LLMM__HOST_ROOT_MAX + 1];
    llmm_host_sampler *s;
    size_t n;
    llmm_status st;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    n = root ? strlen(root) : 0;
    if (n > LLMM__HOST_ROOT_MAX)
        return LLMM_E_INVALID;
    while (n > 0 && root[n - 1] == '/') /* "/" and "" both stand for the real root */
        n--;
    if (n)
        memcpy(base, root, n);
    base[n] = '\0';
    s = llmm__calloc(ctx, 1, sizeof *s);
    if (!s)
        return LLMM_E_NOMEM;
    s->ctx = ctx;
    llmm__option_defaults(&llmm__host_options, s);
    st = llmm__host_open_all(s, base);
    if (st != LLMM_OK) {
        llmm__free(ctx, s, sizeof *s);
        return st;
    }
    *out = s;
    return LLMM_OK;
}

void llmm_host_sampler_free(llmm_host_sampler *s)
{
    if (!s)
        return;
    llmm__host_close_all(s);
    llmm__free(s->ctx, s, sizeof *s);
}

/* ---- samples -------------------------------------------------------------------------------- */

/* Take signal i's reading into its state; 1 when the interval calls for an event. */
static int update(llmm_host_sampler *s, size_t i, uint64_t dt_ns)
{
    llmm__host_sig *g = &s->sig[i];
    uint64_t c = 0;
    double level = 0.0, prev_level = g->value;
    int had_level = g->state == LLMM_OK;

    if (llmm__host_read_signal(s, i, &c, &level) != LLMM__HOST_FOUND) {
        g->state = LLMM_E_CORRUPT;
        g->have_prev = 0;
        return 0;
    }
    if (i == LEVEL) {
        g->value = level;
        g->state = LLMM_OK;
        return had_level && level < (1.0 - s->above[i]) * prev_level;
    }
    if (!g->have_prev) {
        g->state = LLMM_E_EMPTY;
    } else if (c < g->prev) { /* the counter restarted: no rate; it counts on from c */
        g->state = LLMM_E_CORRUPT;
    } else {
        double per = g->ns_per_unit > 0 ? g->ns_per_unit : 1e9;
        g->value = (double)(c - g->prev) * per / (double)dt_ns;
        g->state = LLMM_OK;
    }
    g->prev = c;
    g->have_prev = 1;
    return g->state == LLMM_OK && g->value > s->above[i];
}

llmm_status llmm_host_sample(llmm_host_sampler *s, uint64_t now_ns, llmm_event_log *log)
{
    int fire[LLMM__HOST_SIGNALS];
    size_t i;

    if (!s || (s->samples > 0 && now_ns <= s->last_ns) ||
        (log && llmm__event_log_last_ns(log) > now_ns))
        return LLMM_E_INVALID;
    for (i = 0; i < LLMM__HF_COUNT; i++) {
        llmm__host_file *f = &s->files[i];
        if (f->fd >= 0)
            f->len = llmm__host_read(f->fd, f->buf, f->cap);
    }
    for (i = 0; i < LLMM__HOST_SIGNALS; i++)
        fire[i] = s->sig[i].available && update(s, i, now_ns - s->last_ns);
    s->last_ns = now_ns;
    s->samples++;
    for (i = 0; log && i < LLMM__HOST_SIGNALS; i++)
        if (fire[i]) /* cannot fail: known type, finite value, time checked above */
            (void)llmm_event_log_add(log, now_ns, signals[i].event, s->sig[i].value);
    return LLMM_OK;
}

llmm_status llmm_host_signal_rate(const llmm_host_sampler *s, llmm_host_signal sig,
                                  double *per_second)
{
    const llmm__host_sig *g;

    if (!s || !per_second || !known(sig))
        return LLMM_E_INVALID;
    g = &s->sig[sig - 1];
    if (!g->available)
        return LLMM_E_STATE;
    if (g->state != LLMM_OK)
        return g->state;
    *per_second = g->value;
    return LLMM_OK;
}
