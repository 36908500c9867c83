/* libFuzzer target: random operation sequences with random time stamps on a sketch window
 * and a ratio window of fuzzer-chosen geometry, checked against an exact model.
 *
 * The model keeps every accepted value with its time stamp. A window query at `now` over
 * `span` covers the slots cur − n + 1 … cur (cur = now / slot_ns, n = ceil(span / slot_ns));
 * its answer must equal, bucket for bucket and in min / max / counts, a fresh sketch of the
 * model's values in those slots, and its quantiles must be exactly that sketch's. The ratio
 * window's sums must equal the model's. Time going backwards, bad values and bad spans must
 * return the documented status and change nothing. */
#include "fuzz_common.h"

#define MAXV 4096

typedef struct model {
    uint64_t slot_ns;
    uint32_t slots;
    int32_t scale;
    uint64_t last;          /* latest accepted time stamp (window) */
    uint64_t rlast;         /* latest accepted time stamp (ratio window) */
    size_t n;
    uint64_t t[MAXV];
    double v[MAXV];
    size_t rn;
    uint64_t rt[MAXV], re[MAXV], rtot[MAXV];
} model;

static model M;

/* Slots a span covers: 0 = invalid span, UINT32_MAX = longer than the ring. */
static uint32_t span_slots(const model *m, uint64_t span)
{
    uint64_t k;
    if (span == 0)
        return 0;
    k = span / m->slot_ns + (span % m->slot_ns != 0);
    return k > m->slots ? UINT32_MAX : (uint32_t)k;
}

static int in_span(const model *m, uint64_t t, uint64_t now, uint32_t n)
{
    return now / m->slot_ns - t / m->slot_ns < n;
}

static llmm_sketch *reference(const model *m, uint64_t now, uint32_t n)
{
    static double v[MAXV];
    llmm_sketch *r = NULL;
    size_t k = 0;
    CHECK(llmm_sketch_new(NULL, m->scale, &r) == LLMM_OK);
    for (size_t i = 0; i < m->n; i++)
        if (in_span(m, m->t[i], now, n))
            v[k++] = m->v[i];
    CHECK(llmm_sketch_add_many(r, v, k) == LLMM_OK);
    return r;
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
        d = fz_bytes(in, 2) % (slot_ns ? slot_ns : 1);
        break;
    case 3:
    case 4:
        d = (fz_u8(in) % 8) * slot_ns + fz_bytes(in, 2) % slot_ns;
        break;
    case 5:
        d = fz_u64(in) >> (fz_u8(in) % 64); /* any jump */
        break;
    default: /* backwards (or an early time) */
        d = fz_bytes(in, 3);
        return last > d ? last - d : 0;
    }
    return d > UINT64_MAX - last ? UINT64_MAX : last + d;
}

static uint64_t pick_span(fz_input *in, const model *m)
{
    uint8_t how = fz_u8(in);
    switch (how & 3) {
    case 0:
        return (uint64_t)m->slots * m->slot_ns; /* whole ring */
    case 1:
        return (1 + fz_u8(in) % m->slots) * m->slot_ns;
    case 2:
        return fz_bytes(in, 4); /* anything: 0, partial slots, beyond the ring */
    default:
        return (fz_u8(in) % (m->slots + 1)) * m->slot_ns + (fz_u8(in) & 1);
    }
}

