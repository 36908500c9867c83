/* libFuzzer target: the spike detector driven by random options, latencies and time stamps,
 * checked against an exact model of detect.h's contract.
 *
 * The model keeps every accepted sample. At the first call in a new slot c that re-bases
 * (observe, get_stats), the baselines become the quantiles, at the quantile levels set at
 * that moment, of a fresh sketch of the samples in slots c - slots + 1 ... c - 1; each
 * sample is classified on arrival against the baselines in force, with the warm-up and
 * factor in force; the window counts and the rate cover slots c - slots + 1 ... c. Every
 * level, statistic and rate the detector reports must equal the model's exactly. Bad input,
 * time going backwards, options out of bounds and geometry changes after the first time stamp
 * must return the documented status and change nothing. */
#include "fuzz_common.h"

#define MAXS 4096

typedef struct sample {
    uint64_t t;
    double v;
    int classified;
    int level;
} sample;

typedef struct model {
    uint64_t slot_ns, slots, warmup;
    int32_t scale;
    double qb, qs, factor;
    int started;
    uint64_t last;
    uint64_t base_slot, base_count;
    double base, severe;
    size_t n;
    sample s[MAXS];
} model;

static model M;

static void model_clear(model *m)
{
    m->started = 0;
    m->last = 0;
    m->base_slot = 0;
    m->base_count = 0;
    m->base = m->severe = 0.0;
    m->n = 0;
}

/* Re-base for slot c if needed (what observe / get_stats do first). */
static void model_rebase(model *m, uint64_t c)
{
    static double v[MAXS];
    llmm_sketch *r = NULL;
    size_t k = 0;
    uint64_t first = c > m->slots - 1 ? c - (m->slots - 1) : 0;
    if (c == m->base_slot)
        return;
    for (size_t i = 0; i < m->n; i++) {
        uint64_t j = m->s[i].t / m->slot_ns;
        if (j >= first && j < c)
            v[k++] = m->s[i].v;
    }
    m->base_slot = c;
    m->base_count = k;
    m->base = m->severe = 0.0;
    if (!k)
        return;
    CHECK(llmm_sketch_new(NULL, m->scale, &r) == LLMM_OK);
    CHECK(llmm_sketch_add_many(r, v, k) == LLMM_OK);
    {
        double q[2] = {m->qb, m->qs}, out[2];
        CHECK(llmm_sketch_quantiles(r, q, 2, out) == LLMM_OK);
        m->base = out[0];
        m->severe = out[1];
    }
    llmm_sketch_free(r);
}

/* Window sums at slot c over the last `slots` slots. */
static void model_window(const model *m, uint64_t c, uint64_t w[4])
{
    memset(w, 0, 4 * sizeof *w);
    for (size_t i = 0; i < m->n; i++) {
        if (c - m->s[i].t / m->slot_ns >= m->slots)
            continue;
        w[0]++;
        w[1] += (uint64_t)m->s[i].classified;
        w[2] += m->s[i].level == 1;
        w[3] += m->s[i].level == 2;
    }
}

static void check_stats(llmm_spike *d, model *m, uint64_t now)
{
    llmm_spike_stats st;
    uint64_t w[4], tot[4] = {0, 0, 0, 0}, c = now / m->slot_ns;
    llmm_status r;
    CHECK(llmm_spike_stats_init(&st) == LLMM_OK);
    r = llmm_spike_get_stats(d, now, &st);
    if (now < m->last) {
        CHECK(r == LLMM_E_INVALID);
        return;
    }
    CHECK(r == LLMM_OK);
    m->last = now;
    m->started = 1;
    model_rebase(m, c);
    model_window(m, c, w);
    for (size_t i = 0; i < m->n; i++) {
        tot[0]++;
        tot[1] += (uint64_t)m->s[i].classified;
        tot[2] += m->s[i].level == 1;
        tot[3] += m->s[i].level == 2;
    }
    CHECK(st.ready == (m->base_count >= m->warmup));
    CHECK(st.baseline_samples == m->base_count);
    CHECK(st.base_threshold == m->base && st.severe_threshold == m->severe);
    CHECK(st.window_samples == w[0] && st.window_classified == w[1]);
    CHECK(st.window_level1 == w[2] && st.window_level2 == w[3]);
    CHECK(st.total_samples == tot[0] && st.total_classified == tot[1]);
    CHECK(st.total_level1 == tot[2] && st.total_level2 == tot[3]);
}

