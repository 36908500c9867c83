/**
 * @file score.h
 * @brief Four-layer weighted scorecard with scenario presets.
 *
 * A deployment is scored on four layers — capability, performance, engineering, business —
 * each weighted by a scenario preset or by custom weights. Inside a layer the caller defines
 * metrics (a name, a direction, a target and a worst acceptable bound, an optional weight),
 * then feeds observations. Each observation is normalised to a 0..1 score:
 *
 *     score = clamp((value − worst) / (target − worst), 0, 1)
 *
 * so the score is 1 at (or beyond) the target, 0 at (or beyond) the worst bound and linear in
 * between; the same formula serves both directions, the direction only states which side of
 * the worst bound the target must lie on. A layer's score is the weighted mean of the scores
 * of its observed metrics; the overall score is the weighted mean of the layer scores.
 *
 * A layer none of whose metrics has an observation is **missing**: it is reported as such,
 * never as a zero. The caller chooses what the overall score does then
 * (#LLMM_SCORECARD_MISSING): refuse (the default) or renormalise the layer weights over the
 * present layers.
 *
 * Thread safety: there is no global state. A scorecard is used by one thread at a time (it may
 * move between threads); calls on different scorecards may run concurrently. The free
 * functions (llmm_scenario_weights(), llmm_score_normalize(), llmm_score_result_init()) are
 * thread-safe.
 */
