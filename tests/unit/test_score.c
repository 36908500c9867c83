/* Score module: presets, normalisation, the four-layer scorecard. Values are hand-computed
 * from doc/spec.md §1 (see the comments next to each expectation). Links the shared library. */
#include "helpers.h"

#define TOL 1e-12

static void test_preset_table(void **state)
{
    /* doc/spec.md §1, capability / performance / engineering / business. */
    static const double expect[3][4] = {
        {0.25, 0.40, 0.20, 0.15},
        {0.45, 0.20, 0.15, 0.20},
        {0.35, 0.10, 0.25, 0.30},
    };
    static const llmm_scenario presets[3] = {LLMM_SCENARIO_CUSTOMER_SERVICE,
                                             LLMM_SCENARIO_CODE_ASSISTANT,
                                             LLMM_SCENARIO_CONTENT_GENERATION};
    double w[4];
    (void)state;
    assert_int_equal(sizeof(llmm_scenario), sizeof(int));
    assert_int_equal(sizeof(llmm_layer), sizeof(int));
    assert_int_equal(sizeof(llmm_direction), sizeof(int));
    assert_int_equal(LLMM_LAYER_COUNT, 4);
    for (int p = 0; p < 3; p++) {
        double sum = 0.0;
        assert_ok(llmm_scenario_weights(presets[p], w, 4));
        for (int l = 0; l < 4; l++) {
            assert_true(w[l] == expect[p][l]);
            sum += w[l];
        }
        assert_close(sum, 1.0, 0.0, 1e-15);
    }
    /* a scorecard made from a preset reports the same weights */
    for (int p = 0; p < 3; p++) {
        llmm_scorecard *sc;
        assert_ok(llmm_scorecard_new(NULL, presets[p], &sc));
        assert_ok(llmm_scorecard_weights(sc, w, 4));
        for (int l = 0; l < 4; l++)
            assert_true(w[l] == expect[p][l]);
        llmm_scorecard_free(sc);
    }
    w[0] = -7.0;
    assert_status(llmm_scenario_weights(LLMM_SCENARIO_CUSTOM, w, 4), LLMM_E_INVALID);
    assert_status(llmm_scenario_weights((llmm_scenario)4, w, 4), LLMM_E_INVALID);
    assert_status(llmm_scenario_weights((llmm_scenario)-1, w, 4), LLMM_E_INVALID);
    assert_status(llmm_scenario_weights(LLMM_SCENARIO_CODE_ASSISTANT, w, 3), LLMM_E_INVALID);
    assert_status(llmm_scenario_weights(LLMM_SCENARIO_CODE_ASSISTANT, w, 5), LLMM_E_INVALID);
    assert_status(llmm_scenario_weights(LLMM_SCENARIO_CODE_ASSISTANT, NULL, 4), LLMM_E_INVALID);
    assert_true(w[0] == -7.0); /* untouched by the failures */
}

