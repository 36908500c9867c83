//! Resource signals against doc/spec.md §8 and against the C library.

use llmmetrics::sys;
use llmmetrics::*;

use crate::support::Rng;

#[test]
fn lii_batch_matches_the_formula_and_the_c_library() {
    let mut rng = Rng::new(41);
    let cpu: Vec<f64> = (0..257).map(|_| rng.uniform()).collect();
    let gpu: Vec<f64> = (0..257).map(|_| rng.uniform() * 0.5).collect();
    let got = lii(&cpu, &gpu).unwrap();
    let (mc, mg) =
        (cpu.iter().sum::<f64>() / cpu.len() as f64, gpu.iter().sum::<f64>() / gpu.len() as f64);
    let want = (mc - mg).abs() / mc.max(mg).max(1e-6);
    assert!((got - want).abs() < 1e-12, "{} vs {}", got, want);
    let mut raw = 0.0;
    assert_eq!(unsafe { sys::llmm_lii(cpu.as_ptr(), gpu.as_ptr(), cpu.len(), &mut raw) }, 0);
    assert_eq!(got.to_bits(), raw.to_bits());
    assert_eq!(lii(&[0.0, 0.0], &[0.0, 0.0]).unwrap(), 0.0);
    assert_eq!(lii(&[], &[]).unwrap_err().kind(), ErrorKind::Empty);
    assert_eq!(lii(&[0.5], &[0.5, 0.5]).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(lii(&[1.5], &[0.5]).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn monitor_tiers_thresholds_and_window() {
    let mut m = LiiMonitor::new(0).unwrap();
    assert_eq!(m.read().unwrap_err().kind(), ErrorKind::Empty);
    assert_eq!(m.threshold(LiiThreshold::PrefetchAt).unwrap(), 0.2);
    assert_eq!(m.threshold(LiiThreshold::AdaptAt).unwrap(), 0.4);
    assert_eq!(m.threshold(LiiThreshold::ScaleAt).unwrap(), 0.3);
    // LII exactly 0.5 (means 0.5 vs 1.0), 0.25 (0.75 vs 1.0), 0 (equal).
    for (cpu, gpu, tier, scale) in [
        (0.5, 1.0, LiiTier::Adapt, true),
        (0.75, 1.0, LiiTier::Prefetch, false),
        (0.5, 0.5, LiiTier::Keep, false),
    ] {
        m.reset().unwrap();
        for _ in 0..LII_WINDOW_DEFAULT + 5 {
            m.add(cpu, gpu).unwrap();
        }
        let r = m.read().unwrap();
        assert_eq!((r.tier, r.scale, r.samples), (tier, scale, LII_WINDOW_DEFAULT));
        assert_eq!((r.mean_cpu, r.mean_gpu), (cpu, gpu));
    }
    // Thresholds: prefetch may not pass adapt; raise adapt first.
    assert_eq!(
        m.set_threshold(LiiThreshold::PrefetchAt, 0.5).unwrap_err().kind(),
        ErrorKind::Range
    );
    m.set_threshold(LiiThreshold::AdaptAt, 0.9).unwrap();
    m.set_threshold(LiiThreshold::PrefetchAt, 0.5).unwrap();
    assert_eq!(m.set_threshold(LiiThreshold::ScaleAt, 1.5).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(
        m.set_threshold(LiiThreshold::ScaleAt, f64::NAN).unwrap_err().kind(),
        ErrorKind::Invalid
    );
    assert_eq!(m.add(0.5, -0.1).unwrap_err().kind(), ErrorKind::Invalid);
    // The window slides: after 3 samples of (1, 0) in a window of 2, only the last two count.
    let mut w = LiiMonitor::new(2).unwrap();
    w.add(0.0, 1.0).unwrap();
    w.add(1.0, 0.0).unwrap();
    w.add(1.0, 0.0).unwrap();
    let r = w.read().unwrap();
    assert_eq!((r.samples, r.lii, r.mean_cpu), (2, 1.0, 1.0));
    assert_eq!(LiiMonitor::new(LII_WINDOW_MAX + 1).unwrap_err().kind(), ErrorKind::Range);
    assert!(format!("{:?}", w).contains("Keep") || format!("{:?}", w).contains("Adapt"));
}

#[test]
fn kv_formulas_reproduce_the_spec_values() {
    assert_eq!(kv_evict_threshold(0.0).unwrap(), 0.85);
    assert_eq!(kv_evict_threshold(0.2).unwrap(), 0.85 - 0.2 * 0.2);
    assert!((kv_evict_threshold(0.2).unwrap() - 0.81).abs() < 1e-15);
    assert!((kv_evict_threshold(0.6).unwrap() - 0.73).abs() < 1e-15);
    assert_eq!(kv_evict_threshold(1.0).unwrap(), 0.65);
    assert_eq!(kv_evict_threshold(1.1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(kv_ttl(0.75).unwrap(), 128);
    assert_eq!(kv_ttl(1.0).unwrap(), 144);
    assert_eq!(kv_ttl(0.0).unwrap(), 80);
    assert_eq!(kv_ttl(f64::NAN).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(kv_fragmentation(&[]).unwrap(), 0.0);
    assert_eq!(kv_fragmentation(&[64]).unwrap(), 0.0);
    assert_eq!(kv_fragmentation(&[8, 8, 16]).unwrap(), 0.5);
    let o = kv_occupancy(16, 100, 10, 150).unwrap();
    assert_eq!(o.wasted_slots, 10);
    assert_eq!(o.block_occupancy, 0.1);
    assert_eq!(o.token_occupancy, 150.0 / 1600.0);
    assert!((o.gap - 10.0 / 1600.0).abs() < 1e-15);
    assert!((o.internal_fragmentation - 0.0625).abs() < 1e-15);
    assert_eq!(kv_occupancy(16, 100, 101, 0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(kv_occupancy(16, 100, 10, 161).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(kv_occupancy(0, 100, 0, 0).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn oom_precursors() {
    assert_eq!(tlb_preset(TlbWorkload::OltpDatabase).unwrap(), (0.125, 1_000_000_000));
    assert_eq!(tlb_preset(TlbWorkload::JavaMicroservice).unwrap(), (0.082, 500_000_000));
    assert!((page_walk_ns(3000.0, 3e9).unwrap() - 1000.0).abs() < 1e-9);
    assert_eq!(page_walk_ns(0.0, 3e9).unwrap(), 0.0);
    assert_eq!(page_walk_ns(-1.0, 3e9).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(page_walk_ns(1.0, 0.0).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn kv_hit_tracker_reads_rate_and_ttl() {
    let s = 1_000_000_000u64;
    let mut t = KvHitTracker::new(60 * s).unwrap();
    assert_eq!(t.read(0).unwrap_err().kind(), ErrorKind::Empty);
    t.add(s, 30, 40).unwrap();
    t.add(2 * s, 0, 0).unwrap();
    let r = t.read(3 * s).unwrap();
    assert_eq!((r.hits, r.lookups, r.hit_rate), (30, 40, 0.75));
    assert_eq!(r.ttl, kv_ttl(0.75).unwrap());
    t.add(4 * s, 40, 40).unwrap();
    assert_eq!(t.read(4 * s).unwrap().ttl, kv_ttl(70.0 / 80.0).unwrap());
    assert_eq!(t.add(5 * s, 2, 1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(t.add(3 * s, 1, 1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(t.read(200 * s).unwrap_err().kind(), ErrorKind::Empty);
    t.reset().unwrap();
    t.add(0, 1, 1).unwrap();
    assert_eq!(t.read(0).unwrap().hit_rate, 1.0);
}

#[test]
fn tlb_monitor_alerts_strictly_above_the_threshold() {
    let (rate, window) = tlb_preset(TlbWorkload::OltpDatabase).unwrap();
    let mut m = TlbMonitor::new(TlbWorkload::OltpDatabase).unwrap();
    m.add(0, 125, 1000).unwrap();
    let r = m.read(1).unwrap();
    assert_eq!((r.window_ns, r.max_miss_rate, r.miss_rate), (window, rate, 0.125));
    assert!(!r.alert, "equal to the threshold");
    m.add(2, 1, 1).unwrap();
    assert!(m.read(2).unwrap().alert);
    assert_eq!(m.read(10 * window).unwrap_err().kind(), ErrorKind::Empty);
    let mut c = TlbMonitor::custom(0.01, 1_000_000).unwrap();
    c.add(5, 2, 100).unwrap();
    let r = c.read(5).unwrap();
    assert!(r.alert && r.misses == 2 && r.accesses == 100);
    c.reset().unwrap();
    assert_eq!(TlbMonitor::custom(1.5, 1).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(TlbMonitor::custom(0.1, 0).unwrap_err().kind(), ErrorKind::Invalid);
}