#ifndef LLMMETRICS_SCORE_H
#define LLMMETRICS_SCORE_H

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup score Score: four-layer weighted scorecard
 * @{
 */

/** @brief Number of evaluation layers; every weight array has this many entries. @since 1.0.0 */
#define LLMM_LAYER_COUNT 4

/** @brief Longest metric name accepted, in bytes, without the terminating NUL. @since 1.0.0 */
#define LLMM_SCORE_NAME_MAX 255

/**
 * @brief The four evaluation layers (doc/spec.md §1), in the order of every weight array.
 * @since 1.0.0
 */
typedef enum llmm_layer {
    LLMM_LAYER_CAPABILITY = 0,  /**< factual consistency, reasoning robustness, ... */
    LLMM_LAYER_PERFORMANCE = 1, /**< P95 latency, throughput, peak GPU memory, ... */
    LLMM_LAYER_ENGINEERING = 2, /**< API error rate, cold-start time, rollback success, ... */
    LLMM_LAYER_BUSINESS = 3,    /**< dwell-time uplift, ticket reduction, review pass rate, ... */
    LLMM_LAYER_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_layer;

/**
 * @brief Scenario weight presets (capability / performance / engineering / business).
 *
 * | scenario | cap | perf | eng | biz |
 * |---|---|---|---|---|
 * | #LLMM_SCENARIO_CUSTOMER_SERVICE (high concurrency) | 0.25 | 0.40 | 0.20 | 0.15 |
 * | #LLMM_SCENARIO_CODE_ASSISTANT (high precision) | 0.45 | 0.20 | 0.15 | 0.20 |
 * | #LLMM_SCENARIO_CONTENT_GENERATION (strict compliance) | 0.35 | 0.10 | 0.25 | 0.30 |
 *
 * #LLMM_SCENARIO_CUSTOM has no preset weights: the caller supplies them with
 * llmm_scorecard_set_weights().
 * @since 1.0.0
 */
typedef enum llmm_scenario {
    LLMM_SCENARIO_CUSTOMER_SERVICE = 0,   /**< 0.25 / 0.40 / 0.20 / 0.15 */
    LLMM_SCENARIO_CODE_ASSISTANT = 1,     /**< 0.45 / 0.20 / 0.15 / 0.20 */
    LLMM_SCENARIO_CONTENT_GENERATION = 2, /**< 0.35 / 0.10 / 0.25 / 0.30 */
    LLMM_SCENARIO_CUSTOM = 3,             /**< weights set by llmm_scorecard_set_weights() */
    LLMM_SCENARIO_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_scenario;

/**
 * @brief Which way a metric improves.
 * @since 1.0.0
 */
typedef enum llmm_direction {
    LLMM_HIGHER_IS_BETTER = 0,             /**< target > worst (e.g. throughput, pass rate) */
    LLMM_LOWER_IS_BETTER = 1,              /**< target < worst (e.g. P95 latency, error rate) */
    LLMM_DIRECTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_direction;

/**
 * @brief What the overall score does when a layer with a positive weight is missing.
 * @since 1.0.0
 */
typedef enum llmm_missing_policy {
    /** Refuse: llmm_scorecard_evaluate() returns `LLMM_E_STATE` (the default). */
    LLMM_MISSING_REFUSE = 0,
    /** Renormalise the layer weights over the present layers. */
    LLMM_MISSING_RENORMALIZE = 1,
    LLMM_MISSING_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_missing_policy;

/**
 * @brief Integer options of a scorecard, for llmm_scorecard_set_i32() / llmm_scorecard_get_i32().
 * Bounds and defaults: @ref options_reference (llmm_option_describe() with
 * #LLMM_KIND_SCORECARD).
 * @since 1.0.0
 */
typedef enum llmm_scorecard_option {
    /** What the overall score does when a weighted layer is missing: a ::llmm_missing_policy. */
    LLMM_SCORECARD_MISSING = 0,
    LLMM_SCORECARD_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_scorecard_option;

/**
 * @brief Result of llmm_scorecard_evaluate(). Arrays are indexed by ::llmm_layer.
 *
 * For every layer, `layer_contribution[i] = layer_effective_weight[i] · layer_score[i]`, and
 * `overall` is the sum of the contributions. The effective weights are the configured weights
 * divided by their sum over the layers that count (all layers when none is missing, the present
 * ones after renormalisation), so they sum to 1 and `overall` lies in [0, 1].
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_score_result {
    uint32_t struct_size; /**< caller-sized: set by llmm_score_result_init() */
    /** the scorecard's scenario (#LLMM_SCENARIO_CUSTOM once weights were set) */
    llmm_scenario scenario;
    uint32_t layers_missing; /**< number of layers without an observed metric (any weight) */
    /** 1 when a positively weighted layer was missing and the weights were renormalised,
     *  else 0 */
    int32_t renormalized;
    double overall; /**< overall score in [0, 1]; NaN when the call did not return `LLMM_OK` */
    double layer_score[LLMM_LAYER_COUNT];  /**< layer score in [0, 1]; NaN when missing */
    double layer_weight[LLMM_LAYER_COUNT]; /**< configured weight */
    /** weight used for `overall`; 0 when missing or on error */
    double layer_effective_weight[LLMM_LAYER_COUNT];
    /** effective weight × layer score; 0 when missing or on error */
    double layer_contribution[LLMM_LAYER_COUNT];
    int32_t layer_present[LLMM_LAYER_COUNT]; /**< 1 when the layer has an observed metric, else 0 */
    uint32_t layer_metrics[LLMM_LAYER_COUNT];  /**< metrics defined in the layer */
    uint32_t layer_observed[LLMM_LAYER_COUNT]; /**< metrics of the layer that have an observation */
} llmm_score_result;

/**
 * @brief A scorecard: layer weights, metric definitions and their latest observations.
 * @since 1.0.0
 */
typedef struct llmm_scorecard llmm_scorecard;

/**
 * @brief Initialise a ::llmm_score_result: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] r the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `r` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_score_result_init(llmm_score_result *r);
/** @cond LLMM_INTERNAL */
#define llmm_score_result_init(r) LLMM_SIZED_INIT_(LLMM_STRUCT_SCORE_RESULT, llmm_score_result, r)
/** @endcond */

/**
 * @brief Read the layer weights of a scenario preset (table at ::llmm_scenario).
 * @param[in] preset a preset scenario (not #LLMM_SCENARIO_CUSTOM)
 * @param[out] weights receives #LLMM_LAYER_COUNT weights in ::llmm_layer order
 * @param[in] n the length of `weights`; must be #LLMM_LAYER_COUNT
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `weights` is NULL, `n` is not #LLMM_LAYER_COUNT, or `preset` is
 *         #LLMM_SCENARIO_CUSTOM or unknown; `weights` is not written
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_scenario_weights(llmm_scenario preset, double *weights, size_t n);

/**
 * @brief Normalise one observation to a 0..1 score: `clamp((value − worst) / (target − worst), 0, 1)`.
 *
 * The score is exactly 1 at the target and exactly 0 at the worst bound.
 * @param[in] dir which way the metric improves; #LLMM_HIGHER_IS_BETTER needs target > worst,
 *            #LLMM_LOWER_IS_BETTER needs target < worst
 * @param[in] target the value that scores 1 (finite)
 * @param[in] worst the worst acceptable value, which scores 0 (finite)
 * @param[in] value the observation (finite; any sign)
 * @param[out] score receives the score in [0, 1]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `score` is NULL, `dir` unknown, a number is NaN or infinite, or target
 *         and worst are equal or on the wrong side of each other for `dir`
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_score_normalize(llmm_direction dir, double target, double worst,
                                          double value, double *score);

/**
 * @brief Create a scorecard with the weights of a scenario.
 *
 * A #LLMM_SCENARIO_CUSTOM scorecard has no weights until llmm_scorecard_set_weights() is
 * called; until then llmm_scorecard_evaluate() and llmm_scorecard_weights() return
 * `LLMM_E_STATE`. Metrics can be added and observed before the weights are set.
 * @param[in] ctx the context whose allocator is used, or NULL for libc
 * @param[in] preset a ::llmm_scenario
 * @param[out] out the new scorecard, owned by the caller (release with llmm_scorecard_free());
 *             NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL or `preset` unknown
 * @retval LLMM_E_NOMEM the allocation failed
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_scorecard_new(llmm_ctx *ctx, llmm_scenario preset, llmm_scorecard **out);

/**
 * @brief Free a scorecard and the metric names it holds. NULL is a no-op.
 * @param[in] sc the scorecard
 * @since 1.0.0
 * @note Not thread-safe with respect to other calls on the same scorecard.
 */
LLMM_API void llmm_scorecard_free(llmm_scorecard *sc);

/**
 * @brief Set custom layer weights; the scorecard's scenario becomes #LLMM_SCENARIO_CUSTOM.
 *
 * The weights must be finite, ≥ 0 and sum to 1 within 1e-9 (so a set summing to 1 − 1e-12 is
 * accepted; 1 − 2e-9 is not). Scores use the weights divided by their sum.
 * @param[in,out] sc the scorecard
 * @param[in] weights #LLMM_LAYER_COUNT weights in ::llmm_layer order (copied)
 * @param[in] n the length of `weights`; must be #LLMM_LAYER_COUNT
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` or `weights` NULL, `n` wrong, a weight NaN, infinite or negative,
 *         or the sum off 1 by more than 1e-9; the scorecard is unchanged
 * @since 1.0.0
 * @note Not thread-safe on the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_set_weights(llmm_scorecard *sc, const double *weights,
                                                size_t n);

/**
 * @brief Read the scorecard's layer weights as configured (not renormalised).
 * @param[in] sc the scorecard
 * @param[out] weights receives #LLMM_LAYER_COUNT weights in ::llmm_layer order
 * @param[in] n the length of `weights`; must be #LLMM_LAYER_COUNT
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` or `weights` NULL, or `n` wrong
 * @retval LLMM_E_STATE a #LLMM_SCENARIO_CUSTOM scorecard whose weights were never set
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_weights(const llmm_scorecard *sc, double *weights, size_t n);

/**
 * @brief Set an integer option.
 * @param[in,out] sc the scorecard
 * @param[in] opt the option
 * @param[in] value the value; for #LLMM_SCORECARD_MISSING a ::llmm_missing_policy
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown
 * @retval LLMM_E_RANGE `value` outside the option's values; the scorecard is unchanged
 * @since 1.0.0
 * @note Not thread-safe on the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_set_i32(llmm_scorecard *sc, llmm_scorecard_option opt,
                                            int32_t value);

/**
 * @brief Read an integer option.
 * @param[in] sc the scorecard
 * @param[in] opt the option
 * @param[out] value receives the value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` or `value` is NULL
 * @retval LLMM_E_UNKNOWN_OPTION `opt` unknown
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_get_i32(const llmm_scorecard *sc, llmm_scorecard_option opt,
                                            int32_t *value);

/**
 * @brief Define a metric in a layer.
 *
 * The name is copied (the caller's string need not outlive the call) and must be unique within
 * the scorecard. Ids are assigned 0, 1, 2, ... in the order metrics are added.
 * @param[in,out] sc the scorecard
 * @param[in] layer the layer the metric belongs to
 * @param[in] name 1 to #LLMM_SCORE_NAME_MAX bytes, NUL-terminated
 * @param[in] dir which way the metric improves
 * @param[in] target the value that scores 1 (finite)
 * @param[in] worst the worst acceptable value, scoring 0 (finite; below the target for
 *            #LLMM_HIGHER_IS_BETTER, above it for #LLMM_LOWER_IS_BETTER)
 * @param[in] weight the metric's weight inside its layer, finite and > 0 (pass 1.0 for a plain
 *            mean); only ratios between the weights of one layer matter
 * @param[out] id receives the metric's id (nullable)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` or `name` NULL, `layer` or `dir` unknown, name empty or too
 *         long, name already defined, target/worst/weight invalid as described; nothing added
 * @retval LLMM_E_NOMEM an allocation failed; nothing added
 * @since 1.0.0
 * @note Not thread-safe on the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_add_metric(llmm_scorecard *sc, llmm_layer layer,
                                               const char *name, llmm_direction dir, double target,
                                               double worst, double weight, uint32_t *id);

/**
 * @brief Record the latest observation of a metric, by name (replaces the previous one).
 *
 * The lookup is a linear scan over the metrics; use llmm_scorecard_observe_id() in loops.
 * @param[in,out] sc the scorecard
 * @param[in] name the metric's name
 * @param[in] value the observation (finite; any sign)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` or `name` NULL, no metric of that name, or `value` NaN or
 *         infinite; nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_observe(llmm_scorecard *sc, const char *name, double value);

/**
 * @brief Record the latest observation of a metric, by id (replaces the previous one).
 * @param[in,out] sc the scorecard
 * @param[in] id an id returned by llmm_scorecard_add_metric()
 * @param[in] value the observation (finite; any sign)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` NULL, `id` unknown, or `value` NaN or infinite; nothing changed
 * @since 1.0.0
 * @note Not thread-safe on the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_observe_id(llmm_scorecard *sc, uint32_t id, double value);

/**
 * @brief Forget every observation; metric definitions, weights and options stay.
 * @param[in,out] sc the scorecard
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` is NULL
 * @since 1.0.0
 * @note Not thread-safe on the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_clear(llmm_scorecard *sc);

/**
 * @brief Read one metric's normalised score (see llmm_score_normalize()).
 * @param[in] sc the scorecard
 * @param[in] id the metric's id
 * @param[out] score receives the score in [0, 1]
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` or `score` NULL, or `id` unknown
 * @retval LLMM_E_EMPTY the metric has no observation
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_metric_score(const llmm_scorecard *sc, uint32_t id,
                                                 double *score);

/**
 * @brief Compute the overall score, each layer's score and its contribution.
 *
 * A layer's score is `Σ wᵢ·sᵢ / Σ wᵢ` over its metrics that have an observation (metrics never
 * observed are left out and counted in `layer_metrics` but not `layer_observed`). A layer with
 * no observed metric is missing. Then:
 * - no layer present, or only layers of weight 0: `LLMM_E_EMPTY`;
 * - a layer of positive weight missing under #LLMM_MISSING_REFUSE: `LLMM_E_STATE`;
 * - otherwise the effective weights are the configured weights divided by their sum over the
 *   present layers (a missing layer of weight 0 changes nothing and is not a renormalisation).
 *
 * On `LLMM_E_STATE` and `LLMM_E_EMPTY` the per-layer fields (scores, weights, presence, counts)
 * are still filled so the caller can see what is missing; `overall` is NaN and the effective
 * weights and contributions are 0.
 * @param[in] sc the scorecard
 * @param[in,out] r the result; `r->struct_size` must have been set by llmm_score_result_init()
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `sc` or `r` is NULL; `r` is not written
 * @retval LLMM_E_ABI `r->struct_size` is not a released size (see llmm_struct_init())
 * @retval LLMM_E_STATE custom weights never set (`r` is not written), or a layer missing under
 *         #LLMM_MISSING_REFUSE
 * @retval LLMM_E_EMPTY nothing to score
 * @since 1.0.0
 * @note Not thread-safe with concurrent writers of the same scorecard.
 */
LLMM_API llmm_status llmm_scorecard_evaluate(const llmm_scorecard *sc, llmm_score_result *r);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_SCORE_H */