static void test_normalize(void **state)
{
    double s;
    (void)state;
    /* higher is better, target 100, worst 50: linear between, clamped outside */
    assert_ok(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, 50, 75, &s));
    assert_close(s, 0.5, 0, TOL);
    assert_ok(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, 50, 100, &s));
    assert_true(s == 1.0);
    assert_ok(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, 50, 50, &s));
    assert_true(s == 0.0);
    assert_ok(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, 50, 1e300, &s));
    assert_true(s == 1.0);
    assert_ok(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, 50, -1e300, &s));
    assert_true(s == 0.0);
    /* lower is better: P95 target 200 ms, worst 800 ms, observed 350 → 450 / 600 = 0.75 */
    assert_ok(llmm_score_normalize(LLMM_LOWER_IS_BETTER, 200, 800, 350, &s));
    assert_close(s, 0.75, 0, TOL);
    assert_ok(llmm_score_normalize(LLMM_LOWER_IS_BETTER, 200, 800, 200, &s));
    assert_true(s == 1.0);
    assert_ok(llmm_score_normalize(LLMM_LOWER_IS_BETTER, 200, 800, 800, &s));
    assert_true(s == 0.0);
    assert_ok(llmm_score_normalize(LLMM_LOWER_IS_BETTER, 200, 800, 100, &s));
    assert_true(s == 1.0);
    assert_ok(llmm_score_normalize(LLMM_LOWER_IS_BETTER, 200, 800, 900, &s));
    assert_true(s == 0.0);
    /* negative values are fine (an uplift can be negative): target 0.1, worst -0.1, value 0 */
    assert_ok(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 0.1, -0.1, 0.0, &s));
    assert_close(s, 0.5, 0, TOL);
    /* bad input */
    s = -1.0;
    assert_status(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 50, 100, 75, &s), LLMM_E_INVALID);
    assert_status(llmm_score_normalize(LLMM_LOWER_IS_BETTER, 100, 50, 75, &s), LLMM_E_INVALID);
    assert_status(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 50, 50, 50, &s), LLMM_E_INVALID);
    assert_status(llmm_score_normalize(LLMM_LOWER_IS_BETTER, 50, 50, 50, &s), LLMM_E_INVALID);
    assert_status(llmm_score_normalize((llmm_direction)2, 100, 50, 75, &s), LLMM_E_INVALID);
    assert_status(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, NAN, 50, 75, &s), LLMM_E_INVALID);
    assert_status(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, -INFINITY, 75, &s),
                  LLMM_E_INVALID);
    assert_status(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, 50, NAN, &s), LLMM_E_INVALID);
    assert_status(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, 50, INFINITY, &s),
                  LLMM_E_INVALID);
    assert_status(llmm_score_normalize(LLMM_HIGHER_IS_BETTER, 100, 50, 75, NULL), LLMM_E_INVALID);
    assert_true(s == -1.0);
}

/* The customer-service card used by several tests. Hand-computed metric scores:
 *   capability:  factual 0.90 in [0.75 → 0.95] = 0.75 (w 1); instr 0.75 in [0.5 → 1] = 0.5 (w 1)
 *                → layer (0.75 + 0.5) / 2 = 0.625
 *   performance: p95 350 in [800 → 200] = 0.75 (w 3); rps 60 in [20 → 100] = 0.5 (w 1)
 *                → layer (3·0.75 + 0.5) / 4 = 0.6875
 *   engineering: err 0 in [0.05 → 0.001] = 1 (clamped); cold 12 in [10 → 2] = 0 (clamped)
 *                → layer 0.5
 *   business:    review 0.8 in [0.6 → 0.9] = 2/3 */
static llmm_scorecard *make_card(llmm_ctx *ctx, int with_business)
{
    llmm_scorecard *sc;
    uint32_t id;
    assert_ok(llmm_scorecard_new(ctx, LLMM_SCENARIO_CUSTOMER_SERVICE, &sc));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_CAPABILITY, "factual_consistency",
                                        LLMM_HIGHER_IS_BETTER, 0.95, 0.75, 1.0, &id));
    assert_int_equal(id, 0);
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_CAPABILITY, "instruction_following",
                                        LLMM_HIGHER_IS_BETTER, 1.0, 0.5, 1.0, &id));
    assert_int_equal(id, 1);
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_PERFORMANCE, "p95_ms",
                                        LLMM_LOWER_IS_BETTER, 200, 800, 3.0, &id));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_PERFORMANCE, "throughput_rps",
                                        LLMM_HIGHER_IS_BETTER, 100, 20, 1.0, NULL));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_ENGINEERING, "error_rate",
                                        LLMM_LOWER_IS_BETTER, 0.001, 0.05, 1.0, NULL));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_ENGINEERING, "cold_start_s",
                                        LLMM_LOWER_IS_BETTER, 2, 10, 1.0, &id));
    assert_int_equal(id, 5);
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_BUSINESS, "review_pass_rate",
                                        LLMM_HIGHER_IS_BETTER, 0.9, 0.6, 1.0, &id));
    assert_int_equal(id, 6);
    assert_ok(llmm_scorecard_observe(sc, "factual_consistency", 0.90));
    assert_ok(llmm_scorecard_observe(sc, "instruction_following", 0.75));
    assert_ok(llmm_scorecard_observe(sc, "p95_ms", 350));
    assert_ok(llmm_scorecard_observe(sc, "throughput_rps", 60));
    assert_ok(llmm_scorecard_observe(sc, "error_rate", 0.0));
    assert_ok(llmm_scorecard_observe_id(sc, 5, 12));
    if (with_business)
        assert_ok(llmm_scorecard_observe_id(sc, 6, 0.8));
    return sc;
}

