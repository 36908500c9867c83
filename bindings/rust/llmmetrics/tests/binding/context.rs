//! Contexts: the library allocates through a Rust allocator, frees all of it, and reports
//! every allocation failure as `NoMem` without leaking.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use llmmetrics::*;

use crate::support::*;

fn counting() -> (Arc<Counts>, Context) {
    let counts = Arc::new(Counts::default());
    let ctx = Context::with_allocator(Counting(counts.clone())).unwrap();
    (counts, ctx)
}

#[test]
fn every_object_allocates_through_the_context_and_frees_everything() {
    let (counts, ctx) = counting();
    let ctx_bytes = counts.live();
    assert!(ctx_bytes > 0, "the context itself is allocated through the hooks");
    {
        let mut s = Sketch::with_context(&ctx, 6).unwrap();
        s.add_many(&lognormal_data(1, 1000, 0.2, 3.0)).unwrap();
        let c = s.clone();
        assert!(c.context().is_some());
        let rec = Recorder::with_context(&ctx, 6).unwrap();
        let mut sh = rec.shard().unwrap();
        sh.add_many(&[1e-6, 1.0, 1e6]).unwrap();
        drop(sh);
        let snap = rec.snapshot().unwrap();
        assert_eq!(snap.count(), 3);
        let mut sc = Scorecard::with_context(&ctx, Scenario::CodeAssistant).unwrap();
        sc.add_metric(Layer::Capability, "a", Direction::HigherIsBetter, 1.0, 0.0, 1.0).unwrap();
        let mut m = LiiMonitor::with_context(&ctx, 16).unwrap();
        m.add(0.5, 0.5).unwrap();
        assert!(counts.live() > ctx_bytes);
        // Dropping the caller's context does not free it while objects use it.
        drop(ctx);
        assert!(counts.live() > ctx_bytes);
        assert_eq!(s.count(), 1000);
    }
    assert_eq!(counts.live(), 0);
    assert_eq!(counts.allocs.load(Ordering::SeqCst), counts.frees.load(Ordering::SeqCst));
}

/// Run `step` with the k-th allocation failing, for k = 1, 2, ... until it succeeds; every
/// failing run must report `NoMem` and leave no memory behind.
fn each_failure(counts: &Counts, mut step: impl FnMut() -> Result<()>) -> usize {
    let base = counts.live();
    for k in 1..10_000 {
        counts.fail_nth(k);
        let r = step();
        counts.fail_nth(0);
        assert_eq!(counts.live(), base, "leak after failing allocation {}", k);
        match r {
            Ok(()) => return k,
            Err(e) => assert_eq!(e.kind(), ErrorKind::NoMem, "allocation {}: {}", k, e),
        }
    }
    panic!("step never succeeded");
}

