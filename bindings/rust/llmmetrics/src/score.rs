//! The four-layer weighted scorecard with scenario presets.

use std::ffi::CString;
use std::mem::MaybeUninit;

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Error, Result};
use crate::object::{get, Owned};

/// Number of evaluation layers.
pub const LAYER_COUNT: usize = ffi::LLMM_LAYER_COUNT;

/// The four evaluation layers, in the order of every per-layer array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// Factual consistency, reasoning robustness, ...
    Capability = 0,
    /// P95 latency, throughput, peak GPU memory, ...
    Performance = 1,
    /// API error rate, cold-start time, rollback success, ...
    Engineering = 2,
    /// Dwell-time uplift, ticket reduction, review pass rate, ...
    Business = 3,
}

impl Layer {
    /// All layers in array order.
    pub const ALL: [Layer; LAYER_COUNT] =
        [Layer::Capability, Layer::Performance, Layer::Engineering, Layer::Business];
}

/// Scenario weight presets (capability / performance / engineering / business).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scenario {
    /// High concurrency: 0.25 / 0.40 / 0.20 / 0.15.
    CustomerService = 0,
    /// High precision: 0.45 / 0.20 / 0.15 / 0.20.
    CodeAssistant = 1,
    /// Strict compliance: 0.35 / 0.10 / 0.25 / 0.30.
    ContentGeneration = 2,
    /// Weights set with [`Scorecard::set_weights`].
    Custom = 3,
}

impl Scenario {
    fn from_raw(v: ffi::llmm_scenario) -> Result<Scenario> {
        match v {
            ffi::LLMM_SCENARIO_CUSTOMER_SERVICE => Ok(Scenario::CustomerService),
            ffi::LLMM_SCENARIO_CODE_ASSISTANT => Ok(Scenario::CodeAssistant),
            ffi::LLMM_SCENARIO_CONTENT_GENERATION => Ok(Scenario::ContentGeneration),
            ffi::LLMM_SCENARIO_CUSTOM => Ok(Scenario::Custom),
            _ => Err(Error::abi()),
        }
    }
}

/// Which way a metric improves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Higher is better: the target lies above the worst bound (throughput, pass rate).
    HigherIsBetter = 0,
    /// Lower is better: the target lies below the worst bound (P95 latency, error rate).
    LowerIsBetter = 1,
}

/// What the overall score does when a layer with a positive weight has no observed metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MissingPolicy {
    /// [`Scorecard::evaluate`] fails with `State` (the default).
    Refuse = 0,
    /// The layer weights are renormalised over the present layers.
    Renormalize = 1,
}

/// A preset's layer weights.
///
/// ```
/// use llmmetrics::{scenario_weights, Scenario};
/// assert_eq!(scenario_weights(Scenario::CodeAssistant)?, [0.45, 0.20, 0.15, 0.20]);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` for [`Scenario::Custom`], which has no preset.
pub fn scenario_weights(preset: Scenario) -> Result<[f64; LAYER_COUNT]> {
    let mut w = [0.0; LAYER_COUNT];
    // SAFETY: `w` has LAYER_COUNT writable elements.
    check(unsafe {
        ffi::llmm_scenario_weights(preset as ffi::llmm_scenario, w.as_mut_ptr(), w.len())
    })?;
    Ok(w)
}

/// Normalise one observation to `clamp((value − worst) / (target − worst), 0, 1)`.
///
/// # Errors
/// `Invalid` for a non-finite number or target and worst equal or on the wrong side of each
/// other for `dir`.
pub fn normalize(dir: Direction, target: f64, worst: f64, value: f64) -> Result<f64> {
    // SAFETY: pure function with a valid out-pointer.
    get(|score| unsafe {
        ffi::llmm_score_normalize(dir as ffi::llmm_direction, target, worst, value, score)
    })
}

/// Id of a metric in a [`Scorecard`]: 0, 1, 2, ... in the order the metrics were added.
pub type MetricId = u32;

/// One layer of a [`ScoreResult`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerScore {
    /// Weighted mean score of the observed metrics; `None` when the layer is missing.
    pub score: Option<f64>,
    /// Configured weight.
    pub weight: f64,
    /// Weight used for the overall score (0 when missing or on error).
    pub effective_weight: f64,
    /// `effective_weight × score` (0 when missing or on error).
    pub contribution: f64,
    /// Metrics defined in the layer.
    pub metrics: u32,
    /// Metrics of the layer that have an observation.
    pub observed: u32,
}

/// Result of [`Scorecard::evaluate`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreResult {
    /// The scorecard's scenario.
    pub scenario: Scenario,
    /// Overall score in [0, 1] (NaN in a result of [`Scorecard::evaluate_partial`] that failed).
    pub overall: f64,
    /// Layers without an observed metric.
    pub layers_missing: u32,
    /// Whether a weighted layer was missing and the weights were renormalised.
    pub renormalized: bool,
    /// Per layer, indexed like [`Layer::ALL`].
    pub layers: [LayerScore; LAYER_COUNT],
}