static void test_full_card(void **state)
{
    llmm_scorecard *sc = make_card(NULL, 1);
    llmm_score_result r;
    double s;
    (void)state;
    assert_ok(llmm_score_result_init(&r));
    assert_int_equal(r.struct_size, sizeof r);
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_int_equal(r.scenario, LLMM_SCENARIO_CUSTOMER_SERVICE);
    assert_int_equal(r.layers_missing, 0);
    assert_int_equal(r.renormalized, 0);
    assert_close(r.layer_score[0], 0.625, 0, TOL);
    assert_close(r.layer_score[1], 0.6875, 0, TOL);
    assert_close(r.layer_score[2], 0.5, 0, TOL);
    assert_close(r.layer_score[3], 2.0 / 3.0, 0, TOL);
    /* contributions 0.25·0.625, 0.40·0.6875, 0.20·0.5, 0.15·2/3 */
    assert_close(r.layer_contribution[0], 0.15625, 0, TOL);
    assert_close(r.layer_contribution[1], 0.275, 0, TOL);
    assert_close(r.layer_contribution[2], 0.1, 0, TOL);
    assert_close(r.layer_contribution[3], 0.1, 0, TOL);
    assert_close(r.overall, 0.63125, 0, TOL);
    for (int l = 0; l < 4; l++) {
        assert_int_equal(r.layer_present[l], 1);
        assert_int_equal(r.layer_observed[l], r.layer_metrics[l]);
    }
    assert_int_equal(r.layer_metrics[0], 2);
    assert_int_equal(r.layer_metrics[1], 2);
    assert_int_equal(r.layer_metrics[2], 2);
    assert_int_equal(r.layer_metrics[3], 1);
    assert_true(r.layer_weight[1] == 0.40);
    assert_close(r.layer_effective_weight[1], 0.40, 0, TOL);
    /* per-metric scores */
    assert_ok(llmm_scorecard_metric_score(sc, 2, &s));
    assert_close(s, 0.75, 0, TOL);
    assert_ok(llmm_scorecard_metric_score(sc, 4, &s));
    assert_true(s == 1.0);
    assert_ok(llmm_scorecard_metric_score(sc, 5, &s));
    assert_true(s == 0.0);
    /* a later observation replaces the earlier one: review 0.9 → business 1 →
     * overall 0.53125 + 0.15 = 0.68125 */
    assert_ok(llmm_scorecard_observe(sc, "review_pass_rate", 0.9));
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_true(r.layer_score[3] == 1.0);
    assert_close(r.overall, 0.68125, 0, TOL);
    /* the same card with the code-assistant weights, set as custom:
     * 0.45·0.625 + 0.20·0.6875 + 0.15·0.5 + 0.20·1
     * = 0.28125 + 0.1375 + 0.075 + 0.2 = 0.69375 */
    double ca[4];
    assert_ok(llmm_scenario_weights(LLMM_SCENARIO_CODE_ASSISTANT, ca, 4));
    assert_ok(llmm_scorecard_set_weights(sc, ca, 4));
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_int_equal(r.scenario, LLMM_SCENARIO_CUSTOM);
    assert_close(r.overall, 0.69375, 0, TOL);
    llmm_scorecard_free(sc);
}

