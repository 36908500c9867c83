/* 1.0 families: scorecard; Prometheus text, writer, negotiation, label escaping, bucket lists;
 * OTLP JSON with its size-prefixed options. */
#include "v1_0.h"

static void scorecard(void)
{
    double w[LLMM_LAYER_COUNT], v;
    int32_t i32;
    uint32_t perf, cap;
    llmm_scorecard *sc = NULL;
    GUARDED(llmm_score_result, r);
    CHECK_OK(llmm_scenario_weights(LLMM_SCENARIO_CUSTOMER_SERVICE, w, LLMM_LAYER_COUNT));
    CHECK(w[0] == 0.25 && w[1] == 0.40 && w[2] == 0.20 && w[3] == 0.15);
    CHECK_OK(llmm_score_normalize(LLMM_LOWER_IS_BETTER, 1.0, 3.0, 2.0, &v));
    CHECK(v == 0.5);
    CHECK_OK(llmm_scorecard_new(NULL, LLMM_SCENARIO_CUSTOMER_SERVICE, &sc));
    CHECK_OK(llmm_scorecard_set_i32(sc, LLMM_SCORECARD_MISSING, LLMM_MISSING_RENORMALIZE));
    CHECK_OK(llmm_scorecard_get_i32(sc, LLMM_SCORECARD_MISSING, &i32));
    CHECK(i32 == LLMM_MISSING_RENORMALIZE);
    CHECK_OK(llmm_scorecard_add_metric(sc, LLMM_LAYER_PERFORMANCE, "p95", LLMM_LOWER_IS_BETTER,
                                       1.0, 3.0, 1.0, &perf));
    CHECK_OK(llmm_scorecard_add_metric(sc, LLMM_LAYER_CAPABILITY, "acc", LLMM_HIGHER_IS_BETTER,
                                       1.0, 0.0, 1.0, &cap));
    CHECK_OK(llmm_scorecard_observe(sc, "p95", 2.0));
    CHECK_OK(llmm_scorecard_observe_id(sc, cap, 1.0));
    CHECK_OK(llmm_scorecard_metric_score(sc, perf, &v));
    CHECK(v == 0.5);
    CHECK_OK(llmm_scorecard_evaluate(sc, r));
    INTACT(r);
    /* capability 1 and performance 0.5, weights 0.25 and 0.40 renormalised over 0.65 */
    CHECK(r->renormalized == 1 && r->layers_missing == 2);
    CHECK_NEAR(r->overall, (0.25 * 1.0 + 0.40 * 0.5) / 0.65, 1e-12);
    CHECK(r->layer_metrics[LLMM_LAYER_PERFORMANCE] == 1 && r->layer_present[LLMM_LAYER_BUSINESS] == 0);
    CHECK_OK(llmm_scorecard_weights(sc, w, LLMM_LAYER_COUNT));
    CHECK_OK(llmm_scorecard_set_weights(sc, w, LLMM_LAYER_COUNT));
    CHECK_OK(llmm_scorecard_clear(sc));
    CHECK(llmm_scorecard_evaluate(sc, r) == LLMM_E_EMPTY);
    INTACT(r);
    llmm_scorecard_free(sc);
}

static void prometheus(const llmm_sketch *s)
{
    static const double quantiles[2] = {0.5, 0.99};
    uint8_t buf[8192];
    const uint8_t *data = NULL;
    const char *ct = NULL;
    double bounds[64];
    size_t len = 0, n = 0;
    llmm_prom_format f;
    llmm_prom_writer *w = NULL;
    CHECK_OK(llmm_export_prometheus_text(s, "lat", "job=\"x\"", 1.0, buf, sizeof buf - 1, &len));
    buf[len] = 0;
    CHECK(strstr((char *)buf, "lat_count{job=\"x\"} 3") != NULL);
    CHECK_OK(llmm_prom_label_escape("a\"b", buf, sizeof buf, &len));
    CHECK(len == 4 && memcmp(buf, "a\\\"b", 4) == 0);
    CHECK_OK(llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &w));
    CHECK_OK(llmm_prom_writer_family(w, "up", "is it up", LLMM_PROM_GAUGE, NULL, 0));
    CHECK_OK(llmm_prom_writer_value(w, NULL, 1.0));
    CHECK_OK(llmm_prom_writer_family(w, "req", "latency", LLMM_PROM_SUMMARY, quantiles, 2));
    CHECK_OK(llmm_prom_writer_sketch(w, NULL, s, 1.0));
    CHECK_OK(llmm_prom_writer_data(w, &data, &len));
    CHECK(data != NULL && len > 0);
    CHECK_OK(llmm_prom_writer_finish(w, buf, sizeof buf - 1, &len));
    buf[len] = 0;
    CHECK(strstr((char *)buf, "up 1") != NULL && strstr((char *)buf, "req_count 3") != NULL);
    CHECK_OK(llmm_prom_writer_reset(w, LLMM_PROM_TEXT));
    llmm_prom_writer_free(w);
    CHECK_OK(llmm_prom_negotiate("text/plain", &f, &ct));
    CHECK(f == LLMM_PROM_TEXT && strcmp(ct, llmm_prom_content_type(LLMM_PROM_TEXT)) == 0);
    CHECK_OK(llmm_prom_buckets(LLMM_BUCKETS_VLLM_TTFT, bounds, 64, &n));
    CHECK(n > 1 && bounds[0] < bounds[1]);
}

static void otlp(const llmm_sketch *s)
{
    uint8_t buf[8192];
    size_t len = 0;
    GUARDED(llmm_otlp_options, o);
    CHECK(o->unit_to_seconds == 1.0 && o->temporality == LLMM_OTLP_CUMULATIVE);
    o->time_unix_nano = 42;
    CHECK_OK(llmm_export_otlp_json_point(s, NULL, o, buf, sizeof buf - 1, &len));
    buf[len] = 0;
    CHECK(strstr((char *)buf, "\"count\":\"3\"") && strstr((char *)buf, "\"timeUnixNano\":\"42\""));
    o->unit = "ms";
    CHECK_OK(llmm_export_otlp_json(s, NULL, "lat", o, buf, sizeof buf - 1, &len));
    buf[len] = 0;
    CHECK(strstr((char *)buf, "\"unit\":\"ms\"") != NULL);
    INTACT(o);
    o->struct_size += 1;
    CHECK(llmm_export_otlp_json(s, NULL, "lat", o, buf, sizeof buf, &len) == LLMM_E_ABI);
}

void v1_score_export(void)
{
    llmm_sketch *s = NULL;
    scorecard();
    CHECK_OK(llmm_sketch_new(NULL, 6, &s));
    CHECK_OK(llmm_sketch_add(s, 0.1));
    CHECK_OK(llmm_sketch_add(s, 0.2));
    CHECK_OK(llmm_sketch_add(s, 0.3));
    prometheus(s);
    otlp(s);
    llmm_sketch_free(s);
}
