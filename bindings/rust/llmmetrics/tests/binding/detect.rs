//! Collapse detector, event log, correlation, stability gate and saturation signal against
//! closed forms and against the C library driven directly.

use std::ptr;

use llmmetrics::sys;
use llmmetrics::*;

use crate::support::Rng;

const MS: u64 = 1_000_000;

fn mean_sigma(w: &[f64]) -> (f64, f64) {
    let n = w.len() as f64;
    let m = w.iter().sum::<f64>() / n;
    let var = w.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n;
    (m, var.sqrt())
}

#[test]
fn collapse_verdicts_follow_the_rule_and_the_c_library() {
    let mut rng = Rng::new(17);
    let mut c = CollapseDetector::new().unwrap();
    let mut raw = ptr::null_mut();
    assert_eq!(unsafe { sys::llmm_collapse_new(ptr::null_mut(), &mut raw) }, 0);
    let mut history: Vec<f64> = Vec::new();
    let (mut spikes_flagged, mut flagged) = (0u64, 0u64);
    let mut t = 0u64;
    for i in 0..400u64 {
        t += MS;
        if i % 100 == 50 {
            c.mark_switch(t).unwrap();
            assert_eq!(unsafe { sys::llmm_collapse_mark_switch(raw, t) }, 0);
        }
        let lat = if i % 100 == 51 { 0.5 } else { 0.05 * (1.0 + 0.1 * rng.uniform()) };
        let v = c.observe_ex(t, lat).unwrap();
        let mut want = -1;
        assert_eq!(unsafe { sys::llmm_collapse_observe(raw, t, lat, &mut want) }, 0);
        assert_eq!(i32::from(v.collapsed), want, "sample {}", i);
        assert_eq!(v.samples, i + 1);
        flagged += u64::from(v.collapsed);
        if lat == 0.5 {
            // 1 ms after the switch and far above a calm baseline.
            assert!(v.collapsed && v.after_switch && v.since_switch_ns == Some(MS), "{:?}", v);
            spikes_flagged += 1;
        }
        if history.len() >= 8 {
            let (m, s) = mean_sigma(&history[history.len() - 8..]);
            let s = s.max(0.01 * m);
            assert!(v.ready);
            assert!((v.mean - m).abs() <= 1e-12 * m, "{} vs {}", v.mean, m);
            assert!((v.sigma - s).abs() <= 1e-9 * s, "{} vs {}", v.sigma, s);
            assert_eq!(v.outlier, lat > m + 2.5 * s);
        } else {
            assert!(!v.ready && !v.collapsed);
        }
        history.push(lat);
    }
    unsafe { sys::llmm_collapse_free(raw) };
    let counts = c.counts();
    assert_eq!((counts.samples, counts.collapsed, counts.switches), (400, flagged, 4));
    assert_eq!(spikes_flagged, 4);
}

