/* libFuzzer target: the collapse detector driven by random latencies, switches, TPS and
 * memory-bandwidth readings, options and time stamps, checked against a model of detect.h.
 *
 * The model keeps the last W latencies and recomputes each baseline from scratch in long
 * double (two passes); the detector's running sums must agree to rounding: its mean, σ and
 * threshold within a tolerance, and its outlier verdict exactly unless the latency lies
 * within that tolerance of the threshold. Everything else is exact: readiness (sample W + 1
 * on), the switch match (0 <= now - switch <= window), collapsed = outlier and (matched or no
 * switch required), the counts, and the switch report (TPS reference = the last reading given
 * before the switch, lowest matched reading after it, lowest matched bandwidth, each signal on
 * its own, the report open while the clock is inside the matching windows). Errors (bad
 * values, time going backwards, options out of bounds, W changed while latencies are held)
 * must return the documented status and change nothing. */
#include "fuzz_common.h"

#define WMAX 64

typedef struct model {
    uint64_t w, switch_ns, confirm_ns, require;
    double k, floor, tps_drop, membw_below;
    double ring[WMAX];
    uint64_t held, next; /* latencies in the ring, next slot */
    uint64_t samples, collapsed, switches, last;
    int marked, has_tps, has_before, has_after, has_membw;
    uint64_t at, latencies, flagged;
    double tps_last, tps_before, tps_after, membw;
} model;

static void clear(model *m)
{
    m->held = m->next = m->samples = m->collapsed = m->switches = m->last = 0;
    m->marked = m->has_tps = m->has_before = m->has_after = m->has_membw = 0;
    m->at = m->latencies = m->flagged = 0;
    m->tps_last = m->tps_before = m->tps_after = m->membw = 0.0;
}

static int value_status(double v)
{
    if (!isfinite(v) || v < 0)
        return LLMM_E_INVALID;
    return v > LLMM_DETECT_VALUE_MAX ? LLMM_E_RANGE : LLMM_OK;
}

static void observe(llmm_collapse *c, model *m, uint64_t now, double x, int ex)
{
    llmm_collapse_verdict v;
    int32_t flag = 77;
    llmm_status st, want;
    int matched, ready, outlier = 0, sure = 1, tiny = 0;
    long double mean = 0, var = 0, sigma, lo, thr = 0, tol = 0;
    double maxabs = x;

    want = now < m->last ? LLMM_E_INVALID : value_status(x);
    CHECK(llmm_collapse_verdict_init(&v) == LLMM_OK);
    st = ex ? llmm_collapse_observe_ex(c, now, x, &v) : llmm_collapse_observe(c, now, x, &flag);
    CHECK(st == want);
    if (st != LLMM_OK) {
        CHECK(ex || flag == 77);
        return;
    }
    matched = m->marked && now - m->at <= m->switch_ns;
    ready = m->held == m->w;
    if (ready) {
        for (uint64_t i = 0; i < m->w; i++) {
            mean += m->ring[i];
            if (m->ring[i] > maxabs)
                maxabs = m->ring[i];
        }
        mean /= (long double)m->w;
        for (uint64_t i = 0; i < m->w; i++)
            var += (m->ring[i] - mean) * (m->ring[i] - mean);
        var /= (long double)m->w;
        sigma = sqrtl(var);
        lo = (long double)m->floor * mean;
        if (sigma < lo)
            sigma = lo;
        thr = mean + (long double)m->k * sigma;
        /* the detector's running sums: absolute error of order eps * W * maxabs for the mean,
         * and of its square for the variance, so of eps^(1/2) * maxabs for σ */
        tol = 1e-9L * (1.0L + (long double)m->k) * (long double)maxabs +
              1e3L * (long double)m->w * 4.9406564584124654e-324L; /* subnormal latencies */
        outlier = (long double)x > thr;
        sure = fabsl((long double)x - thr) > tol;
        /* below ~1e-154 (of the caller's unit) the squares of the running sums underflow:
         * σ reads 0 and the recentring tests see no cancellation, so neither the mean nor the
         * threshold is checked for windows of such latencies (no latency is that small) */
        tiny = maxabs < 1e-150;
    }
    if (ex) {
        CHECK(v.ready == ready && v.after_switch == matched);
        CHECK(v.samples == m->samples + 1);
        CHECK(v.since_switch_ns == (m->marked ? now - m->at : UINT64_MAX));
        if (ready) {
            CHECK(tiny || fabsl((long double)v.mean - mean) <= tol);
            CHECK(tiny || fabsl((long double)v.threshold - thr) <= tol);
            CHECK(v.sigma >= 0 && v.threshold >= v.mean);
            if (sure && !tiny)
                CHECK(v.outlier == outlier);
            outlier = v.outlier;
        } else {
            CHECK(!v.outlier && !v.collapsed && v.mean == 0 && v.sigma == 0 &&
                  v.threshold == 0);
        }
        CHECK(v.collapsed == (v.outlier && (matched || !m->require)));
        flag = v.collapsed;
    } else {
        CHECK(flag == 0 || flag == 1);
        if (ready && sure && !tiny)
            CHECK(flag == (outlier && (matched || !m->require)));
        if (!ready)
            CHECK(flag == 0);
    }
    /* push */
    m->ring[m->next] = x;
    m->next = (m->next + 1) % m->w;
    if (m->held < m->w)
        m->held++;
    m->samples++;
    m->collapsed += (uint64_t)flag;
    if (matched) {
        m->latencies++;
        m->flagged += (uint64_t)flag;
    }
    m->last = now;
}