impl ScoreResult {
    /// The result of one layer.
    pub fn layer(&self, layer: Layer) -> &LayerScore {
        &self.layers[layer as usize]
    }

    fn from_raw(r: &ffi::llmm_score_result) -> Result<ScoreResult> {
        let layer = |i: usize| LayerScore {
            score: if r.layer_present[i] != 0 { Some(r.layer_score[i]) } else { None },
            weight: r.layer_weight[i],
            effective_weight: r.layer_effective_weight[i],
            contribution: r.layer_contribution[i],
            metrics: r.layer_metrics[i],
            observed: r.layer_observed[i],
        };
        Ok(ScoreResult {
            scenario: Scenario::from_raw(r.scenario)?,
            overall: r.overall,
            layers_missing: r.layers_missing,
            renormalized: r.renormalized != 0,
            layers: [layer(0), layer(1), layer(2), layer(3)],
        })
    }
}

/// A scorecard: layer weights, metric definitions and their latest observations
/// (`llmm_scorecard`).
///
/// ```
/// use llmmetrics::{Direction, Layer, Scenario, Scorecard};
///
/// let mut sc = Scorecard::new(Scenario::CustomerService)?;
/// sc.add_metric(Layer::Capability, "factual_consistency", Direction::HigherIsBetter, 0.95, 0.75, 1.0)?;
/// let p95 = sc.add_metric(Layer::Performance, "p95_ms", Direction::LowerIsBetter, 200.0, 1000.0, 1.0)?;
/// sc.add_metric(Layer::Engineering, "error_rate", Direction::LowerIsBetter, 0.001, 0.05, 1.0)?;
/// sc.add_metric(Layer::Business, "ticket_reduction", Direction::HigherIsBetter, 0.30, 0.0, 1.0)?;
/// sc.observe("factual_consistency", 0.95)?; // 1.0
/// sc.observe_id(p95, 600.0)?;               // 0.5
/// sc.observe("error_rate", 0.05)?;          // 0.0
/// sc.observe("ticket_reduction", 0.15)?;    // 0.5
/// let r = sc.evaluate()?;
/// // 0.25·1 + 0.40·0.5 + 0.20·0 + 0.15·0.5
/// assert!((r.overall - 0.525).abs() < 1e-12);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// `Scorecard` is `Send + Sync`: writers take `&mut self`, and the reading calls of the C
/// scorecard (weights, options, metric scores, evaluation) neither cache nor allocate.
pub struct Scorecard {
    raw: Owned<ffi::llmm_scorecard>,
}

fn c_name(name: &str) -> Result<CString> {
    CString::new(name).map_err(|_| Error::invalid())
}

constructors!(Scorecard = ffi::llmm_scorecard_new;
    /// A scorecard with a scenario's weights (a [`Scenario::Custom`] one has none until
    /// [`set_weights`](Scorecard::set_weights)).
    (preset: Scenario as ffi::llmm_scenario));

impl Scorecard {
    /// Set custom layer weights (finite, ≥ 0, summing to 1 ± 1e-9); the scenario becomes
    /// [`Scenario::Custom`].
    ///
    /// # Errors
    /// `Invalid`, leaving the scorecard unchanged.
    pub fn set_weights(&mut self, weights: [f64; LAYER_COUNT]) -> Result<()> {
        // SAFETY: live handle; the array has LAYER_COUNT elements.
        check(unsafe {
            ffi::llmm_scorecard_set_weights(self.raw.ptr(), weights.as_ptr(), weights.len())
        })
    }

    /// The configured layer weights (not renormalised).
    ///
    /// # Errors
    /// `State` for a custom scorecard whose weights were never set.
    pub fn weights(&self) -> Result<[f64; LAYER_COUNT]> {
        let mut w = [0.0; LAYER_COUNT];
        // SAFETY: live handle; `w` has LAYER_COUNT writable elements.
        check(unsafe { ffi::llmm_scorecard_weights(self.raw.ptr(), w.as_mut_ptr(), w.len()) })?;
        Ok(w)
    }