static void test_missing_layer(void **state)
{
    llmm_scorecard *sc = make_card(NULL, 0); /* business defined but never observed */
    llmm_score_result r;
    int32_t v = -1;
    (void)state;
    llmm_score_result_init(&r);
    assert_ok(llmm_scorecard_get_i32(sc, LLMM_SCORECARD_MISSING, &v));
    assert_int_equal(v, LLMM_MISSING_REFUSE); /* the default */
    /* refused, but the per-layer picture is reported */
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_STATE);
    assert_true(isnan(r.overall));
    assert_int_equal(r.layers_missing, 1);
    assert_int_equal(r.layer_present[3], 0);
    assert_true(isnan(r.layer_score[3])); /* missing, not zero */
    assert_int_equal(r.layer_metrics[3], 1);
    assert_int_equal(r.layer_observed[3], 0);
    assert_close(r.layer_score[1], 0.6875, 0, TOL);
    for (int l = 0; l < 4; l++) {
        assert_true(r.layer_effective_weight[l] == 0.0);
        assert_true(r.layer_contribution[l] == 0.0);
    }
    /* renormalised over the present layers: (0.15625 + 0.275 + 0.1) / 0.85 = 0.625 */
    assert_ok(llmm_scorecard_set_i32(sc, LLMM_SCORECARD_MISSING, LLMM_MISSING_RENORMALIZE));
    assert_ok(llmm_scorecard_get_i32(sc, LLMM_SCORECARD_MISSING, &v));
    assert_int_equal(v, LLMM_MISSING_RENORMALIZE);
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_int_equal(r.renormalized, 1);
    assert_int_equal(r.layers_missing, 1);
    assert_close(r.overall, 0.625, 0, TOL);
    assert_close(r.layer_effective_weight[0], 0.25 / 0.85, 0, TOL);
    assert_close(r.layer_effective_weight[1], 0.40 / 0.85, 0, TOL);
    assert_close(r.layer_effective_weight[2], 0.20 / 0.85, 0, TOL);
    assert_true(r.layer_effective_weight[3] == 0.0);
    assert_true(r.layer_contribution[3] == 0.0);
    assert_true(isnan(r.layer_score[3]));
    assert_true(r.layer_weight[3] == 0.15);
    assert_close(r.layer_contribution[1], 0.275 / 0.85, 0, TOL);
    /* nothing observed at all: empty under both policies */
    assert_ok(llmm_scorecard_clear(sc));
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_EMPTY);
    assert_int_equal(r.layers_missing, 4);
    assert_true(isnan(r.overall));
    assert_ok(llmm_scorecard_set_i32(sc, LLMM_SCORECARD_MISSING, LLMM_MISSING_REFUSE));
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_EMPTY);
    double s;
    assert_status(llmm_scorecard_metric_score(sc, 0, &s), LLMM_E_EMPTY);
    llmm_scorecard_free(sc);

    /* a card with no metrics at all */
    assert_ok(llmm_scorecard_new(NULL, LLMM_SCENARIO_CODE_ASSISTANT, &sc));
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_EMPTY);
    assert_int_equal(r.layer_metrics[0], 0);
    llmm_scorecard_free(sc);
}

static void test_zero_weight_layers(void **state)
{
    llmm_scorecard *sc;
    llmm_score_result r;
    const double w[4] = {0.5, 0.5, 0.0, 0.0};
    const double only_biz[4] = {0.0, 0.0, 0.0, 1.0};
    (void)state;
    llmm_score_result_init(&r);
    assert_ok(llmm_scorecard_new(NULL, LLMM_SCENARIO_CUSTOM, &sc));
    assert_ok(llmm_scorecard_set_weights(sc, w, 4));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_CAPABILITY, "a", LLMM_HIGHER_IS_BETTER,
                                        1, 0, 1, NULL));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_PERFORMANCE, "b", LLMM_HIGHER_IS_BETTER,
                                        1, 0, 1, NULL));
    assert_ok(llmm_scorecard_observe(sc, "a", 0.25));
    assert_ok(llmm_scorecard_observe(sc, "b", 0.75));
    /* the missing layers weigh 0: not a refusal, not a renormalisation; 0.5·0.25 + 0.5·0.75 */
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_int_equal(r.layers_missing, 2);
    assert_int_equal(r.renormalized, 0);
    assert_close(r.overall, 0.5, 0, TOL);
    /* only zero-weight layers present: nothing to score */
    assert_ok(llmm_scorecard_set_weights(sc, only_biz, 4));
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_EMPTY);
    assert_ok(llmm_scorecard_set_i32(sc, LLMM_SCORECARD_MISSING, LLMM_MISSING_RENORMALIZE));
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_EMPTY);
    llmm_scorecard_free(sc);
}

