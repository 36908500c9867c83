//! The scorecard against doc/spec.md §1 and against the C library driven directly.

use std::ffi::CString;
use std::mem::MaybeUninit;
use std::ptr;

use llmmetrics::sys;
use llmmetrics::*;

#[test]
fn presets_are_the_spec_table() {
    assert_eq!(scenario_weights(Scenario::CustomerService).unwrap(), [0.25, 0.40, 0.20, 0.15]);
    assert_eq!(scenario_weights(Scenario::CodeAssistant).unwrap(), [0.45, 0.20, 0.15, 0.20]);
    assert_eq!(scenario_weights(Scenario::ContentGeneration).unwrap(), [0.35, 0.10, 0.25, 0.30]);
    assert_eq!(scenario_weights(Scenario::Custom).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(Layer::ALL.len(), LAYER_COUNT);
}

#[test]
fn normalize_is_the_clamped_linear_map() {
    assert_eq!(normalize(Direction::HigherIsBetter, 0.9, 0.5, 0.9).unwrap(), 1.0);
    assert_eq!(normalize(Direction::HigherIsBetter, 0.9, 0.5, 0.5).unwrap(), 0.0);
    assert!((normalize(Direction::HigherIsBetter, 0.9, 0.5, 0.7).unwrap() - 0.5).abs() < 1e-15);
    assert_eq!(normalize(Direction::HigherIsBetter, 0.9, 0.5, 2.0).unwrap(), 1.0);
    assert_eq!(normalize(Direction::LowerIsBetter, 200.0, 1000.0, 600.0).unwrap(), 0.5);
    assert_eq!(normalize(Direction::LowerIsBetter, 200.0, 1000.0, 5000.0).unwrap(), 0.0);
    for (dir, t, w, v) in [
        (Direction::HigherIsBetter, 0.5, 0.9, 0.7),
        (Direction::LowerIsBetter, 1000.0, 200.0, 600.0),
        (Direction::HigherIsBetter, 1.0, 1.0, 1.0),
        (Direction::HigherIsBetter, 1.0, 0.0, f64::NAN),
        (Direction::HigherIsBetter, f64::INFINITY, 0.0, 1.0),
    ] {
        assert_eq!(normalize(dir, t, w, v).unwrap_err().kind(), ErrorKind::Invalid);
    }
}

fn customer_service_card() -> Scorecard {
    let mut sc = Scorecard::new(Scenario::CustomerService).unwrap();
    sc.add_metric(Layer::Capability, "factual", Direction::HigherIsBetter, 0.95, 0.75, 1.0)
        .unwrap();
    sc.add_metric(Layer::Capability, "coherence", Direction::HigherIsBetter, 1.0, 0.0, 3.0)
        .unwrap();
    sc.add_metric(Layer::Performance, "p95_ms", Direction::LowerIsBetter, 200.0, 1000.0, 1.0)
        .unwrap();
    sc.add_metric(Layer::Engineering, "err", Direction::LowerIsBetter, 0.0, 0.1, 1.0).unwrap();
    sc.add_metric(Layer::Business, "tickets", Direction::HigherIsBetter, 0.3, 0.0, 1.0).unwrap();
    sc
}

#[test]
fn evaluate_weights_layers_and_metrics() {
    let mut sc = customer_service_card();
    assert_eq!(sc.missing_policy().unwrap(), MissingPolicy::Refuse);
    sc.observe("factual", 0.85).unwrap(); // 0.5, weight 1
    sc.observe("coherence", 0.25).unwrap(); // 0.25, weight 3
    sc.observe("p95_ms", 400.0).unwrap(); // 0.75
    sc.observe("err", 0.025).unwrap(); // 0.75
    sc.observe_id(4, 0.3).unwrap(); // 1.0
    let cap = (0.5 + 3.0 * 0.25) / 4.0;
    let want = 0.25 * cap + 0.40 * 0.75 + 0.20 * 0.75 + 0.15 * 1.0;
    let r = sc.evaluate().unwrap();
    assert!((r.overall - want).abs() < 1e-12, "{} vs {}", r.overall, want);
    assert_eq!(r.scenario, Scenario::CustomerService);
    assert_eq!((r.layers_missing, r.renormalized), (0, false));
    let c = r.layer(Layer::Capability);
    assert!((c.score.unwrap() - cap).abs() < 1e-12);
    assert_eq!((c.metrics, c.observed), (2, 2));
    assert_eq!(c.weight, 0.25);
    assert!((c.contribution - 0.25 * cap).abs() < 1e-12);
    let total: f64 = r.layers.iter().map(|l| l.contribution).sum();
    assert!((total - r.overall).abs() < 1e-12);
    assert!((sc.metric_score(1).unwrap() - 0.25).abs() < 1e-12);
}

#[test]
fn missing_layers_are_refused_or_renormalised() {
    let mut sc = customer_service_card();
    sc.observe("factual", 0.95).unwrap();
    sc.observe("p95_ms", 1000.0).unwrap();
    let (status, partial) = sc.evaluate_partial();
    assert_eq!(status.unwrap_err().kind(), ErrorKind::State);
    let partial = partial.unwrap();
    assert_eq!(partial.layers_missing, 2);
    assert!(partial.overall.is_nan());
    assert_eq!(partial.layer(Layer::Engineering).score, None);
    assert_eq!(partial.layer(Layer::Capability).observed, 1);
    assert_eq!(sc.evaluate().unwrap_err().kind(), ErrorKind::State);

    sc.set_missing_policy(MissingPolicy::Renormalize).unwrap();
    assert_eq!(sc.missing_policy().unwrap(), MissingPolicy::Renormalize);
    let r = sc.evaluate().unwrap();
    assert!(r.renormalized);
    // capability 1.0 (the observed metric), performance 0: 0.25 / (0.25 + 0.40).
    assert!((r.overall - 0.25 / 0.65).abs() < 1e-12);
    assert_eq!(r.layer(Layer::Business).effective_weight, 0.0);

    sc.clear().unwrap();
    assert_eq!(sc.metric_score(0).unwrap_err().kind(), ErrorKind::Empty);
    assert_eq!(sc.evaluate().unwrap_err().kind(), ErrorKind::Empty);
}

#[test]
fn custom_weights_are_validated() {
    let mut sc = Scorecard::new(Scenario::Custom).unwrap();
    assert_eq!(sc.weights().unwrap_err().kind(), ErrorKind::State);
    sc.add_metric(Layer::Performance, "tps", Direction::HigherIsBetter, 100.0, 0.0, 1.0).unwrap();
    sc.observe("tps", 25.0).unwrap();
    let (status, partial) = sc.evaluate_partial();
    assert_eq!(status.unwrap_err().kind(), ErrorKind::State);
    assert!(partial.is_none(), "weights never set: the library writes nothing");
    assert_eq!(sc.set_weights([0.5, 0.5, 0.1, 0.0]).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(sc.set_weights([0.5, 0.5 - 2e-9, 0.0, 0.0]).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(sc.set_weights([1.5, -0.5, 0.0, 0.0]).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(sc.set_weights([f64::NAN, 1.0, 0.0, 0.0]).unwrap_err().kind(), ErrorKind::Invalid);
    sc.set_weights([0.0, 1.0 - 1e-12, 0.0, 0.0]).unwrap();
    assert_eq!(sc.weights().unwrap(), [0.0, 1.0 - 1e-12, 0.0, 0.0]);
    let r = sc.evaluate().unwrap();
    assert_eq!(r.scenario, Scenario::Custom);
    assert!((r.overall - 0.25).abs() < 1e-12);
}

#[test]
fn metric_names_and_ids_are_checked() {
    let mut sc = Scorecard::new(Scenario::CodeAssistant).unwrap();
    let id =
        sc.add_metric(Layer::Capability, "m", Direction::HigherIsBetter, 1.0, 0.0, 1.0).unwrap();
    assert_eq!(id, 0);
    let long = "x".repeat(255);
    assert_eq!(
        sc.add_metric(Layer::Capability, &long, Direction::HigherIsBetter, 1.0, 0.0, 1.0).unwrap(),
        1
    );
    for name in ["", "m", "nul\0inside", &"y".repeat(256)] {
        let e = sc
            .add_metric(Layer::Capability, name, Direction::HigherIsBetter, 1.0, 0.0, 1.0)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Invalid, "name {:?}", name);
    }
    let e = sc
        .add_metric(Layer::Capability, "w", Direction::HigherIsBetter, 1.0, 0.0, 0.0)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Invalid);
    assert_eq!(sc.observe("unknown", 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(sc.observe("m", f64::NAN).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(sc.observe_id(7, 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(sc.metric_score(7).unwrap_err().kind(), ErrorKind::Invalid);
    assert!(format!("{:?}", sc).contains("0.45"));
}

#[test]
fn evaluate_equals_the_c_library() {
    let observations = [0.9, 0.1, 800.0, 0.01, 0.05];
    let mut sc = customer_service_card();
    for (id, &v) in observations.iter().enumerate() {
        sc.observe_id(id as u32, v).unwrap();
    }
    let safe = sc.evaluate().unwrap();
    unsafe {
        let mut raw = ptr::null_mut();
        assert_eq!(
            sys::llmm_scorecard_new(ptr::null_mut(), sys::LLMM_SCENARIO_CUSTOMER_SERVICE, &mut raw),
            0
        );
        let defs = [
            (sys::LLMM_LAYER_CAPABILITY, "factual", sys::LLMM_HIGHER_IS_BETTER, 0.95, 0.75, 1.0),
            (sys::LLMM_LAYER_CAPABILITY, "coherence", sys::LLMM_HIGHER_IS_BETTER, 1.0, 0.0, 3.0),
            (sys::LLMM_LAYER_PERFORMANCE, "p95_ms", sys::LLMM_LOWER_IS_BETTER, 200.0, 1000.0, 1.0),
            (sys::LLMM_LAYER_ENGINEERING, "err", sys::LLMM_LOWER_IS_BETTER, 0.0, 0.1, 1.0),
            (sys::LLMM_LAYER_BUSINESS, "tickets", sys::LLMM_HIGHER_IS_BETTER, 0.3, 0.0, 1.0),
        ];
        for (i, (layer, name, dir, t, w, wt)) in defs.iter().enumerate() {
            let name = CString::new(*name).unwrap();
            let mut id = 99;
            assert_eq!(
                sys::llmm_scorecard_add_metric(
                    raw,
                    *layer,
                    name.as_ptr(),
                    *dir,
                    *t,
                    *w,
                    *wt,
                    &mut id
                ),
                0
            );
            assert_eq!(sys::llmm_scorecard_observe(raw, name.as_ptr(), observations[i]), 0);
            assert_eq!(id as usize, i);
        }
        let mut r = MaybeUninit::<sys::llmm_score_result>::zeroed();
        assert_eq!(sys::llmm_score_result_init(r.as_mut_ptr()), 0);
        assert_eq!(sys::llmm_scorecard_evaluate(raw, r.as_mut_ptr()), 0);
        let r = r.assume_init();
        sys::llmm_scorecard_free(raw);
        assert_eq!(safe.overall.to_bits(), r.overall.to_bits());
        for i in 0..LAYER_COUNT {
            let l = &safe.layers[i];
            assert_eq!(l.score.unwrap().to_bits(), r.layer_score[i].to_bits());
            assert_eq!(l.weight, r.layer_weight[i]);
            assert_eq!(l.effective_weight, r.layer_effective_weight[i]);
            assert_eq!(l.contribution, r.layer_contribution[i]);
            assert_eq!((l.metrics, l.observed), (r.layer_metrics[i], r.layer_observed[i]));
        }
    }
}