    /// Choose what happens when a weighted layer is missing.
    pub fn set_missing_policy(&mut self, policy: MissingPolicy) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe {
            ffi::llmm_scorecard_set_i32(self.raw.ptr(), ffi::LLMM_SCORECARD_MISSING, policy as i32)
        })
    }

    /// The missing-layer policy.
    pub fn missing_policy(&self) -> Result<MissingPolicy> {
        let mut v = 0;
        // SAFETY: live handle; valid out-pointer.
        check(unsafe {
            ffi::llmm_scorecard_get_i32(self.raw.ptr(), ffi::LLMM_SCORECARD_MISSING, &mut v)
        })?;
        match v {
            ffi::LLMM_MISSING_REFUSE => Ok(MissingPolicy::Refuse),
            ffi::LLMM_MISSING_RENORMALIZE => Ok(MissingPolicy::Renormalize),
            _ => Err(Error::abi()),
        }
    }

    /// Define a metric; returns its id.
    ///
    /// `target` scores 1 and `worst` scores 0 (finite, on the side `dir` requires); `weight`
    /// (finite, > 0) is the metric's weight inside its layer.
    ///
    /// # Errors
    /// `Invalid` for an empty, too long (over 255 bytes), duplicate or NUL-containing name or
    /// invalid numbers; `NoMem`. Nothing is added on error.
    pub fn add_metric(
        &mut self,
        layer: Layer,
        name: &str,
        dir: Direction,
        target: f64,
        worst: f64,
        weight: f64,
    ) -> Result<MetricId> {
        let name = c_name(name)?;
        // SAFETY: live handle; `name` is NUL-terminated and copied by the call.
        get(|id| unsafe {
            ffi::llmm_scorecard_add_metric(
                self.raw.ptr(),
                layer as ffi::llmm_layer,
                name.as_ptr(),
                dir as ffi::llmm_direction,
                target,
                worst,
                weight,
                id,
            )
        })
    }

    /// Record the latest observation of a metric by name (a linear search: prefer
    /// [`observe_id`](Scorecard::observe_id) in loops).
    ///
    /// # Errors
    /// `Invalid` for an unknown name or a non-finite value.
    pub fn observe(&mut self, name: &str, value: f64) -> Result<()> {
        let name = c_name(name)?;
        // SAFETY: live handle; NUL-terminated name.
        check(unsafe { ffi::llmm_scorecard_observe(self.raw.ptr(), name.as_ptr(), value) })
    }

    /// Record the latest observation of a metric by id.
    pub fn observe_id(&mut self, id: MetricId, value: f64) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_scorecard_observe_id(self.raw.ptr(), id, value) })
    }

    /// Forget every observation; metrics, weights and options stay.
    pub fn clear(&mut self) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_scorecard_clear(self.raw.ptr()) })
    }

    /// One metric's normalised score.
    ///
    /// # Errors
    /// `Invalid` for an unknown id; `Empty` when it has no observation.
    pub fn metric_score(&self, id: MetricId) -> Result<f64> {
        // SAFETY: live handle; valid out-pointer.
        get(|s| unsafe { ffi::llmm_scorecard_metric_score(self.raw.ptr(), id, s) })
    }

    /// Runs the evaluation; the struct is `None` when the library did not write it.
    fn evaluate_raw(&self) -> (ffi::llmm_status, Option<ffi::llmm_score_result>) {
        let mut r = MaybeUninit::<ffi::llmm_score_result>::zeroed();
        // SAFETY: the struct is initialised by crate::sized::init, then filled by evaluate.
        unsafe {
            let st = crate::sized::init(r.as_mut_ptr());
            if st != ffi::LLMM_OK {
                return (st, None);
            }
            // A scenario no library returns: still there after the call means "not written".
            (*r.as_mut_ptr()).scenario = -1;
            let st = ffi::llmm_scorecard_evaluate(self.raw.ptr(), r.as_mut_ptr());
            let r = r.assume_init();
            (st, if r.scenario == -1 { None } else { Some(r) })
        }
    }

    /// The overall score, each layer's score, effective weight and contribution.
    ///
    /// # Errors
    /// `State` when a weighted layer is missing under [`MissingPolicy::Refuse`] or custom
    /// weights were never set; `Empty` when nothing can be scored.
    pub fn evaluate(&self) -> Result<ScoreResult> {
        let (st, r) = self.evaluate_raw();
        check(st)?;
        ScoreResult::from_raw(r.as_ref().ok_or_else(Error::abi)?)
    }

    /// As [`evaluate`](Scorecard::evaluate), but when the overall score is refused (`State`,
    /// `Empty`) also returns what the library filled in: which layers are present, their
    /// scores, weights and metric counts (`overall` is NaN, effective weights and
    /// contributions 0). The result is `None` when the library refused before looking at the
    /// layers (custom weights never set).
    ///
    /// ```
    /// use llmmetrics::{Direction, ErrorKind, Layer, Scenario, Scorecard};
    ///
    /// let mut sc = Scorecard::new(Scenario::CodeAssistant)?;
    /// sc.add_metric(Layer::Capability, "pass_at_1", Direction::HigherIsBetter, 0.9, 0.5, 1.0)?;
    /// sc.observe("pass_at_1", 0.7)?;
    /// let (status, partial) = sc.evaluate_partial();
    /// assert_eq!(status.unwrap_err().kind(), ErrorKind::State); // three weighted layers missing
    /// let partial = partial.unwrap();
    /// assert_eq!(partial.layers_missing, 3);
    /// assert!((partial.layer(Layer::Capability).score.unwrap() - 0.5).abs() < 1e-12);
    /// assert!(partial.overall.is_nan());
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    pub fn evaluate_partial(&self) -> (Result<()>, Option<ScoreResult>) {
        let (st, r) = self.evaluate_raw();
        (check(st), r.as_ref().and_then(|r| ScoreResult::from_raw(r).ok()))
    }
}

debug_fields!(Scorecard, "weights" = { weights().ok() });
