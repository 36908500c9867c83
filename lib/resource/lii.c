/* CPU-GPU load imbalance index: the batch formula and the streaming monitor over W samples. */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"
#include "llmmetrics/resource.h"

typedef struct lii_sample {
    double cpu;
    double gpu;
} lii_sample;

struct llmm_lii_monitor {
    llmm_ctx *ctx;
    lii_sample *ring; /* window entries */
    uint32_t window;
    uint32_t head;  /* next slot to write */
    uint32_t count; /* samples held, <= window */
    double sum_cpu;
    double sum_gpu;
    double th[3]; /* indexed by llmm_lii_option */
};

static int utilisation_ok(double u)
{
    return u >= 0.0 && u <= 1.0; /* false for NaN */
}

static double lii_of(double mean_cpu, double mean_gpu)
{
    double hi = mean_cpu > mean_gpu ? mean_cpu : mean_gpu;
    double d = mean_cpu - mean_gpu;
    if (hi < 1e-6)
        hi = 1e-6;
    return (d < 0.0 ? -d : d) / hi;
}

llmm_status llmm_lii(const double *cpu, const double *gpu, size_t n, double *lii)
{
    double sc = 0.0, sg = 0.0;
    size_t i;
    if (!cpu || !gpu || !lii)
        return LLMM_E_INVALID;
    if (n == 0)
        return LLMM_E_EMPTY;
    for (i = 0; i < n; i++) {
        if (!utilisation_ok(cpu[i]) || !utilisation_ok(gpu[i]))
            return LLMM_E_INVALID;
        sc += cpu[i];
        sg += gpu[i];
    }
    *lii = lii_of(sc / (double)n, sg / (double)n);
    return LLMM_OK;
}

llmm_status llmm_lii_monitor_new(llmm_ctx *ctx, uint32_t window, llmm_lii_monitor **out)
{
    llmm_lii_monitor *m;
    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (window == 0)
        window = LLMM_LII_WINDOW_DEFAULT;
    if (window > LLMM_LII_WINDOW_MAX)
        return LLMM_E_RANGE;
    m = llmm__calloc(ctx, 1, sizeof *m);
    if (!m)
        return LLMM_E_NOMEM;
    m->ring = llmm__calloc(ctx, window, sizeof *m->ring);
    if (!m->ring) {
        llmm__free(ctx, m, sizeof *m);
        return LLMM_E_NOMEM;
    }
    m->ctx = ctx;
    m->window = window;
    llmm__option_defaults(&llmm__lii_options, m);
    *out = m;
    return LLMM_OK;
}

void llmm_lii_monitor_free(llmm_lii_monitor *m)
{
    if (!m)
        return;
    llmm__free(m->ctx, m->ring, (size_t)m->window * sizeof *m->ring);
    llmm__free(m->ctx, m, sizeof *m);
}

/* The prefetch tier lies below the adapt tier: prefetch threshold ≤ adapt threshold. */
static llmm_status lii_cross(const void *obj, const llmm__option *o, llmm__optval v)
{
    const llmm_lii_monitor *m = obj;
    if (o->key == LLMM_LII_PREFETCH_AT && v.f > m->th[LLMM_LII_ADAPT_AT])
        return LLMM_E_RANGE;
    if (o->key == LLMM_LII_ADAPT_AT && v.f < m->th[LLMM_LII_PREFETCH_AT])
        return LLMM_E_RANGE;
    return LLMM_OK;
}

static const llmm__option lii_opts[] = {
    LLMM__OPTION_F64(llmm_lii_monitor, LLMM_LII_PREFETCH_AT, "prefetch_at", LLMM__OPT_CROSS, 0.0,
                     1.0, 0.2, th[LLMM_LII_PREFETCH_AT]),
    LLMM__OPTION_F64(llmm_lii_monitor, LLMM_LII_ADAPT_AT, "adapt_at", LLMM__OPT_CROSS, 0.0, 1.0,
                     0.4, th[LLMM_LII_ADAPT_AT]),
    LLMM__OPTION_F64(llmm_lii_monitor, LLMM_LII_SCALE_AT, "scale_at", 0, 0.0, 1.0, 0.3,
                     th[LLMM_LII_SCALE_AT]),
};

const llmm__option_kind llmm__lii_options = {
    LLMM__KIND_OF(lii_opts), LLMM__KIND_NONFINITE_INVALID, NULL, lii_cross, NULL, NULL,
};

LLMM__OPTION_CALLS_F64(llmm_lii_monitor, llmm_lii_option, &llmm__lii_options)

/* Re-sum the full ring from scratch, so that add/subtract rounding never accumulates. */
static void resum(llmm_lii_monitor *m)
{
    double sc = 0.0, sg = 0.0;
    uint32_t i;
    for (i = 0; i < m->count; i++) {
        sc += m->ring[i].cpu;
        sg += m->ring[i].gpu;
    }
    m->sum_cpu = sc;
    m->sum_gpu = sg;
}

llmm_status llmm_lii_monitor_add(llmm_lii_monitor *m, double cpu, double gpu)
{
    lii_sample *slot;
    if (!m || !utilisation_ok(cpu) || !utilisation_ok(gpu))
        return LLMM_E_INVALID;
    slot = &m->ring[m->head];
    if (m->count == m->window) {
        m->sum_cpu -= slot->cpu;
        m->sum_gpu -= slot->gpu;
    } else {
        m->count++;
    }
    slot->cpu = cpu;
    slot->gpu = gpu;
    m->sum_cpu += cpu;
    m->sum_gpu += gpu;
    if (++m->head == m->window) {
        m->head = 0;
        resum(m); /* once per W samples: amortised O(1) */
    }
    return LLMM_OK;
}

llmm_status llmm_lii_monitor_read(const llmm_lii_monitor *m, llmm_lii_reading *r)
{
    llmm_lii_reading o;
    double mc, mg, lii;
    if (!m || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_lii_reading, r) != LLMM_OK)
        return LLMM_E_ABI;
    if (m->count == 0)
        return LLMM_E_EMPTY;
    /* Subtraction can leave a sum a hair below 0 or above count; keep the means in [0, 1]. */
    mc = m->sum_cpu / (double)m->count;
    mg = m->sum_gpu / (double)m->count;
    mc = mc < 0.0 ? 0.0 : (mc > 1.0 ? 1.0 : mc);
    mg = mg < 0.0 ? 0.0 : (mg > 1.0 ? 1.0 : mg);
    lii = lii_of(mc, mg);
    LLMM__SIZED_DEFAULTS(llmm_lii_reading, &o);
    o.samples = m->count;
    o.mean_cpu = mc;
    o.mean_gpu = mg;
    o.lii = lii;
    o.tier = lii >= m->th[LLMM_LII_ADAPT_AT]      ? LLMM_LII_ADAPT
             : lii >= m->th[LLMM_LII_PREFETCH_AT] ? LLMM_LII_PREFETCH
                                                  : LLMM_LII_KEEP;
    o.scale = lii >= m->th[LLMM_LII_SCALE_AT];
    LLMM__SIZED_PUT(llmm_lii_reading, r, &o);
    return LLMM_OK;
}

llmm_status llmm_lii_monitor_reset(llmm_lii_monitor *m)
{
    if (!m)
        return LLMM_E_INVALID;
    m->head = 0;
    m->count = 0;
    m->sum_cpu = 0.0;
    m->sum_gpu = 0.0;
    return LLMM_OK;
}
