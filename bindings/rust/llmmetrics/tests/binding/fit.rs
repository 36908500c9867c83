//! Fits, polynomials, knees and the USL against exact data and against the C library.

use std::ptr;

use llmmetrics::sys;
use llmmetrics::*;

use crate::support::Rng;

fn horner(c: &[f64], x: f64) -> f64 {
    c.iter().fold(0.0, |acc, &k| acc * x + k)
}

#[test]
fn polyfit_recovers_exact_polynomials_and_matches_c() {
    let want = [0.5, -2.0, 3.0, 7.0];
    let x: Vec<f64> = (0..50).map(|i| f64::from(i) * 0.37 - 4.0).collect();
    let y: Vec<f64> = x.iter().map(|&x| horner(&want, x)).collect();
    let (c, st) = polyfit(&x, &y, 3).unwrap();
    for (g, w) in c.iter().zip(want) {
        assert!((g - w).abs() <= 1e-10 * w.abs().max(1.0), "{:?}", c);
    }
    assert_eq!((st.rank, st.n), (4, 50));
    assert!(st.r2 > 1.0 - 1e-12 && st.rss < 1e-18 * st.tss);

    // Noisy data: bit-identical to the raw call.
    let mut rng = Rng::new(5);
    let yn: Vec<f64> = y.iter().map(|v| v + rng.uniform() - 0.5).collect();
    let (c, st) = polyfit(&x, &yn, 3).unwrap();
    let mut raw = [0.0; 4];
    assert_eq!(
        unsafe {
            sys::llmm_polyfit(
                x.as_ptr(),
                yn.as_ptr(),
                x.len(),
                3,
                raw.as_mut_ptr(),
                ptr::null_mut(),
            )
        },
        0
    );
    assert_eq!(c, raw);
    // The residual sum matches poly_residuals and a direct evaluation.
    let (r, rss) = poly_residuals(&c, &x, &yn).unwrap();
    let direct: f64 = x.iter().zip(&yn).map(|(&x, &y)| (y - horner(&c, x)).powi(2)).sum();
    assert!((rss - direct).abs() <= 1e-9 * direct);
    assert!((st.rss - rss).abs() <= 1e-9 * rss);
    assert_eq!(r.len(), x.len());
    assert!((r[7] - (yn[7] - horner(&c, x[7]))).abs() < 1e-9);
}

#[test]
fn integer_weights_act_as_repeat_counts() {
    let x = [1.0, 2.0, 3.0, 4.0, 5.0];
    let y = [2.1, 3.9, 6.2, 7.8, 10.1];
    let w = [1.0, 3.0, 1.0, 2.0, 0.0];
    let (cw, st) = polyfit_weighted(&x, &y, &w, 1).unwrap();
    assert_eq!(st.n, 4);
    let xr = [1.0, 2.0, 2.0, 2.0, 3.0, 4.0, 4.0];
    let yr = [2.1, 3.9, 3.9, 3.9, 6.2, 7.8, 7.8];
    let (cr, _) = polyfit(&xr, &yr, 1).unwrap();
    for (a, b) in cw.iter().zip(&cr) {
        assert!((a - b).abs() < 1e-12, "{:?} vs {:?}", cw, cr);
    }
    assert_eq!(
        polyfit_weighted(&x, &y, &[1.0, -1.0, 1.0, 1.0, 1.0], 1).unwrap_err().kind(),
        ErrorKind::Invalid
    );
}