#[test]
fn allocation_failures_are_reported_and_leak_nothing() {
    let (counts, ctx) = counting();
    let data = lognormal_data(2, 2000, 0.2, 4.0);
    let runs = each_failure(&counts, || {
        let mut s = Sketch::with_context(&ctx, 6)?;
        s.add_many(&data)?;
        for &v in data.iter().take(50) {
            s.add(v * 1e3)?;
        }
        let c = s.try_clone()?;
        let mut t = Sketch::with_context(&ctx, 7)?;
        t.add(1e-5)?;
        t.merge(&c)?;
        let mut u = Sketch::with_context(&ctx, 6)?;
        u.copy_from(&t)?;
        Ok(())
    });
    assert!(runs > 3, "only {} allocations exercised", runs);

    let runs = each_failure(&counts, || {
        let rec = Recorder::with_context(&ctx, 6)?;
        let mut a = rec.shard()?;
        a.add_many(&data)?;
        let mut b = rec.shard()?;
        b.add(1e9)?;
        let mut snap = Sketch::with_context(&ctx, 6)?;
        rec.snapshot_into(&mut snap)?;
        assert_eq!(snap.count(), data.len() as u64 + 1);
        Ok(())
    });
    assert!(runs > 3);

    each_failure(&counts, || {
        let mut sc = Scorecard::with_context(&ctx, Scenario::Custom)?;
        for i in 0..20 {
            sc.add_metric(
                Layer::Business,
                &format!("metric_{}", i),
                Direction::HigherIsBetter,
                1.0,
                0.0,
                1.0,
            )?;
        }
        let _m = LiiMonitor::with_context(&ctx, 1000)?;
        Ok(())
    });

    // Every other handle type: constructed, used and dropped with each allocation failing.
    let s = 1_000_000_000u64;
    let runs = each_failure(&counts, || {
        let mut w = Window::with_options(Some(&ctx), s, 8, 6)?;
        w.add_many(s, &data)?;
        let _snap = w.snapshot(s, 8 * s)?;
        let mut r = RatioWindow::with_context(&ctx, s, 8)?;
        r.add(s, 1, 2)?;
        let mut d = SpikeDetector::with_context(&ctx)?;
        d.set_u64(SpikeU64::Slots, 10)?;
        d.observe(s, 0.1)?;
        let mut c = CollapseDetector::with_context(&ctx)?;
        c.set_u64(CollapseU64::Window, 16)?;
        c.observe(s, 0.1)?;
        let mut log = EventLog::with_context(&ctx, 64)?;
        log.add(s, EventType::GC_PAUSE, 1.0)?;
        correlation_in(Some(&ctx), &data[..50], &data[50..100], CorrelationMethod::Spearman)?;
        let _g = StabilityGate::with_context(&ctx)?;
        let mut sat = SaturationSignal::with_context(&ctx)?;
        sat.set_window(128)?;
        let mut sw = SloWindow::with_context(&ctx, s, 8, 6)?;
        sw.add(s, 0.1)?;
        let _gp = Goodput::with_context(&ctx)?;
        let _b = BurnAlerter::with_context(&ctx, 0.999, 0, 0)?;
        let _t = ErrorTrigger::with_context(&ctx, 0)?;
        let _k = KvHitTracker::with_context(&ctx, 0)?;
        let _m = TlbMonitor::new_in(Some(&ctx), TlbWorkload::OltpDatabase)?;
        let mut pw = PromWriter::with_context(&ctx, PromFormat::Protobuf)?;
        pw.family("lat", None, PromType::NativeHistogram, &[])?;
        let mut sk = Sketch::with_context(&ctx, 6)?;
        sk.add_many(&data)?;
        pw.sketch(None, &sk, 1.0)?;
        pw.finish()?;
        let earlier = sk.try_clone()?;
        sk.add(1.0)?;
        let o = OtlpOptions { temporality: OtlpTemporality::Delta, ..OtlpOptions::default() };
        otlp_json_point(&sk, Some(&earlier), &o)?;
        let bytes = sk.to_bytes()?;
        Sketch::from_bytes_with_context(&ctx, &bytes)?;
        Ok(())
    });
    assert!(runs > 30, "only {} allocations exercised", runs);

    counts.fail_nth(1);
    let e = Context::with_allocator(Counting(counts.clone())).unwrap_err();
    counts.fail_nth(0);
    assert_eq!(e.kind(), ErrorKind::NoMem);
}

#[test]
fn libc_context_and_the_rust_allocator_work() {
    let ctx = Context::new().unwrap();
    let mut s = Sketch::with_context(&ctx, 6).unwrap();
    s.add(1.0).unwrap();
    let ctx = Context::with_allocator(RustAllocator).unwrap();
    let mut t = Sketch::with_context(&ctx, 6).unwrap();
    t.add_many(&lognormal_data(3, 5000, 1.0, 5.0)).unwrap();
    t.merge(&s).unwrap();
    assert_eq!(t.count(), 5001);
    let ctx2 = ctx.clone();
    assert_eq!(ctx2.as_ptr(), ctx.as_ptr());
    assert!(format!("{:?}", ctx).starts_with("Context"));
}