static void check_query(llmm_window *w, model *m, fz_input *in)
{
    uint64_t now = next_time(in, m->last, m->slot_ns), span = pick_span(in, m), c;
    uint32_t n = span_slots(m, span);
    llmm_status want = n == 0 ? LLMM_E_INVALID : n == UINT32_MAX ? LLMM_E_RANGE : LLMM_OK;
    uint8_t what = fz_u8(in) % 3;
    llmm_status st;
    if (want == LLMM_OK && now < m->last)
        want = LLMM_E_INVALID;
    if (what == 0) {
        st = llmm_window_count(w, now, span, &c);
        CHECK(st == want);
        if (st == LLMM_OK) {
            uint64_t e = 0;
            for (size_t i = 0; i < m->n; i++)
                e += in_span(m, m->t[i], now, n);
            CHECK(c == e);
        }
    } else if (what == 1) {
        double q[5] = {0.0, 0.5, 0.9, 0.99, 1.0}, out[5], ref[5];
        q[2] = (double)fz_u8(in) / 255.0;
        st = llmm_window_quantiles(w, now, span, q, 5, out);
        if (want == LLMM_OK) {
            llmm_sketch *r = reference(m, now, n);
            if (llmm_sketch_count(r) == 0) {
                CHECK(st == LLMM_E_EMPTY);
            } else {
                CHECK(st == LLMM_OK);
                CHECK(llmm_sketch_quantiles(r, q, 5, ref) == LLMM_OK);
                CHECK(memcmp(out, ref, sizeof out) == 0);
            }
            llmm_sketch_free(r);
            if (st == LLMM_E_EMPTY)
                return; /* an empty answer does not move the clock */
        } else {
            CHECK(st == want);
        }
    } else {
        llmm_sketch *into = NULL, *before = NULL;
        CHECK(llmm_sketch_new(NULL, fz_u8(in) % 11, &into) == LLMM_OK);
        if (fz_u8(in) & 1)
            CHECK(llmm_sketch_add(into, 3.0) == LLMM_OK);
        CHECK(llmm_sketch_clone(into, &before) == LLMM_OK);
        st = llmm_window_snapshot(w, now, span, into);
        CHECK(st == want);
        if (st == LLMM_OK) {
            llmm_sketch *r = reference(m, now, n);
            CHECK(fz_same_sketch(into, r));
            fz_check_sketch(into);
            fz_check_round_trip(into); /* a running merge minus what left it decodes */
            llmm_sketch_free(r);
        } else {
            CHECK(fz_same_sketch(into, before)); /* untouched */
        }
        llmm_sketch_free(into);
        llmm_sketch_free(before);
    }
    if (want == LLMM_OK)
        m->last = now;
}

