//! The spike detector: options, warm-up, levels, and the same decisions as the C library.

use std::ptr;

use llmmetrics::sys;
use llmmetrics::*;

use crate::support::Rng;

const S: u64 = 1_000_000_000;

/// 20 s of 200 samples per second around 100 ms, then a burst of slow requests.
fn trace() -> Vec<(u64, f64)> {
    let mut rng = Rng::new(77);
    let mut t = Vec::new();
    for i in 0..4000u64 {
        t.push((i * S / 200, rng.lognormal(0.1, 0.2)));
    }
    for i in 0..200u64 {
        let slow = if i % 10 == 0 { 0.6 } else { rng.lognormal(0.1, 0.2) };
        t.push((20 * S + i * S / 200, slow));
    }
    t
}

#[test]
fn options_have_their_defaults_and_bounds() {
    let mut d = SpikeDetector::new().unwrap();
    assert_eq!(d.get_f64(SpikeF64::BaseQuantile).unwrap(), 0.99);
    assert_eq!(d.get_f64(SpikeF64::SevereQuantile).unwrap(), 0.999);
    assert_eq!(d.get_f64(SpikeF64::SevereFactor).unwrap(), 1.2);
    assert_eq!(d.get_u64(SpikeU64::Warmup).unwrap(), 1000);
    assert_eq!(d.get_u64(SpikeU64::SlotNs).unwrap(), S);
    assert_eq!(d.get_u64(SpikeU64::Slots).unwrap(), 60);
    assert_eq!(d.get_u64(SpikeU64::Scale).unwrap(), 6);
    assert_eq!(d.set_f64(SpikeF64::BaseQuantile, 1.0).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(d.set_f64(SpikeF64::SevereFactor, f64::NAN).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(d.set_u64(SpikeU64::Slots, 1).unwrap_err().kind(), ErrorKind::Range);
    d.set_u64(SpikeU64::Slots, 30).unwrap();
    d.set_f64(SpikeF64::SevereFactor, 1.5).unwrap();
    assert_eq!(d.get_f64(SpikeF64::SevereFactor).unwrap(), 1.5);
    d.observe(S, 0.1).unwrap();
    assert_eq!(d.set_u64(SpikeU64::Slots, 40).unwrap_err().kind(), ErrorKind::State);
    assert_eq!(d.observe(0, 0.1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(d.observe(S, -0.1).unwrap_err().kind(), ErrorKind::Invalid);
    d.reset().unwrap();
    d.set_u64(SpikeU64::Slots, 40).unwrap();
    assert_eq!(d.get_u64(SpikeU64::Slots).unwrap(), 40);
    assert!(format!("{:?}", d).contains("1.5"));
}

#[test]
fn levels_equal_the_c_library_and_the_stats_add_up() {
    let mut d = SpikeDetector::new().unwrap();
    let mut raw = ptr::null_mut();
    assert_eq!(unsafe { sys::llmm_spike_new(ptr::null_mut(), &mut raw) }, 0);
    let (mut l1, mut l2, mut none) = (0u64, 0u64, 0u64);
    for (now, lat) in trace() {
        let level = d.observe(now, lat).unwrap();
        let mut want = -1;
        assert_eq!(unsafe { sys::llmm_spike_observe(raw, now, lat, &mut want) }, 0);
        assert_eq!(level as i32, want, "at {} ns, latency {}", now, lat);
        match level {
            SpikeLevel::None => none += 1,
            SpikeLevel::Level1 => l1 += 1,
            SpikeLevel::Level2 => l2 += 1,
        }
    }
    unsafe { sys::llmm_spike_free(raw) };
    let now = 21 * S;
    let st = d.stats(now).unwrap();
    assert!(st.ready);
    assert_eq!(st.total_samples, 4200);
    assert_eq!((st.total_level1, st.total_level2), (l1, l2));
    assert_eq!(none + l1 + l2, st.total_samples);
    // The 20 slow requests of the burst are far above 1.2 × P99.9.
    assert!(l2 >= 20, "{} level-2 spikes", l2);
    assert!(st.base_threshold > 0.1 && st.severe_threshold >= st.base_threshold);
    let rate = d.rate(now).unwrap();
    let want = (st.window_level1 + st.window_level2) as f64 / st.window_classified as f64;
    assert!((rate - want).abs() < 1e-15);
}

#[test]
fn warm_up_reports_none_and_no_rate() {
    let mut d = SpikeDetector::new().unwrap();
    for i in 0..10u64 {
        assert_eq!(d.observe(i * S / 10, 100.0 * (i + 1) as f64).unwrap(), SpikeLevel::None);
    }
    assert_eq!(d.rate(S).unwrap_err().kind(), ErrorKind::Empty);
    let st = d.stats(S).unwrap();
    assert!(!st.ready);
    assert_eq!((st.total_samples, st.total_classified), (10, 0));
}
