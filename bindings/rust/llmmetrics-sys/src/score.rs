//! `score.h`: Four-layer scorecard.

use super::*;

/// Number of evaluation layers; every weight array has this many entries.
pub const LLMM_LAYER_COUNT: usize = 4;
/// Longest metric name accepted, in bytes, without the terminating NUL.
pub const LLMM_SCORE_NAME_MAX: usize = 255;

/// The four evaluation layers (`llmm_layer`).
pub type llmm_layer = c_int;
/// factual consistency, reasoning robustness, ...
pub const LLMM_LAYER_CAPABILITY: llmm_layer = 0;
/// P95 latency, throughput, peak GPU memory, ...
pub const LLMM_LAYER_PERFORMANCE: llmm_layer = 1;
/// API error rate, cold-start time, rollback success, ...
pub const LLMM_LAYER_ENGINEERING: llmm_layer = 2;
/// dwell-time uplift, ticket reduction, review pass rate, ...
pub const LLMM_LAYER_BUSINESS: llmm_layer = 3;

/// Scenario weight presets (`llmm_scenario`).
pub type llmm_scenario = c_int;
/// 0.25 / 0.40 / 0.20 / 0.15
pub const LLMM_SCENARIO_CUSTOMER_SERVICE: llmm_scenario = 0;
/// 0.45 / 0.20 / 0.15 / 0.20
pub const LLMM_SCENARIO_CODE_ASSISTANT: llmm_scenario = 1;
/// 0.35 / 0.10 / 0.25 / 0.30
pub const LLMM_SCENARIO_CONTENT_GENERATION: llmm_scenario = 2;
/// weights set by [`llmm_scorecard_set_weights`]
pub const LLMM_SCENARIO_CUSTOM: llmm_scenario = 3;

/// Which way a metric improves (`llmm_direction`).
pub type llmm_direction = c_int;
/// target > worst
pub const LLMM_HIGHER_IS_BETTER: llmm_direction = 0;
/// target < worst
pub const LLMM_LOWER_IS_BETTER: llmm_direction = 1;

/// What the overall score does when a weighted layer is missing (`llmm_missing_policy`).
pub type llmm_missing_policy = c_int;
/// Refuse with `LLMM_E_STATE` (the default).
pub const LLMM_MISSING_REFUSE: llmm_missing_policy = 0;
/// Renormalise the layer weights over the present layers.
pub const LLMM_MISSING_RENORMALIZE: llmm_missing_policy = 1;

/// Integer options of a scorecard (`llmm_scorecard_option`).
pub type llmm_scorecard_option = c_int;
/// A [`llmm_missing_policy`] value.
pub const LLMM_SCORECARD_MISSING: llmm_scorecard_option = 0;

/// Result of [`llmm_scorecard_evaluate`] (`llmm_score_result`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_score_result {
    /// `sizeof(llmm_score_result)`, set by [`llmm_score_result_init`].
    pub struct_size: u32,
    /// The scorecard's scenario.
    pub scenario: llmm_scenario,
    /// Layers without an observed metric.
    pub layers_missing: u32,
    /// 1 when the weights were renormalised.
    pub renormalized: i32,
    /// Overall score in [0, 1]; NaN on error.
    pub overall: f64,
    /// Layer score; NaN when missing.
    pub layer_score: [f64; LLMM_LAYER_COUNT],
    /// Configured weight.
    pub layer_weight: [f64; LLMM_LAYER_COUNT],
    /// Weight used for `overall`.
    pub layer_effective_weight: [f64; LLMM_LAYER_COUNT],
    /// Effective weight × layer score.
    pub layer_contribution: [f64; LLMM_LAYER_COUNT],
    /// 1 when the layer has an observed metric.
    pub layer_present: [i32; LLMM_LAYER_COUNT],
    /// Metrics defined in the layer.
    pub layer_metrics: [u32; LLMM_LAYER_COUNT],
    /// Metrics of the layer that have an observation.
    pub layer_observed: [u32; LLMM_LAYER_COUNT],
}

opaque! {
    /// A four-layer scorecard (`llmm_scorecard`).
    llmm_scorecard;
}

extern "C" {
    pub fn llmm_score_result_init(r: *mut llmm_score_result) -> llmm_status;
    pub fn llmm_scenario_weights(preset: llmm_scenario, weights: *mut f64, n: usize)
        -> llmm_status;
    pub fn llmm_score_normalize(
        dir: llmm_direction,
        target: f64,
        worst: f64,
        value: f64,
        score: *mut f64,
    ) -> llmm_status;
    pub fn llmm_scorecard_new(
        ctx: *mut llmm_ctx,
        preset: llmm_scenario,
        out: *mut *mut llmm_scorecard,
    ) -> llmm_status;
    pub fn llmm_scorecard_free(sc: *mut llmm_scorecard);
    pub fn llmm_scorecard_set_weights(
        sc: *mut llmm_scorecard,
        weights: *const f64,
        n: usize,
    ) -> llmm_status;
    pub fn llmm_scorecard_weights(
        sc: *const llmm_scorecard,
        weights: *mut f64,
        n: usize,
    ) -> llmm_status;
    pub fn llmm_scorecard_set_i32(
        sc: *mut llmm_scorecard,
        opt: llmm_scorecard_option,
        value: i32,
    ) -> llmm_status;
    pub fn llmm_scorecard_get_i32(
        sc: *const llmm_scorecard,
        opt: llmm_scorecard_option,
        value: *mut i32,
    ) -> llmm_status;
    pub fn llmm_scorecard_add_metric(
        sc: *mut llmm_scorecard,
        layer: llmm_layer,
        name: *const c_char,
        dir: llmm_direction,
        target: f64,
        worst: f64,
        weight: f64,
        id: *mut u32,
    ) -> llmm_status;
    pub fn llmm_scorecard_observe(
        sc: *mut llmm_scorecard,
        name: *const c_char,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_scorecard_observe_id(sc: *mut llmm_scorecard, id: u32, value: f64) -> llmm_status;
    pub fn llmm_scorecard_clear(sc: *mut llmm_scorecard) -> llmm_status;
    pub fn llmm_scorecard_metric_score(
        sc: *const llmm_scorecard,
        id: u32,
        score: *mut f64,
    ) -> llmm_status;
    pub fn llmm_scorecard_evaluate(
        sc: *const llmm_scorecard,
        r: *mut llmm_score_result,
    ) -> llmm_status;
}