static void test_custom_weights(void **state)
{
    llmm_scorecard *sc;
    llmm_score_result r;
    double w[4];
    (void)state;
    assert_ok(llmm_scorecard_new(NULL, LLMM_SCENARIO_CUSTOM, &sc));
    /* custom card before its weights: both readers refuse, r untouched */
    assert_status(llmm_scorecard_weights(sc, w, 4), LLMM_E_STATE);
    llmm_score_result_init(&r);
    r.overall = 42.0;
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_CAPABILITY, "c", LLMM_HIGHER_IS_BETTER, 1,
                                        0, 1, NULL));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_PERFORMANCE, "p", LLMM_HIGHER_IS_BETTER,
                                        1, 0, 1, NULL));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_ENGINEERING, "e", LLMM_HIGHER_IS_BETTER,
                                        1, 0, 1, NULL));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_BUSINESS, "b", LLMM_HIGHER_IS_BETTER, 1,
                                        0, 1, NULL));
    assert_ok(llmm_scorecard_observe(sc, "c", 1.0));
    assert_ok(llmm_scorecard_observe(sc, "p", 1.0));
    assert_ok(llmm_scorecard_observe(sc, "e", 0.0));
    assert_ok(llmm_scorecard_observe(sc, "b", 0.5));
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_STATE);
    assert_true(r.overall == 42.0);

    /* sums of 1 ± 1e-12 are accepted (documented boundary), 1 ± 2e-9 are not */
    const double ok_low[4] = {0.25, 0.25, 0.25, 0.25 - 1e-12};
    const double ok_high[4] = {0.25, 0.25, 0.25, 0.25 + 1e-12};
    const double bad_low[4] = {0.25, 0.25, 0.25, 0.25 - 2e-9};
    const double bad_high[4] = {0.25, 0.25, 0.25, 0.25 + 2e-9};
    const double negative[4] = {0.6, 0.5, -0.1, 0.0};
    const double nan_w[4] = {NAN, 0.5, 0.25, 0.25};
    const double inf_w[4] = {INFINITY, 0.5, 0.25, 0.25};
    const double plain[4] = {0.1, 0.2, 0.3, 0.4};
    assert_ok(llmm_scorecard_set_weights(sc, plain, 4));
    /* 0.1·1 + 0.2·1 + 0.3·0 + 0.4·0.5 = 0.5 */
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_close(r.overall, 0.5, 0, TOL);
    assert_status(llmm_scorecard_set_weights(sc, bad_low, 4), LLMM_E_INVALID);
    assert_status(llmm_scorecard_set_weights(sc, bad_high, 4), LLMM_E_INVALID);
    assert_status(llmm_scorecard_set_weights(sc, negative, 4), LLMM_E_INVALID);
    assert_status(llmm_scorecard_set_weights(sc, nan_w, 4), LLMM_E_INVALID);
    assert_status(llmm_scorecard_set_weights(sc, inf_w, 4), LLMM_E_INVALID);
    assert_status(llmm_scorecard_set_weights(sc, plain, 3), LLMM_E_INVALID);
    assert_status(llmm_scorecard_set_weights(sc, NULL, 4), LLMM_E_INVALID);
    assert_status(llmm_scorecard_set_weights(NULL, plain, 4), LLMM_E_INVALID);
    /* the failures changed nothing */
    assert_ok(llmm_scorecard_weights(sc, w, 4));
    for (int l = 0; l < 4; l++)
        assert_true(w[l] == plain[l]);
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_close(r.overall, 0.5, 0, TOL);
    /* accepted boundary sets score like their rescaled version: all four layers at 1 → 1 */
    assert_ok(llmm_scorecard_observe(sc, "e", 1.0));
    assert_ok(llmm_scorecard_observe(sc, "b", 1.0));
    assert_ok(llmm_scorecard_set_weights(sc, ok_low, 4));
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_close(r.overall, 1.0, 0, 1e-15);
    assert_ok(llmm_scorecard_set_weights(sc, ok_high, 4));
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_close(r.overall, 1.0, 0, 1e-15);
    assert_true(r.overall <= 1.0);
    double sum = 0.0;
    for (int l = 0; l < 4; l++)
        sum += r.layer_effective_weight[l];
    assert_close(sum, 1.0, 0, 1e-15);
    /* weights reading back: exactly what was set */
    assert_ok(llmm_scorecard_weights(sc, w, 4));
    assert_true(w[3] == ok_high[3]);
    assert_status(llmm_scorecard_weights(sc, w, 5), LLMM_E_INVALID);
    assert_status(llmm_scorecard_weights(sc, NULL, 4), LLMM_E_INVALID);
    assert_status(llmm_scorecard_weights(NULL, w, 4), LLMM_E_INVALID);
    llmm_scorecard_free(sc);
}