static void check_rate(llmm_spike *d, model *m, uint64_t now)
{
    uint64_t w[4];
    double rate = -1.0;
    llmm_status r = llmm_spike_rate(d, now, &rate);
    if (now < m->last) {
        CHECK(r == LLMM_E_INVALID);
        return;
    }
    model_window(m, now / m->slot_ns, w);
    if (w[1] == 0) {
        CHECK(r == LLMM_E_EMPTY);
        return; /* an error changes nothing, the clock included */
    }
    CHECK(r == LLMM_OK);
    CHECK(rate == (double)(w[2] + w[3]) / (double)w[1]);
    CHECK(rate >= 0.0 && rate <= 1.0);
    m->last = now;
    m->started = 1;
}

static void observe(llmm_spike *d, model *m, uint64_t now, double v)
{
    llmm_spike_level lv = (llmm_spike_level)77;
    llmm_status r = llmm_spike_observe(d, now, v, &lv);
    int classified, level = 0;
    if (!isfinite(v) || v < 0 || now < m->last) {
        CHECK(r == LLMM_E_INVALID);
        CHECK(lv == (llmm_spike_level)77);
        return;
    }
    CHECK(r == LLMM_OK);
    model_rebase(m, now / m->slot_ns);
    classified = m->base_count >= m->warmup;
    if (classified && v > m->base)
        level = v > m->factor * m->severe ? 2 : 1;
    CHECK((int)lv == level);
    m->last = now;
    m->started = 1;
    if (m->n == MAXS)
        return; /* the caller stops */
    m->s[m->n].t = now;
    m->s[m->n].v = v;
    m->s[m->n].classified = classified;
    m->s[m->n].level = level;
    m->n++;
}

static void set_option(llmm_spike *d, model *m, fz_input *in)
{
    uint8_t which = fz_u8(in);
    llmm_status r;
    if (which & 0x80) { /* f64: base, severe, factor (or an unknown key) */
        int key = 1 + (which & 3);
        double v = (fz_u8(in) & 1) ? fz_double(in) : (double)fz_bytes(in, 2) / 65536.0 +
                                                         (double)(which >> 4 & 3);
        llmm_status want;
        r = llmm_spike_set_f64(d, (llmm_spike_option)key, v);
        if (key == 4) {
            want = LLMM_E_UNKNOWN_OPTION;
        } else if (key == 3) {
            want = (v >= 1.0 && v <= 100.0) ? LLMM_OK : LLMM_E_RANGE;
        } else {
            want = (v > 0.0 && v < 1.0) ? LLMM_OK : LLMM_E_RANGE;
        }
        CHECK(r == want);
        if (r == LLMM_OK) {
            if (key == 1)
                m->qb = v;
            else if (key == 2)
                m->qs = v;
            else
                m->factor = v;
        }
        return;
    }
    {
        int key = 4 + (which & 3); /* warm-up, slot length, slots, scale */
        uint64_t v;
        llmm_status want;
        switch (key) {
        case 4: v = fz_u8(in) & 1 ? fz_u64(in) : fz_u8(in) % 64; break;
        case 5: v = fz_u8(in) & 1 ? fz_u64(in) : 1 + fz_bytes(in, 3); break;
        case 6: v = fz_u8(in) & 1 ? fz_bytes(in, 4) : fz_u8(in) % 20; break;
        default: v = fz_u8(in) % 13; break;
        }
        r = llmm_spike_set_u64(d, (llmm_spike_option)key, v);
        if (key == 4) {
            want = (v >= 1 && v <= 4294967295u) ? LLMM_OK : LLMM_E_RANGE;
        } else {
            uint64_t sl = key == 5 ? v : m->slot_ns, n = key == 6 ? v : m->slots;
            int sc = key == 7 ? (int)v : m->scale;
            if (n < 2 || n > LLMM_WINDOW_SLOTS_MAX || sl == 0 || sl > UINT64_MAX / n ||
                sc > LLMM_SCALE_MAX)
                want = LLMM_E_RANGE;
            else if (m->started)
                want = LLMM_E_STATE;
            else if (n > 64) /* valid but slow: the model stays, the geometry too */
                want = LLMM_OK;
            else
                want = LLMM_OK;
        }
        CHECK(r == want);
        if (r != LLMM_OK)
            return;
        if (key == 4) {
            m->warmup = v;
            return;
        }
        if (key == 5)
            m->slot_ns = v;
        else if (key == 6)
            m->slots = v;
        else
            m->scale = (int32_t)v;
        model_clear(m);
    }
}