#[test]
fn polyfit_rejects_bad_input() {
    let x = [1.0, 2.0, 3.0];
    assert_eq!(polyfit(&x, &[1.0, 2.0], 1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(polyfit(&x, &[1.0, f64::NAN, 3.0], 1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(polyfit(&x, &x, 3).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(polyfit(&[1.0, 1.0, 1.0], &x, 1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(polyfit(&[], &[], 1).unwrap_err().kind(), ErrorKind::Empty);
    assert_eq!(polyfit(&x, &x, POLY_MAX_DEGREE + 1).unwrap_err().kind(), ErrorKind::Range);
}

#[test]
fn eval_deriv_and_roots() {
    let p = [2.0, -3.0, 0.5, 4.0];
    for x in [-3.0, -0.5, 0.0, 1.25, 10.0] {
        assert_eq!(poly_eval(&p, x).unwrap(), horner(&p, x));
    }
    assert_eq!(poly_eval(&[], 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(poly_deriv(&p, 0).unwrap(), p);
    assert_eq!(poly_deriv(&p, 2).unwrap(), [12.0, -6.0]);
    // (x − 2)²(x + 1) = x³ − 3x² + 4: the double root is reported twice.
    let r = poly_roots(&[1.0, -3.0, 0.0, 4.0]).unwrap();
    assert_eq!(r.len(), 3, "{:?}", r);
    for (g, w) in r.iter().zip([-1.0, 2.0, 2.0]) {
        assert!((g - w).abs() < 1e-7, "{:?}", r);
    }
    // x² + 1 has no real root; leading zeros are dropped; 0 at the end gives an exact root.
    assert!(poly_roots(&[1.0, 0.0, 1.0]).unwrap().is_empty());
    assert_eq!(poly_roots(&[0.0, 0.0, 1.0, 0.0]).unwrap(), [0.0]);
    assert_eq!(poly_roots(&[0.0, 0.0]).unwrap_err().kind(), ErrorKind::Invalid);
}

fn usl_curve(lambda: f64, sigma: f64, kappa: f64, n: &[f64]) -> Vec<f64> {
    n.iter().map(|&n| lambda * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0))).collect()
}

#[test]
fn usl_fit_recovers_the_model() {
    let conc: Vec<f64> = (1..=64).map(f64::from).collect();
    let qps = usl_curve(120.0, 0.04, 0.0008, &conc);
    let m = usl_fit(&conc, &qps).unwrap();
    assert!((m.lambda - 120.0).abs() < 1e-6 * 120.0, "{:?}", m);
    assert!((m.sigma - 0.04).abs() < 1e-6, "{:?}", m);
    assert!((m.kappa - 0.0008).abs() < 1e-8, "{:?}", m);
    assert_eq!(m.quality, KneeQuality::Ok);
    assert!(!m.kappa_at_bound);
    assert_eq!(m.n_max, ((1.0f64 - 0.04) / 0.0008).sqrt().floor());
    let x = m.throughput(m.n_max).unwrap();
    assert!((x - m.x_max).abs() < 1e-9 * x);
    // Little's law, and the SLO concurrency is the largest N whose latency meets the SLO.
    let n = m.slo_concurrency(0.1).unwrap();
    assert!(m.latency(n).unwrap() <= 0.1 && m.latency(n + 1.0).unwrap() > 0.1);
    let by_hand = Usl::new(m.lambda, m.sigma, m.kappa);
    assert_eq!(by_hand.throughput(10.0).unwrap(), m.throughput(10.0).unwrap());
    assert_eq!(Usl::new(-1.0, 0.0, 0.0).throughput(1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(usl_fit(&conc[..5], &qps[..5]).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn knees_of_a_saturating_sweep() {
    // Linear growth to N = 32, then flat: every estimator should put the knee near 32.
    let conc: Vec<f64> = (1..=64).map(f64::from).collect();
    let qps: Vec<f64> = conc.iter().map(|&n| 10.0 * n.min(32.0)).collect();
    let k = knee_kneedle(&conc, &qps, 1.0).unwrap();
    assert_ne!(k.quality, KneeQuality::None);
    assert!((k.knee - 32.0).abs() <= 1.0, "{:?}", k);
    let c = knee_collapse(&conc, &qps, 0.5, 1).unwrap();
    assert_eq!(c.quality, KneeQuality::Ok);
    assert!((c.knee - 32.0).abs() <= 1.0, "{:?}", c);
    assert_eq!(knee_collapse(&conc, &qps, 1.5, 1).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(knee_collapse(&conc, &qps, 0.5, 2).unwrap_err().kind(), ErrorKind::Range);

    // An exact cubic with its inflection at 20: −b/(3a) with a = −1, b = 60.
    let cubic: Vec<f64> = conc.iter().map(|&n| -n * n * n + 60.0 * n * n + 10.0 * n).collect();
    let knee = knee_inflection(&conc[..40], &cubic[..40], 0.0).unwrap();
    assert!((knee - 20.0).abs() < 1e-6, "{}", knee);
    let ex = knee_inflection_ex(&conc[..40], &cubic[..40], 0.1).unwrap();
    assert_eq!(ex.quality, KneeQuality::Ok);
    assert!((ex.knee - 20.0).abs() < 1e-6);
    let mut raw = 0.0;
    assert_eq!(
        unsafe { sys::llmm_knee_inflection(conc.as_ptr(), cubic.as_ptr(), 40, 0.0, &mut raw) },
        0
    );
    assert_eq!(raw.to_bits(), knee.to_bits());

    let report = knee_report(&conc, &qps, &KneeOptions::default()).unwrap();
    assert_eq!(report.kneedle, k);
    assert_eq!(report.collapse.quality, KneeQuality::Ok);
    let d = KneeOptions::default();
    assert_eq!((d.smooth, d.trim, d.collapse_fraction, d.kneedle_sensitivity), (0, 0.1, 0.5, 1.0));
    let bad = KneeOptions { trim: 0.9, ..d };
    assert_eq!(knee_report(&conc, &qps, &bad).unwrap_err().kind(), ErrorKind::Range);
}