static void test_add_metric_errors(void **state)
{
    llmm_scorecard *sc;
    llmm_score_result r;
    char name[300];
    uint32_t id = 77;
    (void)state;
    assert_ok(llmm_scorecard_new(NULL, LLMM_SCENARIO_CUSTOMER_SERVICE, &sc));
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_CAPABILITY, "m", LLMM_HIGHER_IS_BETTER, 1,
                                        0, 1, &id));
    assert_int_equal(id, 0);
    id = 77;
#define ADD(layer, nm, dir, t, w_, wt) llmm_scorecard_add_metric(sc, layer, nm, dir, t, w_, wt, &id)
    assert_status(ADD(LLMM_LAYER_CAPABILITY, NULL, LLMM_HIGHER_IS_BETTER, 1, 0, 1), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "", LLMM_HIGHER_IS_BETTER, 1, 0, 1), LLMM_E_INVALID);
    /* duplicates are refused, also in another layer */
    assert_status(ADD(LLMM_LAYER_BUSINESS, "m", LLMM_HIGHER_IS_BETTER, 1, 0, 1), LLMM_E_INVALID);
    assert_status(ADD((llmm_layer)4, "x", LLMM_HIGHER_IS_BETTER, 1, 0, 1), LLMM_E_INVALID);
    assert_status(ADD((llmm_layer)-1, "x", LLMM_HIGHER_IS_BETTER, 1, 0, 1), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", (llmm_direction)2, 1, 0, 1), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_HIGHER_IS_BETTER, 0, 1, 1), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_LOWER_IS_BETTER, 1, 0, 1), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_LOWER_IS_BETTER, 1, 1, 1), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_HIGHER_IS_BETTER, NAN, 0, 1), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_HIGHER_IS_BETTER, 1, -INFINITY, 1),
                  LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_HIGHER_IS_BETTER, 1, 0, 0), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_HIGHER_IS_BETTER, 1, 0, -1), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_HIGHER_IS_BETTER, 1, 0, NAN), LLMM_E_INVALID);
    assert_status(ADD(LLMM_LAYER_CAPABILITY, "x", LLMM_HIGHER_IS_BETTER, 1, 0, INFINITY),
                  LLMM_E_INVALID);
    assert_status(llmm_scorecard_add_metric(NULL, LLMM_LAYER_CAPABILITY, "x",
                                            LLMM_HIGHER_IS_BETTER, 1, 0, 1, &id),
                  LLMM_E_INVALID);
    /* name length: 255 bytes is the limit */
    memset(name, 'n', sizeof name);
    name[LLMM_SCORE_NAME_MAX + 1] = '\0';
    assert_status(ADD(LLMM_LAYER_CAPABILITY, name, LLMM_HIGHER_IS_BETTER, 1, 0, 1), LLMM_E_INVALID);
    assert_int_equal(id, 77); /* no failure wrote the id */
    name[LLMM_SCORE_NAME_MAX] = '\0';
    assert_ok(ADD(LLMM_LAYER_CAPABILITY, name, LLMM_HIGHER_IS_BETTER, 1, 0, 1));
    assert_int_equal(id, 1); /* ids stay dense: the failures took none */
