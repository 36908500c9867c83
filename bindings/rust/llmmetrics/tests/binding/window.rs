//! Windows and ratio windows: slot arithmetic, expiry, exact spans, the clock rule.

use llmmetrics::*;

use crate::support::*;

const S: u64 = 1_000_000_000;

#[test]
fn spans_cover_whole_slots_and_old_slots_expire() {
    let mut w = Window::new(S, 10).unwrap();
    assert_eq!(w.geometry(), (S, 10));
    assert_eq!(
        Window::new(0, 0).unwrap().geometry(),
        (WINDOW_SLOT_NS_DEFAULT, WINDOW_SLOTS_DEFAULT)
    );
    let mut per_slot = Vec::new();
    for k in 0..15u64 {
        let data = lognormal_data(100 + k, 50 + k as usize, 0.2, 1.0);
        w.add_many(k * S + S / 2, &data).unwrap();
        per_slot.push(data);
    }
    let now = 14 * S + S / 2;
    // A span of 1.5 slots rounds up to 2: slots 13 and 14.
    assert_eq!(w.count(now, S + S / 2).unwrap(), (per_slot[13].len() + per_slot[14].len()) as u64);
    // The whole ring: slots 5 ..= 14.
    let all: Vec<f64> = per_slot[5..].concat();
    assert_eq!(w.count(now, 10 * S).unwrap(), all.len() as u64);
    let exact = sorted(&all);
    let got = w.quantiles(now, 10 * S, &QS).unwrap();
    for (i, &q) in QS.iter().enumerate() {
        assert_rel(got[i], exact_quantile(&exact, q), relative_error(6), "window quantile");
        assert_eq!(w.quantile(now, 10 * S, q).unwrap(), got[i]);
    }
    // The snapshot is the exact merge of the covered slots.
    let snap = w.snapshot(now, 3 * S).unwrap();
    let mut merged = Sketch::new().unwrap();
    for d in &per_slot[12..] {
        merged.add_many(d).unwrap();
    }
    assert_eq!(snap.count(), merged.count());
    assert_eq!(snap.buckets().collect::<Vec<_>>(), merged.buckets().collect::<Vec<_>>());
    // Ten slots later everything has expired.
    assert_eq!(w.count(now + 10 * S, 10 * S).unwrap(), 0);
    assert_eq!(w.quantile(now + 10 * S, 10 * S, 0.5).unwrap_err().kind(), ErrorKind::Empty);
}

#[test]
fn the_clock_never_goes_backwards_and_bad_input_changes_nothing() {
    let mut w = Window::with_options(None, S, 4, 5).unwrap();
    w.add(10 * S, 1.0).unwrap();
    assert_eq!(w.add(9 * S, 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(w.add(10 * S, -1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(w.add_many(10 * S, &[1.0, f64::NAN]).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(w.count(10 * S, 0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(w.count(10 * S, 5 * S).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(w.count(10 * S, 4 * S).unwrap(), 1);
    let mut out = [0.0; 1];
    assert_eq!(
        w.quantiles_into(10 * S, S, &[0.5, 0.9], &mut out).unwrap_err().kind(),
        ErrorKind::Invalid
    );
    let mut into = Sketch::with_scale(2).unwrap();
    w.snapshot_into(10 * S, S, &mut into).unwrap();
    assert_eq!((into.scale(), into.count()), (5, 1));
    w.reset().unwrap();
    w.add(S, 2.0).unwrap(); // any time stamp is accepted after a reset
    assert_eq!(w.count(S, S).unwrap(), 1);
    assert_eq!(Window::new(S, WINDOW_SLOTS_MAX + 1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(Window::new(u64::MAX, 2).unwrap_err().kind(), ErrorKind::Invalid);
    assert!(format!("{:?}", w).contains("Window"));
}

#[test]
fn ratio_window_counts_events_over_spans() {
    let mut r = RatioWindow::new(S, 5).unwrap();
    for k in 0..8u64 {
        r.add(k * S, k, 10).unwrap();
    }
    let now = 7 * S;
    assert_eq!(r.counts(now, 2 * S).unwrap(), (6 + 7, 20));
    assert_eq!(r.counts(now, 5 * S).unwrap(), (3 + 4 + 5 + 6 + 7, 50));
    assert_eq!(r.ratio(now, S).unwrap(), 0.7);
    assert_eq!(r.add(now, 11, 10).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(r.add(now - 1, 0, 1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(r.ratio(now + 10 * S, 5 * S).unwrap_err().kind(), ErrorKind::Empty);
    r.reset().unwrap();
    r.add(0, 1, 4).unwrap();
    assert_eq!(r.ratio(0, S).unwrap(), 0.25);
    assert_eq!(r.counts(0, 6 * S).unwrap_err().kind(), ErrorKind::Range);
}