static void check_report(const llmm_collapse *c, const model *m)
{
    llmm_collapse_report r;
    uint64_t s, n, sw, reach;
    CHECK(llmm_collapse_counts(c, &s, &n, &sw) == LLMM_OK);
    CHECK(s == m->samples && n == m->collapsed && sw == m->switches);
    CHECK(llmm_collapse_report_init(&r) == LLMM_OK);
    if (!m->marked) {
        CHECK(llmm_collapse_switch_report(c, &r) == LLMM_E_EMPTY);
        return;
    }
    CHECK(llmm_collapse_switch_report(c, &r) == LLMM_OK);
    CHECK(r.switch_ns == m->at && r.latencies == m->latencies && r.flagged == m->flagged);
    CHECK(r.latency_confirmed == (m->flagged > 0));
    CHECK(r.tps_before == (m->has_before ? m->tps_before : 0.0));
    CHECK(r.tps_after == (m->has_after ? m->tps_after : 0.0));
    CHECK(r.tps_known == (m->has_before && m->has_after && m->tps_before > 0.0));
    if (r.tps_known) {
        CHECK(r.tps_drop == 1.0 - m->tps_after / m->tps_before);
        CHECK(r.tps_confirmed == (r.tps_drop > m->tps_drop));
    } else {
        CHECK(r.tps_drop == 0.0 && !r.tps_confirmed);
    }
    CHECK(r.membw_known == m->has_membw);
    CHECK(r.membw == (m->has_membw ? m->membw : 0.0));
    CHECK(r.membw_confirmed == (m->has_membw && m->membw < m->membw_below));
    CHECK(r.signals == r.latency_confirmed + r.tps_confirmed + r.membw_confirmed);
    reach = m->switch_ns > m->confirm_ns ? m->switch_ns : m->confirm_ns;
    CHECK(r.open == (m->last - m->at <= reach));
}

static void set_option(llmm_collapse *c, model *m, fz_input *in)
{
    uint8_t which = fz_u8(in);
    int key = 1 + which % 9; /* 9 is unknown */
    llmm_status st, want;
    if (key == 2 || key == 3 || key == 6 || key == 7) {
        double v = (which & 0x80) ? fz_double(in) : (double)fz_bytes(in, 2) / 16384.0;
        int ok = key == 2   ? (v > 0 && v <= 1000)
                 : key == 3 ? (v >= 0 && v <= 1)
                 : key == 6 ? (v > 0 && v < 1)
                            : (v > 0 && v <= 1);
        st = llmm_collapse_set_f64(c, (llmm_collapse_option)key, v);
        want = ok ? LLMM_OK : LLMM_E_RANGE;
        CHECK(st == want);
        if (st == LLMM_OK) {
            double got;
            CHECK(llmm_collapse_get_f64(c, (llmm_collapse_option)key, &got) == LLMM_OK &&
                  got == v);
            if (key == 2)
                m->k = v;
            else if (key == 3)
                m->floor = v;
            else if (key == 6)
                m->tps_drop = v;
            else
                m->membw_below = v;
        }
        return;
    }
    {
        uint64_t v = (which & 0x80) ? fz_u64(in) : fz_bytes(in, 3) % 70;
        if (key == 9) {
            CHECK(llmm_collapse_set_u64(c, (llmm_collapse_option)key, v) ==
                  LLMM_E_UNKNOWN_OPTION);
            CHECK(llmm_collapse_set_f64(c, LLMM_COLLAPSE_WINDOW, 1.0) ==
                  LLMM_E_UNKNOWN_OPTION);
            return;
        }
        if (key == 1 && v > WMAX && v <= LLMM_COLLAPSE_WINDOW_MAX)
            v = WMAX; /* valid, but the model's ring is smaller */
        st = llmm_collapse_set_u64(c, (llmm_collapse_option)key, v);
        if (key == 1)
            want = (v < 2 || v > LLMM_COLLAPSE_WINDOW_MAX) ? LLMM_E_RANGE
                   : (m->held && v != m->w)                ? LLMM_E_STATE
                                                           : LLMM_OK;
        else if (key == 5)
            want = v <= 1 ? LLMM_OK : LLMM_E_RANGE;
        else
            want = LLMM_OK;
        CHECK(st == want);
        if (st != LLMM_OK)
            return;
        {
            uint64_t got;
            CHECK(llmm_collapse_get_u64(c, (llmm_collapse_option)key, &got) == LLMM_OK &&
                  got == v);
        }
        switch (key) {
        case 1:
            if (v != m->w) { /* (only possible with no latency held) */
                m->w = v;
                m->next = 0;
            }
            break;
        case 4: m->switch_ns = v; break;
        case 5: m->require = v; break;
        default: m->confirm_ns = v; break;
        }
    }
}