#undef ADD
    /* the name was copied: overwrite the caller's buffer, the metric is still found by name */
    char buf[16];
    strcpy(buf, "latency");
    assert_ok(llmm_scorecard_add_metric(sc, LLMM_LAYER_PERFORMANCE, buf, LLMM_LOWER_IS_BETTER,
                                        100, 500, 1, &id));
    assert_int_equal(id, 2);
    strcpy(buf, "other");
    assert_ok(llmm_scorecard_observe(sc, "latency", 300));
    assert_status(llmm_scorecard_observe(sc, buf, 300), LLMM_E_INVALID);
    double s;
    assert_ok(llmm_scorecard_metric_score(sc, 2, &s));
    assert_close(s, 0.5, 0, TOL);
    /* observe errors change nothing */
    assert_status(llmm_scorecard_observe(sc, "latency", NAN), LLMM_E_INVALID);
    assert_status(llmm_scorecard_observe(sc, "latency", INFINITY), LLMM_E_INVALID);
    assert_status(llmm_scorecard_observe(sc, NULL, 1), LLMM_E_INVALID);
    assert_status(llmm_scorecard_observe(NULL, "latency", 1), LLMM_E_INVALID);
    assert_status(llmm_scorecard_observe_id(sc, 2, -INFINITY), LLMM_E_INVALID);
    assert_status(llmm_scorecard_observe_id(sc, 3, 1), LLMM_E_INVALID);
    assert_status(llmm_scorecard_observe_id(NULL, 0, 1), LLMM_E_INVALID);
    assert_ok(llmm_scorecard_metric_score(sc, 2, &s));
    assert_close(s, 0.5, 0, TOL);
    assert_status(llmm_scorecard_metric_score(sc, 3, &s), LLMM_E_INVALID);
    assert_status(llmm_scorecard_metric_score(sc, 2, NULL), LLMM_E_INVALID);
    assert_status(llmm_scorecard_metric_score(NULL, 2, &s), LLMM_E_INVALID);
    /* counts after all that */
    llmm_score_result_init(&r);
    assert_ok(llmm_scorecard_set_i32(sc, LLMM_SCORECARD_MISSING, LLMM_MISSING_RENORMALIZE));
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_int_equal(r.layer_metrics[0], 2);
    assert_int_equal(r.layer_observed[0], 0);
    assert_int_equal(r.layer_metrics[1], 1);
    assert_int_equal(r.layer_metrics[3], 0);
    assert_close(r.overall, 0.5, 0, TOL); /* only performance present */
    llmm_scorecard_free(sc);
}

