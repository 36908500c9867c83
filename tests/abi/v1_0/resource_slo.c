/* 1.0 families: load imbalance, KV cache, TLB; SLO checks and window, goodput, burn rates,
 * error trigger; each with its size-prefixed reading. */
#include "v1_0.h"

#define SEC UINT64_C(1000000000)

static void lii_kv(void)
{
    static const double cpu[2] = {0.5, 0.5}, gpu[2] = {0.5, 0.5};
    static const uint64_t extents[3] = {4, 4, 8};
    llmm_lii_monitor *m = NULL;
    llmm_kv_hit_tracker *t = NULL;
    double v;
    int64_t ttl;
    GUARDED(llmm_lii_reading, lr);
    GUARDED(llmm_kv_occupancy_result, occ);
    GUARDED(llmm_kv_hit_reading, hr);
    CHECK_OK(llmm_lii(cpu, gpu, 2, &v));
    CHECK(v == 0.0); /* balanced */
    CHECK_OK(llmm_lii_monitor_new(NULL, 4, &m));
    CHECK_OK(llmm_lii_monitor_set_f64(m, LLMM_LII_SCALE_AT, 0.25));
    CHECK_OK(llmm_lii_monitor_get_f64(m, LLMM_LII_SCALE_AT, &v));
    CHECK(v == 0.25);
    CHECK_OK(llmm_lii_monitor_add(m, 0.5, 0.5));
    CHECK_OK(llmm_lii_monitor_read(m, lr));
    INTACT(lr);
    CHECK(lr->samples == 1 && lr->lii == 0.0 && lr->tier == LLMM_LII_KEEP && lr->scale == 0);
    CHECK_OK(llmm_lii_monitor_reset(m));
    llmm_lii_monitor_free(m);

    CHECK_OK(llmm_kv_fragmentation(extents, 3, &v));
    CHECK(v == 0.5); /* 1 − 8 / 16 */
    CHECK_OK(llmm_kv_evict_threshold(0.5, &v));
    CHECK_NEAR(v, 0.75, 1e-15);
    CHECK_OK(llmm_kv_ttl(0.5, &ttl));
    /* U·B − K = 4·16 − 50 = 14 slots wasted of T·B = 160 */
    CHECK_OK(llmm_kv_occupancy(16, 10, 4, 50, occ));
    INTACT(occ);
    CHECK(occ->wasted_slots == 14 && occ->block_occupancy == 0.4);
    CHECK(occ->token_occupancy == 50.0 / 160.0 && occ->gap == 14.0 / 160.0);
    CHECK(occ->internal_fragmentation == 14.0 / 64.0);
    CHECK_OK(llmm_kv_hit_tracker_new(NULL, 10 * SEC, &t));
    CHECK_OK(llmm_kv_hit_tracker_add(t, SEC, 3, 4));
    CHECK_OK(llmm_kv_hit_tracker_read(t, SEC, hr));
    INTACT(hr);
    CHECK(hr->hits == 3 && hr->lookups == 4 && hr->hit_rate == 0.75);
    CHECK_OK(llmm_kv_ttl(0.75, &ttl));
    CHECK(hr->ttl == ttl);
    CHECK_OK(llmm_kv_hit_tracker_reset(t));
    llmm_kv_hit_tracker_free(t);
}

static void tlb(void)
{
    llmm_tlb_monitor *m = NULL, *c = NULL;
    uint64_t window;
    double v;
    GUARDED(llmm_tlb_reading, r);
    CHECK_OK(llmm_tlb_preset(LLMM_TLB_OLTP_DATABASE, &v, &window));
    CHECK(v == 0.125 && window == SEC);
    CHECK_OK(llmm_page_walk_ns(30.0, 3e9, &v));
    CHECK_NEAR(v, 10.0, 1e-12);
    CHECK_OK(llmm_tlb_monitor_new(NULL, LLMM_TLB_OLTP_DATABASE, &m));
    CHECK_OK(llmm_tlb_monitor_new_custom(NULL, 0.1, SEC, &c));
    CHECK_OK(llmm_tlb_monitor_add(m, SEC, 30, 100));
    CHECK_OK(llmm_tlb_monitor_read(m, SEC, r));
    INTACT(r);
    CHECK(r->alert == 1 && r->misses == 30 && r->accesses == 100 && r->miss_rate == 0.3);
    CHECK(r->max_miss_rate == 0.125 && r->window_ns == SEC);
    CHECK_OK(llmm_tlb_monitor_reset(m));
    llmm_tlb_monitor_free(c);
    llmm_tlb_monitor_free(m);
}