static uint64_t next_time(fz_input *in, uint64_t last, uint64_t slot_ns)
{
    uint8_t how = fz_u8(in);
    uint64_t d;
    switch (how & 7) {
    case 0:
        return last;
    case 1:
    case 2:
    case 3:
        d = fz_bytes(in, 2) % slot_ns;
        break;
    case 4:
    case 5:
        d = (fz_u8(in) % 4) * slot_ns + fz_bytes(in, 2) % slot_ns;
        break;
    case 6:
        d = fz_u64(in) >> (fz_u8(in) % 64);
        break;
    default:
        d = fz_bytes(in, 2);
        return last > d ? last - d : 0;
    }
    return d > UINT64_MAX - last ? UINT64_MAX : last + d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_input in = {data, size};
    model *m = &M;
    llmm_spike *d = NULL;
    int steps = 0;

    memset(m, 0, sizeof *m);
    CHECK(llmm_spike_new(NULL, &d) == LLMM_OK);
    m->slot_ns = 1000000000u;
    m->slots = 60;
    m->warmup = 1000;
    m->scale = LLMM_SCALE_DEFAULT;
    m->qb = 0.99;
    m->qs = 0.999;
    m->factor = 1.2;
    /* a short window and warm-up first, so that classification happens at all */
    CHECK(llmm_spike_set_u64(d, LLMM_SPIKE_SLOT_NS, m->slot_ns = 1 + fz_bytes(&in, 2)) ==
          LLMM_OK);
    CHECK(llmm_spike_set_u64(d, LLMM_SPIKE_SLOTS, m->slots = 2 + fz_u8(&in) % 15) == LLMM_OK);
    CHECK(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, m->warmup = 1 + fz_u8(&in) % 40) ==
          LLMM_OK);

    while (in.n && steps++ < 400 && m->n < MAXS) {
        uint8_t op = fz_u8(&in);
        if (m->slots > 64) { /* a valid but slow geometry was set: stop here */
            break;
        }
        switch (op % 10) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4: {
            uint64_t now = next_time(&in, m->last, m->slot_ns);
            observe(d, m, now, fz_value(&in));
            break;
        }
        case 5:
            check_stats(d, m, next_time(&in, m->last, m->slot_ns));
            break;
        case 6:
            check_rate(d, m, next_time(&in, m->last, m->slot_ns));
            break;
        case 7:
        case 8:
            set_option(d, m, &in);
            break;
        default:
            if ((fz_u8(&in) & 7) == 0) {
                CHECK(llmm_spike_reset(d) == LLMM_OK);
                model_clear(m);
            } else {
                uint64_t now = next_time(&in, m->last, m->slot_ns);
                double v = fz_value(&in);
                for (int k = 0; k < 8 && m->n < MAXS; k++)
                    observe(d, m, now, v * (1.0 + 0.01 * k));
            }
            break;
        }
    }
    llmm_spike_free(d);
    return 0;
}
