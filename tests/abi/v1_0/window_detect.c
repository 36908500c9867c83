/* 1.0 families: window, ratio window; spike, collapse, events, correlation, stability and
 * saturation detectors, with their size-prefixed readings. */
#include "v1_0.h"

#define SEC UINT64_C(1000000000)

static void windows(void)
{
    static const double qs[2] = {0.0, 1.0};
    double vals[4] = {1.0, 2.0, 3.0, 4.0}, out[2], x;
    uint64_t slot_ns, count, events, total;
    uint32_t slots;
    llmm_window *w = NULL;
    llmm_ratio_window *rw = NULL;
    llmm_sketch *into = NULL;
    CHECK_OK(llmm_window_new(NULL, SEC, 10, 6, &w));
    CHECK_OK(llmm_window_geometry(w, &slot_ns, &slots));
    CHECK(slot_ns == SEC && slots == 10);
    CHECK_OK(llmm_window_add(w, 5 * SEC, 10.0));
    CHECK_OK(llmm_window_add_many(w, 6 * SEC, vals, 4));
    CHECK_OK(llmm_window_count(w, 6 * SEC, 10 * SEC, &count));
    CHECK(count == 5);
    CHECK_OK(llmm_window_quantile(w, 6 * SEC, 10 * SEC, 1.0, &x));
    CHECK(x == 10.0);
    CHECK_OK(llmm_window_quantiles(w, 6 * SEC, 10 * SEC, qs, 2, out));
    CHECK(out[0] == 1.0 && out[1] == 10.0);
    CHECK_OK(llmm_sketch_new(NULL, 6, &into));
    CHECK_OK(llmm_window_snapshot(w, 6 * SEC, SEC, into));
    CHECK(llmm_sketch_count(into) == 4);
    CHECK_OK(llmm_window_reset(w));
    llmm_sketch_free(into);
    llmm_window_free(w);

    CHECK_OK(llmm_ratio_window_new(NULL, SEC, 10, &rw));
    CHECK_OK(llmm_ratio_window_add(rw, SEC, 3, 10));
    CHECK_OK(llmm_ratio_window_counts(rw, SEC, 10 * SEC, &events, &total));
    CHECK(events == 3 && total == 10);
    CHECK_OK(llmm_ratio_window_ratio(rw, SEC, 10 * SEC, &x));
    CHECK(x == 0.3);
    CHECK_OK(llmm_ratio_window_reset(rw));
    llmm_ratio_window_free(rw);
}

static void spike(void)
{
    llmm_spike *d = NULL;
    llmm_spike_level level;
    uint64_t u;
    double x;
    int i;
    GUARDED(llmm_spike_stats, st);
    CHECK_OK(llmm_spike_new(NULL, &d));
    CHECK_OK(llmm_spike_set_u64(d, LLMM_SPIKE_WARMUP, 10));
    CHECK_OK(llmm_spike_get_u64(d, LLMM_SPIKE_WARMUP, &u));
    CHECK(u == 10);
    CHECK_OK(llmm_spike_set_f64(d, LLMM_SPIKE_SEVERE_FACTOR, 1.5));
    CHECK_OK(llmm_spike_get_f64(d, LLMM_SPIKE_SEVERE_FACTOR, &x));
    CHECK(x == 1.5);
    for (i = 0; i < 20; i++)
        CHECK_OK(llmm_spike_observe(d, SEC + (uint64_t)i, 0.01, &level));
    CHECK_OK(llmm_spike_get_stats(d, 2 * SEC, st));
    INTACT(st);
    CHECK(st->struct_size == sizeof *st && st->total_samples == 20 && st->window_samples == 20);
    /* no baseline before the first slot, so nothing was classified */
    CHECK(st->window_classified == 0 && llmm_spike_rate(d, 2 * SEC, &x) == LLMM_E_EMPTY);
    st->struct_size += 1;
    CHECK(llmm_spike_get_stats(d, 2 * SEC, st) == LLMM_E_ABI);
    CHECK_OK(llmm_spike_reset(d));
    llmm_spike_free(d);
}

static void collapse(void)
{
    uint64_t samples, flagged, switches, u;
    int32_t collapsed;
    double x;
    int i;
    llmm_collapse *c = NULL;
    GUARDED(llmm_collapse_verdict, v);
    GUARDED(llmm_collapse_report, r);
    CHECK_OK(llmm_collapse_new(NULL, &c));
    CHECK_OK(llmm_collapse_set_u64(c, LLMM_COLLAPSE_WINDOW, 4));
    CHECK_OK(llmm_collapse_get_u64(c, LLMM_COLLAPSE_WINDOW, &u));
    CHECK(u == 4);
    CHECK_OK(llmm_collapse_set_f64(c, LLMM_COLLAPSE_K, 3.0));
    CHECK_OK(llmm_collapse_get_f64(c, LLMM_COLLAPSE_K, &x));
    CHECK(x == 3.0);
    for (i = 0; i < 4; i++)
        CHECK_OK(llmm_collapse_observe(c, (uint64_t)(i + 1) * 1000, 1.0, &collapsed));
    CHECK_OK(llmm_collapse_observe_tps(c, 5000, 100.0));
    CHECK_OK(llmm_collapse_mark_switch(c, 6000));
    CHECK_OK(llmm_collapse_observe_ex(c, 7000, 10.0, v));
    INTACT(v);
    CHECK(v->ready == 1 && v->outlier == 1 && v->collapsed == 1 && v->samples == 5);
    CHECK(v->mean == 1.0 && v->since_switch_ns == 1000);
    CHECK_OK(llmm_collapse_observe_tps(c, 8000, 20.0));
    CHECK_OK(llmm_collapse_observe_membw(c, 8000, 0.1));
    CHECK_OK(llmm_collapse_switch_report(c, r));
    INTACT(r);
    CHECK(r->switch_ns == 6000 && r->latencies == 1 && r->flagged == 1 && r->tps_known == 1);
    CHECK_NEAR(r->tps_drop, 0.8, 1e-12);
    CHECK_OK(llmm_collapse_counts(c, &samples, &flagged, &switches));
    CHECK(samples == 5 && flagged == 1 && switches == 1);
    CHECK_OK(llmm_collapse_reset(c));
    llmm_collapse_free(c);
}