static void slo(void)
{
    llmm_sketch *ok = NULL;
    llmm_slo_window *w = NULL;
    int i;
    GUARDED(llmm_slo_result, r);
    CHECK_OK(llmm_sketch_new(NULL, 6, &ok));
    for (i = 1; i <= 95; i++)
        CHECK_OK(llmm_sketch_add(ok, 0.1));
    CHECK_OK(llmm_slo_check(ok, 5, 0.2, 0.1, r));
    INTACT(r);
    CHECK(r->satisfied == 1 && r->successes == 95 && r->errors == 5 && r->quantile == 0.95);
    CHECK(r->error_rate == 0.05 && fabs(r->latency - 0.1) < 0.001);
    CHECK_OK(llmm_slo_check_quantile(ok, 50, 0.5, 0.2, 0.1, r));
    INTACT(r);
    CHECK(r->satisfied == 0 && r->errors_ok == 0 && r->latency_ok == 1);
    CHECK_OK(llmm_slo_window_new(NULL, SEC, 10, 6, &w));
    CHECK_OK(llmm_slo_window_add(w, SEC, 0.5));
    CHECK_OK(llmm_slo_window_add_errors(w, SEC, 1));
    CHECK_OK(llmm_slo_window_check(w, SEC, 10 * SEC, 0.5, 1.0, 0.6, r));
    INTACT(r);
    CHECK(r->successes == 1 && r->errors == 1 && r->error_rate == 0.5 && r->satisfied == 1);
    r->struct_size += 1;
    CHECK(llmm_slo_window_check(w, SEC, 10 * SEC, 0.5, 1.0, 0.6, r) == LLMM_E_ABI);
    CHECK_OK(llmm_slo_window_reset(w));
    llmm_slo_window_free(w);
    llmm_sketch_free(ok);
}

static void goodput_burn_trigger(void)
{
    llmm_goodput *g = NULL;
    llmm_burn *b = NULL;
    llmm_error_trigger *t = NULL;
    int32_t good;
    uint64_t u;
    double v;
    GUARDED(llmm_goodput_result, gr);
    GUARDED(llmm_burn_result, br);
    GUARDED(llmm_error_trigger_reading, tr);
    CHECK_OK(llmm_goodput_tpot(1.1, 0.1, 11, &v));
    CHECK_NEAR(v, 0.1, 1e-12);
    CHECK_OK(llmm_goodput_new(NULL, &g));
    CHECK_OK(llmm_goodput_set_f64(g, LLMM_GOODPUT_TTFT_MAX, 0.5));
    CHECK_OK(llmm_goodput_get_f64(g, LLMM_GOODPUT_TTFT_MAX, &v));
    CHECK(v == 0.5);
    CHECK_OK(llmm_goodput_observe(g, 0.2, 0.01, 1.0, &good));
    CHECK(good == 1);
    CHECK_OK(llmm_goodput_observe(g, 0.9, 0.01, 1.0, &good));
    CHECK(good == 0);
    CHECK_OK(llmm_goodput_add_failures(g, 2));
    CHECK_OK(llmm_goodput_read(g, 2 * SEC, gr));
    INTACT(gr);
    CHECK(gr->requests == 4 && gr->completed == 2 && gr->good == 1 && gr->fraction == 0.25);
    CHECK(gr->rate_per_s == 0.5 && gr->throughput_per_s == 1.0);
    CHECK_OK(llmm_goodput_reset(g));
    llmm_goodput_free(g);

    CHECK_OK(llmm_burn_rate(0.01, 0.99, &v));
    CHECK_NEAR(v, 1.0, 1e-12);
    CHECK_OK(llmm_burn_budget_spent(2.0, SEC, 10 * SEC, &v));
    CHECK_NEAR(v, 0.2, 1e-12);
    CHECK_OK(llmm_burn_new(NULL, 0.9, 0, 0, &b)); /* 10 s slots, 6 h */
    CHECK_OK(llmm_burn_set_u64(b, LLMM_BURN_FAST_SHORT_NS, 5 * SEC));
    CHECK_OK(llmm_burn_get_u64(b, LLMM_BURN_FAST_SHORT_NS, &u));
    CHECK(u == 5 * SEC);
    CHECK_OK(llmm_burn_get_f64(b, LLMM_BURN_SLO_TARGET, &v));
    CHECK(v == 0.9);
    CHECK_OK(llmm_burn_set_f64(b, LLMM_BURN_FAST_FACTOR, v > 0 ? 14.4 : 1.0));
    CHECK_OK(llmm_burn_add(b, SEC, 1, 4));
    CHECK_OK(llmm_burn_evaluate(b, SEC, br));
    INTACT(br);
    CHECK(br->requests[LLMM_BURN_FAST_SHORT] == 4 && br->errors[LLMM_BURN_FAST_SHORT] == 1);
    CHECK(br->error_rate[LLMM_BURN_FAST_SHORT] == 0.25);
    CHECK_NEAR(br->burn_rate[LLMM_BURN_FAST_SHORT], 2.5, 1e-12);
    CHECK_OK(llmm_burn_reset(b));
    llmm_burn_free(b);

    CHECK_OK(llmm_error_trigger_new(NULL, 10 * SEC, &t));
    CHECK_OK(llmm_error_trigger_set_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, 0.1));
    CHECK_OK(llmm_error_trigger_get_f64(t, LLMM_ERROR_TRIGGER_MAX_SHARE, &v));
    CHECK(v == 0.1);
    CHECK_OK(llmm_error_trigger_set_u64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, 5));
    CHECK_OK(llmm_error_trigger_get_u64(t, LLMM_ERROR_TRIGGER_MIN_REQUESTS, &u));
    CHECK(u == 5);
    CHECK_OK(llmm_error_trigger_add(t, SEC, 2, 10));
    CHECK_OK(llmm_error_trigger_check(t, SEC, tr));
    INTACT(tr);
    CHECK(tr->fired == 1 && tr->errors == 2 && tr->requests == 10 && tr->share == 0.2);
    CHECK_OK(llmm_error_trigger_reset(t));
    llmm_error_trigger_free(t);
}

void v1_resource_slo(void)
{
    lii_kv();
    tlb();
    slo();
    goodput_burn_trigger();
}