static uint64_t next_time(fz_input *in, uint64_t last)
{
    uint8_t how = fz_u8(in);
    uint64_t d;
    switch (how & 7) {
    case 0:
    case 1:
        return last;
    case 2:
    case 3:
    case 4:
        d = fz_bytes(in, 2) * 1000u; /* up to 65 ms */
        break;
    case 5:
        d = fz_u64(in) >> (fz_u8(in) % 64);
        break;
    case 6:
        d = fz_bytes(in, 1);
        break;
    default:
        d = fz_bytes(in, 3);
        return last > d ? last - d : 0;
    }
    return d > UINT64_MAX - last ? UINT64_MAX : last + d;
}

static model M;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_input in = {data, size};
    model *m = &M;
    llmm_collapse *c = NULL;
    int steps = 0;

    memset(m, 0, sizeof *m);
    CHECK(llmm_collapse_new(NULL, &c) == LLMM_OK);
    m->w = 8;
    m->k = 2.5;
    m->floor = 0.01;
    m->switch_ns = 10000000;
    m->confirm_ns = 10000000;
    m->require = 1;
    m->tps_drop = 0.65;
    m->membw_below = 0.30;
    clear(m);
    while (in.n && steps++ < 400) {
        uint8_t op = fz_u8(&in);
        switch (op % 12) {
        case 0:
        case 1:
        case 2:
        case 3: {
            uint64_t now = next_time(&in, m->last);
            /* a level that jumps now and then, so outliers happen */
            double x = (op & 0x80) ? fz_value(&in) * 10.0 : fz_value(&in);
            observe(c, m, now, x, op & 0x10);
            break;
        }
        case 4: {
            uint64_t now = next_time(&in, m->last);
            llmm_status st = llmm_collapse_mark_switch(c, now);
            CHECK(st == (now < m->last ? LLMM_E_INVALID : LLMM_OK));
            if (st == LLMM_OK) {
                m->marked = 1;
                m->at = now;
                m->latencies = m->flagged = 0;
                m->has_before = m->has_tps;
                m->tps_before = m->tps_last;
                m->has_after = m->has_membw = 0;
                m->tps_after = m->membw = 0.0;
                m->switches++;
                m->last = now;
            }
            break;
        }
        case 5: {
            uint64_t now = next_time(&in, m->last);
            double v = (op & 0x80) ? fz_double(&in) : (double)fz_bytes(&in, 2);
            llmm_status st = llmm_collapse_observe_tps(c, now, v);
            CHECK(st == (now < m->last ? LLMM_E_INVALID : value_status(v)));
            if (st == LLMM_OK) {
                if (m->marked && now - m->at <= m->confirm_ns) {
                    if (!m->has_after || v < m->tps_after)
                        m->tps_after = v;
                    m->has_after = 1;
                }
                m->tps_last = v;
                m->has_tps = 1;
                m->last = now;
            }
            break;
        }
        case 6: {
            uint64_t now = next_time(&in, m->last);
            double v = (op & 0x80) ? fz_double(&in) : (double)fz_u8(&in) / 250.0;
            llmm_status st = llmm_collapse_observe_membw(c, now, v);
            CHECK(st == ((now < m->last || !(v >= 0.0 && v <= 1.0)) ? LLMM_E_INVALID
                                                                     : LLMM_OK));
            if (st == LLMM_OK) {
                if (m->marked && now - m->at <= m->confirm_ns) {
                    if (!m->has_membw || v < m->membw)
                        m->membw = v;
                    m->has_membw = 1;
                }
                m->last = now;
            }
            break;
        }
        case 7:
        case 8:
            check_report(c, m);
            break;
        case 9:
        case 10:
            set_option(c, m, &in);
            break;
        default:
            if ((fz_u8(&in) & 7) == 0) {
                CHECK(llmm_collapse_reset(c) == LLMM_OK);
                clear(m);
            } else {
                uint64_t now = next_time(&in, m->last);
                double base = fz_value(&in);
                for (int i = 0; i < 12; i++) /* a steady run, then a jump */
                    observe(c, m, now, i < 11 ? base * (1.0 + 0.001 * i) : base * 3.0, 1);
            }
            break;
        }
    }
    check_report(c, m);
    llmm_collapse_free(c);
    return 0;
}