static void events_correlation(void)
{
    static const double x[5] = {1, 2, 3, 4, 5}, y[5] = {3, 5, 7, 9, 11};
    llmm_event out[4];
    llmm_event_log *log = NULL;
    uint64_t count, held, total, dropped;
    size_t len = 0;
    double r;
    CHECK(strcmp(llmm_event_attr_name(LLMM_EVENT_GC_PAUSE), LLMM_EVENT_ATTR_GC_PAUSE) == 0);
    CHECK_OK(llmm_event_log_new(NULL, 8, &log));
    CHECK_OK(llmm_event_log_add(log, 100, LLMM_EVENT_GC_PAUSE, 2.0));
    CHECK_OK(llmm_event_log_add(log, 200, LLMM_EVENT_MAJOR_FAULT, 1.0));
    CHECK_OK(llmm_event_log_lookback(log, 250, 200, out, 4, &len));
    CHECK(len == 2 && out[0].time_ns == 200 && out[0].before_ns == 50 && sizeof out[0] == 32);
    CHECK_OK(llmm_event_log_count(log, LLMM_EVENT_GC_PAUSE, 0, 1000, &count));
    CHECK(count == 1);
    CHECK_OK(llmm_event_log_counts(log, &held, &total, &dropped));
    CHECK(held == 2 && total == 2 && dropped == 0);
    CHECK_OK(llmm_event_log_reset(log));
    llmm_event_log_free(log);
    CHECK_OK(llmm_correlation(NULL, x, y, 5, LLMM_CORRELATION_PEARSON, &r));
    CHECK_NEAR(r, 1.0, 1e-12);
    CHECK_OK(llmm_correlation(NULL, x, y, 5, LLMM_CORRELATION_SPEARMAN, &r));
    CHECK(r == 1.0);
}

static void stability_saturation(void)
{
    llmm_stability *s = NULL;
    llmm_saturation *sat = NULL;
    int32_t stable, saturated;
    uint64_t u;
    double x;
    int i;
    GUARDED(llmm_stability_reading, sr);
    GUARDED(llmm_saturation_reading, tr);
    CHECK_OK(llmm_stability_new(NULL, &s));
    CHECK_OK(llmm_stability_set_u64(s, LLMM_STABILITY_WINDOWS, 3));
    CHECK_OK(llmm_stability_get_u64(s, LLMM_STABILITY_WINDOWS, &u));
    CHECK(u == 3);
    CHECK_OK(llmm_stability_set_f64(s, LLMM_STABILITY_EPSILON, 0.1));
    CHECK_OK(llmm_stability_get_f64(s, LLMM_STABILITY_EPSILON, &x));
    CHECK(x == 0.1);
    for (i = 0; i < 3; i++)
        CHECK_OK(llmm_stability_add(s, 100.0 + i, &stable));
    CHECK(stable == 1);
    CHECK_OK(llmm_stability_read(s, sr));
    INTACT(sr);
    CHECK(sr->stable == 1 && sr->held == 3 && sr->min == 100.0 && sr->max == 102.0);
    CHECK_OK(llmm_stability_reset(s));
    llmm_stability_free(s);

    CHECK_OK(llmm_saturation_new(NULL, &sat));
    CHECK_OK(llmm_saturation_set_u64(sat, LLMM_SATURATION_WINDOW, 8));
    CHECK_OK(llmm_saturation_get_u64(sat, LLMM_SATURATION_WINDOW, &u));
    CHECK(u == 8);
    CHECK_OK(llmm_saturation_get_f64(sat, LLMM_SATURATION_CONFIDENCE, &x));
    CHECK_OK(llmm_saturation_set_f64(sat, LLMM_SATURATION_CONFIDENCE, x));
    for (i = 0; i < 8; i++)
        CHECK_OK(llmm_saturation_observe(sat, (uint64_t)(i + 1) * SEC, 1.0 + i, 2.0 * i,
                                         &saturated));
    CHECK_OK(llmm_saturation_read(sat, tr));
    INTACT(tr);
    CHECK(tr->ready == 1 && tr->samples == 8 && tr->total == 8);
    CHECK_NEAR(tr->latency_slope, 1.0, 1e-9); /* one unit per second */
    CHECK_NEAR(tr->inflight_slope, 2.0, 1e-9);
    CHECK_OK(llmm_saturation_reset(sat));
    llmm_saturation_free(sat);
}

void v1_window_detect(void)
{
    windows();
    spike();
    collapse();
    events_correlation();
    stability_saturation();
}