#[test]
fn collapse_switch_report_confirms_signals() {
    let mut c = CollapseDetector::new().unwrap();
    assert_eq!(c.switch_report().unwrap_err().kind(), ErrorKind::Empty);
    assert_eq!(c.get_f64(CollapseF64::K).unwrap(), 2.5);
    assert_eq!(c.get_u64(CollapseU64::Window).unwrap(), 8);
    c.set_u64(CollapseU64::Window, 4).unwrap();
    for i in 0..4 {
        c.observe(i * MS, 0.05).unwrap();
    }
    assert_eq!(c.set_u64(CollapseU64::Window, 6).unwrap_err().kind(), ErrorKind::State);
    c.observe_tps(4 * MS, 1000.0).unwrap();
    c.mark_switch(5 * MS).unwrap();
    assert!(c.observe(6 * MS, 0.2).unwrap());
    c.observe_tps(7 * MS, 200.0).unwrap();
    c.observe_membw(8 * MS, 0.1).unwrap();
    let r = c.switch_report().unwrap();
    assert_eq!(r.signals, 3);
    assert!(r.latency_confirmed && r.tps_confirmed && r.membw_confirmed && r.open);
    assert_eq!((r.switch_ns, r.latencies, r.flagged), (5 * MS, 1, 1));
    assert_eq!((r.tps_before, r.tps_after), (1000.0, 200.0));
    assert!((r.tps_drop - 0.8).abs() < 1e-15);
    let v = c.observe_ex(100 * MS, 0.05).unwrap();
    assert_eq!(v.since_switch_ns, Some(95 * MS));
    assert!(!c.switch_report().unwrap().open);
    assert_eq!(c.observe(99 * MS, 0.05).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(c.observe(101 * MS, 1e101).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(c.observe_membw(101 * MS, 1.5).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(c.set_f64(CollapseF64::TpsDrop, 1.0).unwrap_err().kind(), ErrorKind::Range);
    c.reset().unwrap();
    assert_eq!(c.observe_ex(0, 0.05).unwrap().since_switch_ns, None);
    assert_eq!(c.get_u64(CollapseU64::Window).unwrap(), 4, "options stay");
}

#[test]
fn event_log_lookback_counts_and_drops() {
    let mut log = EventLog::new(4).unwrap();
    let user = EventType(EventType::USER.0 + 7);
    log.add(10 * MS, EventType::MAJOR_FAULT, 1.0).unwrap();
    log.add(20 * MS, user, 2.0).unwrap();
    log.add(20 * MS, EventType::SCHED_JITTER, 3.0).unwrap();
    log.add(30 * MS, EventType::MAJOR_FAULT, 4.0).unwrap();
    let got = log.lookback(30 * MS, 10 * MS).unwrap();
    let kinds: Vec<EventType> = got.iter().map(|e| e.kind).collect();
    // Nearest first; among equal time stamps the one added last first.
    assert_eq!(kinds, [EventType::MAJOR_FAULT, EventType::SCHED_JITTER, user]);
    assert_eq!(got.iter().map(|e| e.before_ns).collect::<Vec<_>>(), [0, 10 * MS, 10 * MS]);
    assert_eq!(got[2].value, 2.0);
    assert_eq!(log.count(Some(EventType::MAJOR_FAULT), 0, 30 * MS).unwrap(), 2);
    assert_eq!(log.count(None, 15 * MS, 25 * MS).unwrap(), 2);
    log.add(40 * MS, EventType::GC_PAUSE, 5.0).unwrap(); // the ring of 4 drops the oldest
    assert_eq!(log.counts(), EventLogCounts { held: 4, total: 5, dropped: 1 });
    assert_eq!(log.count(Some(EventType::MAJOR_FAULT), 0, 40 * MS).unwrap(), 1);
    assert!(log.lookback(5 * MS, 5 * MS).unwrap().is_empty());
    for bad in [EventType(0), EventType(-1), EventType(13), EventType(EventType::USER.0 - 1)] {
        assert_eq!(log.add(50 * MS, bad, 0.0).unwrap_err().kind(), ErrorKind::Invalid, "{:?}", bad);
    }
    assert_eq!(log.add(50 * MS, user, f64::NAN).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(log.add(39 * MS, user, 0.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(log.count(None, 2, 1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(user.attr_name(), None);
    assert_eq!(EventType::NUMA_MIGRATION.attr_name(), Some("mem.numa_migration"));
    log.reset().unwrap();
    assert_eq!(log.counts(), EventLogCounts::default());
    // Many events: the look-back buffer grows as needed.
    let mut big = EventLog::new(0).unwrap();
    for i in 0..1000u64 {
        big.add(i, EventType::TCP_RETRANSMIT, i as f64).unwrap();
    }
    let all = big.lookback(999, 999).unwrap();
    assert_eq!(all.len(), EVENT_LOG_CAPACITY_DEFAULT.min(1000) as usize);
    assert_eq!(all[0].value, 999.0);
}

// Events carrying a trace (1.2): the same events and order as `lookback`, with their ids.
#[test]
fn event_log_traced() {
    let mut log = EventLog::new(0).unwrap();
    let ids = |i: u64| {
        let mut tr = [0u8; 16];
        for (k, b) in tr.iter_mut().enumerate() {
            *b = (i as u8).wrapping_add(k as u8);
        }
        (tr, [(i as u8) ^ 0xa5; 8])
    };
    for i in 0..40u64 {
        let (tr, sp) = ids(i);
        match i % 3 {
            0 => log.add_traced(i, EventType::TCP_RETRANSMIT, i as f64, Some(&tr), Some(&sp)),
            1 => log.add_traced(i, EventType::MAJOR_FAULT, i as f64, Some(&tr), None),
            _ => log.add(i, EventType::SCHED_JITTER, i as f64),
        }
        .unwrap();
    }
    let plain = log.lookback(39, 100).unwrap();
    let got = log.lookback_traced(39, 100).unwrap();
    assert_eq!(got.len(), 40);
    for (k, e) in got.iter().enumerate() {
        let i = 39 - k as u64;
        let (mut tr, mut sp) = ids(i);
        if i % 3 != 0 {
            sp = [0; 8];
        }
        if i % 3 == 2 {
            tr = [0; 16];
        }
        assert_eq!(e.event, plain[k]);
        assert_eq!((e.trace_id, e.span_id), (tr, sp), "event {k}");
    }
    assert_eq!(log.lookback_traced(100, 10).unwrap(), vec![]);
    let (tr, _) = ids(1);
    let err = log.add_traced(1, EventType::GC_PAUSE, 0.0, Some(&tr), None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Invalid);
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    let syy: f64 = y.iter().map(|b| (b - my) * (b - my)).sum();
    sxy / (sxx * syy).sqrt()
}

#[test]
fn correlation_matches_the_definitions() {
    let mut rng = Rng::new(23);
    let x: Vec<f64> = (0..200).map(|_| rng.uniform()).collect();
    let y: Vec<f64> = x.iter().map(|v| v * 2.0 + rng.uniform()).collect();
    let r = correlation(&x, &y, CorrelationMethod::Pearson).unwrap();
    assert!((r - pearson(&x, &y)).abs() < 1e-12);
    // Spearman with ties: ranks of [1, 2, 2, 3] are [1, 2.5, 2.5, 4].
    let a = [1.0, 2.0, 2.0, 3.0];
    let b = [10.0, 30.0, 20.0, 40.0];
    let rho = correlation(&a, &b, CorrelationMethod::Spearman).unwrap();
    assert!((rho - pearson(&[1.0, 2.5, 2.5, 4.0], &[1.0, 3.0, 2.0, 4.0])).abs() < 1e-12);
    let ctx = Context::with_allocator(RustAllocator).unwrap();
    assert_eq!(correlation_in(Some(&ctx), &a, &b, CorrelationMethod::Spearman).unwrap(), rho);
    assert_eq!(
        correlation(&[1.0], &[2.0], CorrelationMethod::Pearson).unwrap_err().kind(),
        ErrorKind::Empty
    );
    assert_eq!(
        correlation(&[1.0, 1.0], &[1.0, 2.0], CorrelationMethod::Pearson).unwrap_err().kind(),
        ErrorKind::Range
    );
    assert_eq!(
        correlation(&[1.0, 2.0], &[1.0], CorrelationMethod::Pearson).unwrap_err().kind(),
        ErrorKind::Invalid
    );
}

#[test]
fn stability_gate_judges_the_last_k_means() {
    let mut g = StabilityGate::new().unwrap();
    assert_eq!((g.windows().unwrap(), g.epsilon().unwrap()), (5, 0.05));
    for m in [100.0, 101.0, 102.0, 103.0] {
        assert!(!g.add(m).unwrap(), "fewer than k means");
    }
    assert!(g.add(104.0).unwrap());
    let r = g.read().unwrap();
    assert_eq!((r.held, r.windows, r.min, r.max, r.total), (5, 5, 100.0, 104.0, 5));
    assert!((r.ratio - 1.04).abs() < 1e-15);
    g.set_epsilon(0.03).unwrap(); // applies at once to the means held
    assert!(!g.read().unwrap().stable);
    g.set_windows(3).unwrap();
    assert!(g.read().unwrap().stable); // 102, 103, 104
    assert_eq!(g.add(0.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(g.set_windows(1).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(g.set_epsilon(11.0).unwrap_err().kind(), ErrorKind::Range);
    g.reset().unwrap();
    assert_eq!(g.read().unwrap().total, 0);
}

#[test]
fn saturation_slopes_of_exact_lines() {
    let mut s = SaturationSignal::new().unwrap();
    s.set_window(16).unwrap();
    assert_eq!((s.window().unwrap(), s.confidence().unwrap()), (16, 3.0));
    let mut rng = Rng::new(31);
    for i in 0..16u64 {
        let t = i as f64 * 0.5; // seconds
        let noise = 0.001 * (rng.uniform() - 0.5);
        s.observe(i * 500 * MS, 0.2 + 0.02 * t + noise, 4.0 + 2.0 * t).unwrap();
    }
    let r = s.read().unwrap();
    assert!(r.ready && r.saturated && r.latency_rising && r.inflight_rising, "{:?}", r);
    assert!((r.inflight_slope - 2.0).abs() < 1e-9, "{}", r.inflight_slope);
    assert!((r.latency_slope - 0.02).abs() < 1e-3);
    assert_eq!((r.samples, r.total), (16, 16));
    assert_eq!(s.set_window(32).unwrap_err().kind(), ErrorKind::State);
    // Flat in-flight counts: not saturated.
    s.reset().unwrap();
    for i in 0..16u64 {
        assert!(!s.observe(i * MS, 0.1 + i as f64 * 0.01, 5.0).unwrap());
    }
    assert!(!s.read().unwrap().inflight_rising);
    assert_eq!(s.observe(0, 0.1, 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(s.set_confidence(0.0).unwrap_err().kind(), ErrorKind::Range);
}