static void test_options_and_abi(void **state)
{
    llmm_scorecard *sc;
    llmm_score_result r;
    int32_t v;
    (void)state;
    assert_status(llmm_scorecard_new(NULL, LLMM_SCENARIO_CUSTOM, NULL), LLMM_E_INVALID);
    sc = (llmm_scorecard *)&v;
    assert_status(llmm_scorecard_new(NULL, (llmm_scenario)4, &sc), LLMM_E_INVALID);
    assert_null(sc);
    assert_status(llmm_scorecard_new(NULL, (llmm_scenario)-1, &sc), LLMM_E_INVALID);
    llmm_scorecard_free(NULL);
    assert_ok(llmm_scorecard_new(NULL, LLMM_SCENARIO_CONTENT_GENERATION, &sc));
    assert_status(llmm_scorecard_set_i32(sc, (llmm_scorecard_option)1, 0), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_scorecard_set_i32(sc, LLMM_SCORECARD_MISSING, 2), LLMM_E_RANGE);
    assert_status(llmm_scorecard_set_i32(sc, LLMM_SCORECARD_MISSING, -1), LLMM_E_RANGE);
    assert_status(llmm_scorecard_set_i32(NULL, LLMM_SCORECARD_MISSING, 0), LLMM_E_INVALID);
    assert_ok(llmm_scorecard_get_i32(sc, LLMM_SCORECARD_MISSING, &v));
    assert_int_equal(v, LLMM_MISSING_REFUSE);
    assert_status(llmm_scorecard_get_i32(sc, (llmm_scorecard_option)9, &v), LLMM_E_UNKNOWN_OPTION);
    assert_status(llmm_scorecard_get_i32(sc, LLMM_SCORECARD_MISSING, NULL), LLMM_E_INVALID);
    assert_status(llmm_scorecard_get_i32(NULL, LLMM_SCORECARD_MISSING, &v), LLMM_E_INVALID);
    assert_status(llmm_scorecard_clear(NULL), LLMM_E_INVALID);
    /* struct_size must be this version's */
    assert_status(llmm_score_result_init(NULL), LLMM_E_INVALID);
    memset(&r, 0, sizeof r);
    r.overall = 42.0;
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_ABI);
    r.struct_size = sizeof r + 8;
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_ABI);
    r.struct_size = sizeof r - 8;
    assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_ABI);
    assert_true(r.overall == 42.0);
    assert_status(llmm_scorecard_evaluate(sc, NULL), LLMM_E_INVALID);
    assert_status(llmm_scorecard_evaluate(NULL, &r), LLMM_E_INVALID);
    llmm_scorecard_free(sc);
}

/* Build a card of 20 metrics (several reallocations) under a failing allocator. Each failed
 * add must leave the card exactly as it was. */
static llmm_status build_card_step(llmm_ctx *ctx, void *arg)
{
    llmm_scorecard *sc;
    llmm_score_result r;
    llmm_status st;
    char name[32];
    (void)arg;
    st = llmm_scorecard_new(ctx, LLMM_SCENARIO_CODE_ASSISTANT, &sc);
    if (st != LLMM_OK) {
        assert_null(sc);
        return st;
    }
    llmm_score_result_init(&r);
    for (uint32_t i = 0; i < 20; i++) {
        uint32_t id = 999;
        snprintf(name, sizeof name, "metric_%u", i);
        st = llmm_scorecard_add_metric(sc, (llmm_layer)(i % 4), name, LLMM_HIGHER_IS_BETTER, 1,
                                       0, 1, &id);
        if (st != LLMM_OK) {
            uint32_t total = 0;
            assert_int_equal(id, 999);
            assert_status(llmm_scorecard_evaluate(sc, &r), LLMM_E_EMPTY); /* nothing observed yet */
            for (int l = 0; l < 4; l++)
                total += r.layer_metrics[l];
            assert_int_equal(total, i);
            llmm_scorecard_free(sc);
            return st;
        }
        assert_int_equal(id, i);
    }
    for (uint32_t i = 0; i < 20; i++)
        assert_ok(llmm_scorecard_observe_id(sc, i, 0.5));
    assert_ok(llmm_scorecard_evaluate(sc, &r));
    assert_close(r.overall, 0.5, 0, TOL);
    llmm_scorecard_free(sc);
    return LLMM_OK;
}

static void test_allocation_failures(void **state)
{
    (void)state;
    size_t allocs = llmm_test_each_failure(build_card_step, NULL);
    assert_true(allocs >= 22); /* the card, its array (grown), 20 names */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_preset_table),
        cmocka_unit_test(test_normalize),
        cmocka_unit_test(test_full_card),
        cmocka_unit_test(test_missing_layer),
        cmocka_unit_test(test_zero_weight_layers),
        cmocka_unit_test(test_custom_weights),
        cmocka_unit_test(test_add_metric_errors),
        cmocka_unit_test(test_options_and_abi),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