static void check_ratio(llmm_ratio_window *rw, model *m, fz_input *in, int add)
{
    uint64_t now = next_time(in, m->rlast, m->slot_ns);
    llmm_status st;
    if (add) {
        uint64_t total = fz_u8(in) & 0x80 ? fz_u64(in) : fz_bytes(in, 2);
        uint64_t x = fz_u64(in);
        uint64_t ev = (fz_u8(in) & 1) && total < UINT64_MAX ? total + 1
                      : total == UINT64_MAX              ? x
                                                         : x % (total + 1);
        uint64_t have = 0;
        llmm_status want = (ev > total || now < m->rlast) ? LLMM_E_INVALID : LLMM_OK;
        if (want == LLMM_OK) {
            for (size_t i = 0; i < m->rn; i++)
                if (m->rt[i] / m->slot_ns == now / m->slot_ns)
                    have += m->rtot[i];
            if (total > UINT64_MAX - have)
                want = LLMM_E_RANGE;
        }
        st = llmm_ratio_window_add(rw, now, ev, total);
        CHECK(st == want);
        if (st == LLMM_OK && m->rn < MAXV) {
            m->rt[m->rn] = now;
            m->re[m->rn] = ev;
            m->rtot[m->rn] = total;
            m->rn++;
        }
        if (st == LLMM_OK)
            m->rlast = now;
        return;
    }
    {
        uint64_t span = pick_span(in, m), e, t, se = 0, stot = 0;
        uint32_t n = span_slots(m, span);
        llmm_status want = n == 0 ? LLMM_E_INVALID : n == UINT32_MAX ? LLMM_E_RANGE : LLMM_OK;
        int over = 0;
        double ratio;
        if (want == LLMM_OK && now < m->rlast)
            want = LLMM_E_INVALID;
        if (want == LLMM_OK) {
            for (size_t i = 0; i < m->rn; i++) {
                if (!in_span(m, m->rt[i], now, n))
                    continue;
                if (m->rtot[i] > UINT64_MAX - stot)
                    over = 1;
                else
                    stot += m->rtot[i];
                se += m->re[i]; /* events <= totals: no overflow once totals fit */
            }
            if (over)
                want = LLMM_E_RANGE;
        }
        st = llmm_ratio_window_counts(rw, now, span, &e, &t);
        CHECK(st == want);
        if (st == LLMM_OK)
            CHECK(e == se && t == stot);
        st = llmm_ratio_window_ratio(rw, now, span, &ratio);
        if (want == LLMM_OK && stot == 0)
            want = LLMM_E_EMPTY;
        CHECK(st == want);
        if (st == LLMM_OK)
            CHECK(ratio >= 0.0 && ratio <= 1.0 && ratio == (double)se / (double)stot);
        if (st == LLMM_OK || st == LLMM_E_EMPTY)
            m->rlast = now;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_input in = {data, size};
    model *m = &M;
    llmm_window *w = NULL;
    llmm_ratio_window *rw = NULL;
    uint8_t g = fz_u8(&in);
    uint64_t slot_ns;
    uint32_t slots;
    int steps = 0;
    llmm_status st;

    switch (g & 3) {
    case 0: slot_ns = 1 + fz_u8(&in); break;
    case 1: slot_ns = 1000000ull * (1 + fz_u8(&in)); break;
    case 2: slot_ns = 0; break; /* default 1 s */
    default: slot_ns = fz_u64(&in); break;
    }
    slots = (g & 4) ? (uint32_t)fz_bytes(&in, 4) : fz_u8(&in) % 17; /* 0 = default 60 */
    memset(m, 0, sizeof *m);
    m->scale = fz_u8(&in) % 12; /* 11 is invalid */
    st = llmm_window_new(NULL, slot_ns, slots, m->scale, &w);
    m->slot_ns = slot_ns ? slot_ns : LLMM_WINDOW_SLOT_NS_DEFAULT;
    m->slots = slots ? slots : LLMM_WINDOW_SLOTS_DEFAULT;
    if (m->scale > LLMM_SCALE_MAX || m->slots > LLMM_WINDOW_SLOTS_MAX ||
        m->slot_ns > UINT64_MAX / m->slots) {
        CHECK(st == LLMM_E_INVALID && w == NULL);
        return 0;
    }
    if (m->slots > 64) { /* valid, but keep the runs fast */
        CHECK(st == LLMM_OK);
        llmm_window_free(w);
        return 0;
    }
    CHECK(st == LLMM_OK);
    {
        uint64_t gs;
        uint32_t gn;
        CHECK(llmm_window_geometry(w, &gs, &gn) == LLMM_OK);
        CHECK(gs == m->slot_ns && gn == m->slots);
    }
    CHECK(llmm_ratio_window_new(NULL, slot_ns, slots, &rw) == LLMM_OK);

    while (in.n && steps++ < 200) {
        uint8_t op = fz_u8(&in);
        switch (op % 8) {
        case 0:
        case 1: { /* add one */
            uint64_t now = next_time(&in, m->last, m->slot_ns);
            double v = fz_value(&in);
            llmm_status want = (!isfinite(v) || v < 0 || now < m->last) ? LLMM_E_INVALID
                                                                         : LLMM_OK;
            st = llmm_window_add(w, now, v);
            CHECK(st == want);
            if (st == LLMM_OK) {
                m->last = now;
                if (m->n < MAXV) {
                    m->t[m->n] = now;
                    m->v[m->n++] = v;
                } else {
                    goto done; /* the model is full: stop here */
                }
            }
            break;
        }
        case 2: { /* add many */
            uint64_t now = next_time(&in, m->last, m->slot_ns);
            double v[16];
            size_t k = fz_u8(&in) % 17;
            int bad = 0;
            for (size_t i = 0; i < k; i++) {
                v[i] = fz_value(&in);
                bad |= !isfinite(v[i]) || v[i] < 0;
            }
            st = llmm_window_add_many(w, now, v, k);
            CHECK(st == ((bad || now < m->last) ? LLMM_E_INVALID : LLMM_OK));
            if (st == LLMM_OK) {
                m->last = now;
                if (m->n + k > MAXV)
                    goto done;
                for (size_t i = 0; i < k; i++) {
                    m->t[m->n] = now;
                    m->v[m->n++] = v[i];
                }
            }
            break;
        }
        case 3:
        case 4:
            check_query(w, m, &in);
            break;
        case 5:
            check_ratio(rw, m, &in, 1);
            break;
        case 6:
            check_ratio(rw, m, &in, 0);
            break;
        default:
            if ((fz_u8(&in) & 15) == 0) { /* rarely: reset both */
                CHECK(llmm_window_reset(w) == LLMM_OK);
                CHECK(llmm_ratio_window_reset(rw) == LLMM_OK);
                m->n = m->rn = 0;
                m->last = m->rlast = 0;
            } else {
                check_query(w, m, &in);
            }
            break;
        }
    }
done:
    llmm_ratio_window_free(rw);
    llmm_window_free(w);
    return 0;
}
