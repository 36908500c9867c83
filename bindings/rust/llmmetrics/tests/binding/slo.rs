//! SLO checks, goodput, burn rates and the error trigger against doc/spec.md §2 and exact counts.

use std::mem::MaybeUninit;

use llmmetrics::sys;
use llmmetrics::*;

use crate::support::*;

const S: u64 = 1_000_000_000;
const MIN: u64 = 60 * S;

#[test]
fn slo_check_uses_the_nearest_rank_p95_and_inclusive_bounds() {
    // 20 latencies 10, 20, …, 200 ms: the p95 is rank 19, 190 ms (within the sketch's error).
    let mut ok = Sketch::new().unwrap();
    let v: Vec<f64> = (1..=20).map(|i| f64::from(i) * 10.0).collect();
    ok.add_many(&v).unwrap();
    let r = slo_check(&ok, 0, 200.0, 0.0).unwrap();
    assert!(r.satisfied && r.latency_ok && r.errors_ok);
    assert_eq!((r.successes, r.errors, r.quantile, r.error_rate), (20, 0, 0.95, 0.0));
    assert_rel(r.latency, 190.0, relative_error(6), "p95");
    assert_eq!(r.latency, ok.quantile(0.95).unwrap());
    assert!(!slo_check(&ok, 0, 185.0, 0.0).unwrap().latency_ok);
    // Errors: 1 in 21 requests against 5 %.
    let r = slo_check(&ok, 1, 1000.0, 0.05).unwrap();
    assert_eq!(r.error_rate, 1.0 / 21.0);
    assert!(r.satisfied);
    assert!(!slo_check(&ok, 2, 1000.0, 0.05).unwrap().errors_ok);
    // Any quantile; the maximum is exact.
    let r = slo_check_quantile(&ok, 0, 1.0, 200.0, 0.0).unwrap();
    assert_eq!(r.latency, 200.0);
    // No success: +Inf, never satisfied.
    let empty = Sketch::new().unwrap();
    let r = slo_check(&empty, 3, 1e9, 1.0).unwrap();
    assert!(r.latency.is_infinite() && !r.satisfied && r.errors_ok);
    assert_eq!(slo_check(&ok, 0, f64::NAN, 0.1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(slo_check(&ok, 0, 1.0, 1.5).unwrap_err().kind(), ErrorKind::Invalid);
    // The raw call gives the same verdict.
    let mut raw = MaybeUninit::<sys::llmm_slo_result>::zeroed();
    unsafe {
        assert_eq!(sys::llmm_slo_result_init(raw.as_mut_ptr()), 0);
        assert_eq!(sys::llmm_slo_check(ok.as_ptr(), 1, 1000.0, 0.05, raw.as_mut_ptr()), 0);
        let raw = raw.assume_init();
        assert_eq!((raw.satisfied, raw.successes, raw.errors), (1, 20, 1));
        assert_eq!(
            raw.latency.to_bits(),
            slo_check(&ok, 1, 1000.0, 0.05).unwrap().latency.to_bits()
        );
    }
}

#[test]
fn slo_window_equals_the_check_on_its_slots() {
    let mut w = SloWindow::new(S, 10, 6).unwrap();
    let mut rng = Rng::new(9);
    let mut in_span = Sketch::new().unwrap();
    let mut errors_in_span = 0;
    for sec in 0..20u64 {
        for _ in 0..50 {
            let v = rng.lognormal(0.2, 0.5);
            w.add(sec * S, v).unwrap();
            if sec >= 15 {
                in_span.add(v).unwrap();
            }
        }
        w.add_errors(sec * S, sec % 3).unwrap();
        if sec >= 15 {
            errors_in_span += sec % 3;
        }
    }
    let got = w.check(19 * S, 5 * S, 0.95, 0.4, 0.05).unwrap();
    let want = slo_check_quantile(&in_span, errors_in_span, 0.95, 0.4, 0.05).unwrap();
    assert_eq!(got, want);
    assert_eq!(w.add(18 * S, 0.1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(w.check(19 * S, 11 * S, 0.95, 0.4, 0.05).unwrap_err().kind(), ErrorKind::Range);
    let idle = w.check(100 * S, 5 * S, 0.95, 0.4, 0.05).unwrap();
    assert!(!idle.satisfied && idle.latency.is_infinite() && idle.error_rate == 0.0);
    w.reset().unwrap();
    w.add(0, 0.1).unwrap();
}

#[test]
fn goodput_follows_vllm() {
    assert_eq!(goodput_tpot(1.0, 0.2, 5).unwrap(), 0.2);
    assert_eq!(goodput_tpot(1.0, 0.2, 1).unwrap(), 0.0);
    assert_eq!(goodput_tpot(0.1, 0.2, 5).unwrap_err().kind(), ErrorKind::Invalid);
    let mut g = Goodput::new().unwrap();
    assert!(g.bound(GoodputBound::E2eMax).unwrap().is_infinite());
    g.set_bound(GoodputBound::TtftMax, 0.5).unwrap();
    g.set_bound(GoodputBound::TpotMax, 0.05).unwrap();
    assert_eq!(g.set_bound(GoodputBound::E2eMax, -1.0).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(g.read(S).unwrap_err().kind(), ErrorKind::Empty);
    let reqs = [
        (0.5, 0.05, 3.0, true),
        (0.51, 0.01, 1.0, false),
        (0.1, 0.06, 1.0, false),
        (0.0, 0.0, 0.1, true),
    ];
    for (ttft, tpot, e2e, good) in reqs {
        assert_eq!(g.observe(ttft, tpot, e2e).unwrap(), good);
    }
    g.add_failures(4).unwrap();
    assert_eq!(g.set_bound(GoodputBound::E2eMax, 2.0).unwrap_err().kind(), ErrorKind::State);
    let r = g.read(4 * S).unwrap();
    assert_eq!((r.requests, r.completed, r.good), (8, 4, 2));
    assert_eq!((r.fraction, r.rate_per_s, r.throughput_per_s), (0.25, 0.5, 1.0));
    g.reset().unwrap();
    assert_eq!(g.bound(GoodputBound::TtftMax).unwrap(), 0.5);
    assert!(format!("{:?}", g).contains("0.5"));
}

#[test]
fn burn_rates_and_alerts() {
    assert!((burn_rate(0.0144, 0.999).unwrap() - 14.4).abs() < 1e-9);
    assert_eq!(burn_rate(0.5, 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    // 14.4 over 1 h spends 2 % of a 30-day budget; 6 over 6 h, 5 %.
    let month = 30 * 24 * 60 * MIN;
    assert!((burn_budget_spent(14.4, 60 * MIN, month).unwrap() - 0.02).abs() < 1e-12);
    assert!((burn_budget_spent(6.0, 360 * MIN, month).unwrap() - 0.05).abs() < 1e-12);

    let mut b = BurnAlerter::new(0.999, 0, 0).unwrap();
    assert_eq!(b.get_f64(BurnF64::FastFactor).unwrap(), 14.4);
    assert_eq!(b.get_f64(BurnF64::SlowFactor).unwrap(), 6.0);
    assert_eq!(b.get_u64(BurnU64::FastLongNs).unwrap(), 60 * MIN);
    assert_eq!(b.get_u64(BurnU64::FastShortNs).unwrap(), 5 * MIN);
    assert_eq!(b.get_u64(BurnU64::SlowLongNs).unwrap(), 360 * MIN);
    assert_eq!(b.get_u64(BurnU64::SlowShortNs).unwrap(), 30 * MIN);
    assert_eq!(b.set_u64(BurnU64::FastShortNs, 2 * 60 * MIN).unwrap_err().kind(), ErrorKind::Range);
    // One error per 1000 requests for 6 h: burn rate 1, no alert. Then an hour at 5 % errors
    // (burn 50): both fast windows burn at 50, the slow ones at 50 and (60·50 + 300·1)/360.
    for m in 0..360 {
        b.add(m * MIN, 1, 1000).unwrap();
    }
    let r = b.evaluate(360 * MIN).unwrap();
    assert!(!r.fast_alert && !r.slow_alert);
    for w in 0..4 {
        assert!((r.burn_rate[w] - 1.0).abs() < 1e-9, "{:?}", r);
        assert_eq!(r.errors[w] * 1000, r.requests[w]);
    }
    for m in 360..420 {
        b.add(m * MIN, 50, 1000).unwrap(); // 5 %: burn 50
    }
    let r = b.evaluate(420 * MIN).unwrap();
    assert!(r.fast_alert && r.slow_alert, "{:?}", r);
    assert!((r.burn_rate[BurnWindow::FastShort as usize] - 50.0).abs() < 1e-9);
    b.set_f64(BurnF64::SlowFactor, 100.0).unwrap();
    assert!(!b.evaluate(420 * MIN).unwrap().slow_alert);
    assert_eq!(b.add(0, 1, 1).unwrap_err().kind(), ErrorKind::Invalid);
    b.reset().unwrap();
    assert_eq!(b.evaluate(0).unwrap().requests, [0; 4]);
    assert_eq!(BurnAlerter::new(1.0, 0, 0).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(BurnAlerter::new(0.999, S, 10).unwrap_err().kind(), ErrorKind::Range);
}

#[test]
fn error_trigger_fires_strictly_above_the_share() {
    let mut t = ErrorTrigger::new(0).unwrap();
    assert_eq!(t.max_share().unwrap(), ERROR_TRIGGER_MAX_SHARE_DEFAULT);
    assert_eq!(t.min_requests().unwrap(), 1);
    assert_eq!(t.check(S).unwrap_err().kind(), ErrorKind::Empty);
    t.set_min_requests(100).unwrap();
    t.add(S, 2, 10).unwrap();
    let r = t.check(S).unwrap();
    assert!(!r.fired, "only 10 requests");
    assert_eq!((r.errors, r.requests, r.share), (2, 10, 0.2));
    t.add(2 * S, 3, 90).unwrap();
    assert!(!t.check(2 * S).unwrap().fired, "exactly 5 %");
    t.add(3 * S, 1, 1).unwrap();
    assert!(t.check(3 * S).unwrap().fired);
    // Five minutes later the window is empty again.
    assert_eq!(
        t.check(3 * S + ERROR_TRIGGER_WINDOW_NS_DEFAULT + S).unwrap_err().kind(),
        ErrorKind::Empty
    );
    assert_eq!(t.set_max_share(1.5).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(t.set_min_requests(0).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(t.add(0, 1, 1).unwrap_err().kind(), ErrorKind::Invalid);
    t.reset().unwrap();
    t.set_max_share(0.0).unwrap();
    t.add(0, 1, 1000).unwrap();
    assert!(t.check(0).unwrap().fired);
}
