//! The sketch against exact nearest-rank references and against the C library on the same data.

use llmmetrics::*;

use crate::support::*;

#[test]
fn quantiles_within_the_guaranteed_error_of_the_exact_ranks() {
    let alpha = relative_error(SCALE_DEFAULT);
    assert!((alpha - 0.005415).abs() < 1e-6 && alpha < 0.00542);
    for (seed, sigma) in [(1u64, 1.0), (2, 2.0)] {
        let data = lognormal_data(seed, 20_000, 0.2, sigma);
        let exact = sorted(&data);
        let mut s = Sketch::new().unwrap();
        s.add_many(&data).unwrap();
        assert_eq!(s.count(), data.len() as u64);
        assert_eq!(s.min().unwrap(), exact[0]);
        assert_eq!(s.max().unwrap(), exact[exact.len() - 1]);
        let got = s.quantiles(&QS).unwrap();
        for (i, &q) in QS.iter().enumerate() {
            let want = exact_quantile(&exact, q);
            assert_rel(got[i], want, alpha * (1.0 + 1e-12), &format!("sigma {} q {}", sigma, q));
            assert_eq!(s.quantile(q).unwrap(), got[i]);
        }
        let naive: f64 = data.iter().sum();
        assert_rel(s.sum(), naive, 1e-12, "sum");
        assert_rel(s.mean().unwrap(), naive / data.len() as f64, 1e-12, "mean");
    }
}

#[test]
fn rank_rule_is_nearest_rank_with_tolerance() {
    // 100 distinct values 1..=100: 0.07·100 is rank 7 (not 8), 0.071·100 is rank 8.
    let mut s = Sketch::new().unwrap();
    let v: Vec<f64> = (1..=100).map(f64::from).collect();
    s.add_many(&v).unwrap();
    let alpha = relative_error(SCALE_DEFAULT);
    assert_rel(s.quantile(0.07).unwrap(), 7.0, alpha, "q 0.07");
    assert_rel(s.quantile(0.071).unwrap(), 8.0, alpha, "q 0.071");
    assert_eq!(s.quantile(0.0).unwrap(), 1.0);
    assert_eq!(s.quantile(0.01).unwrap(), 1.0);
    assert_eq!(s.quantile(1.0).unwrap(), 100.0);
    // rank: every value of the bucket of v counts as <= v; exact below min and at max.
    assert_eq!(s.rank(0.5).unwrap(), 0.0);
    assert_eq!(s.rank(100.0).unwrap(), 1.0);
    assert_eq!(s.rank(50.0).unwrap(), 0.5);
}

#[test]
fn safe_results_equal_the_c_library_bit_for_bit() {
    let data = lognormal_data(7, 5_000, 0.2, 1.5);
    for scale in [0, 3, SCALE_DEFAULT, SCALE_MAX] {
        let mut s = Sketch::with_scale(scale).unwrap();
        s.add_many(&data).unwrap();
        let mut raw = RawSketch::new(scale);
        raw.add_each(&data);
        assert_eq!(s.count(), raw.count());
        assert_eq!(s.sum().to_bits(), raw.sum().to_bits());
        assert_eq!(s.scale(), scale);
        for &q in QS.iter() {
            assert_eq!(
                s.quantile(q).unwrap().to_bits(),
                raw.quantile(q).to_bits(),
                "scale {} q {}",
                scale,
                q
            );
        }
        let span = s.bucket_span().unwrap();
        assert_eq!(span, raw.span());
        let mut total = 0;
        for (i, c) in s.buckets() {
            assert_eq!(c, raw.bucket(i));
            assert!(i >= span.0 && i <= span.1);
            total += c;
        }
        assert_eq!(total, s.count());
        for i in span.0..=span.1 {
            assert_eq!(s.bucket_count(i), raw.bucket(i));
        }
    }
}

#[test]
fn bucket_index_and_bounds_agree() {
    let mut rng = Rng::new(3);
    for _ in 0..2000 {
        let v = rng.lognormal(1.0, 8.0);
        for scale in [0, 6, 10] {
            let i = bucket_index(scale, v).unwrap();
            let (lo, hi) = bucket_bounds(scale, i).unwrap();
            assert!(
                lo < v && v <= hi * (1.0 + 1e-15),
                "{} not in ({}, {}] at scale {}",
                v,
                lo,
                hi,
                scale
            );
        }
    }
    // Exact powers of two belong to the lower bucket.
    assert_eq!(bucket_index(0, 4.0).unwrap(), 1);
    assert_eq!(bucket_index(0, 4.000000000000001).unwrap(), 2);
    assert_eq!(bucket_bounds(0, 1).unwrap(), (2.0, 4.0));
    assert_eq!(bucket_index(11, 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(bucket_index(6, 0.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(bucket_bounds(0, 5000).unwrap_err().kind(), ErrorKind::Range);
}

#[test]
fn invalid_input_changes_nothing() {
    let mut s = Sketch::new().unwrap();
    s.add_many(&[1.0, 2.0]).unwrap();
    for bad in [f64::NAN, f64::INFINITY, -1.0, -0.5e-300] {
        assert_eq!(s.add(bad).unwrap_err().kind(), ErrorKind::Invalid);
        assert_eq!(s.add_n(bad, 3).unwrap_err().kind(), ErrorKind::Invalid);
        assert_eq!(s.add_many(&[3.0, bad]).unwrap_err().kind(), ErrorKind::Invalid);
    }
    assert_eq!(s.count(), 2);
    assert_eq!(s.sum(), 3.0);
    assert_eq!(s.quantile(1.5).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(s.quantile(f64::NAN).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(s.quantiles(&[0.5, -0.1]).unwrap_err().kind(), ErrorKind::Invalid);
    let mut out = [0.0; 1];
    assert_eq!(s.quantiles_into(&[0.5, 0.9], &mut out).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(s.rank(f64::NAN).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(s.set_range(1e-6, 1e6).unwrap_err().kind(), ErrorKind::State);
    assert_eq!(s.downscale(7).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(Sketch::with_scale(-1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(Sketch::with_scale(SCALE_MAX + 1).unwrap_err().kind(), ErrorKind::Invalid);
    s.add_many(&[]).unwrap();
    assert_eq!(s.count(), 2);
}

#[test]
fn empty_sketch_reports_empty() {
    let s = Sketch::new().unwrap();
    assert!(s.is_empty());
    assert_eq!(s.sum(), 0.0);
    for e in [s.quantile(0.5), s.min(), s.max(), s.mean(), s.rank(1.0)] {
        assert_eq!(e.unwrap_err().kind(), ErrorKind::Empty);
    }
    assert_eq!(s.bucket_span().unwrap_err().kind(), ErrorKind::Empty);
    assert_eq!(s.buckets().count(), 0);
    assert_eq!(s.range(), (RANGE_MIN_DEFAULT, RANGE_MAX_DEFAULT));
}

#[test]
fn range_and_special_counts() {
    let mut s = Sketch::new().unwrap();
    assert_eq!(s.set_range(2.0, 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(s.set_range(0.0, 1.0).unwrap_err().kind(), ErrorKind::Invalid);
    s.set_range(1e-3, 1e3).unwrap();
    assert_eq!(s.range(), (1e-3, 1e3));
    s.add_many(&[0.0, 0.0, 1e-6, 5.0, 1e6, 2e6, 3e6]).unwrap();
    assert_eq!(s.special_counts(), SpecialCounts { zero: 2, under: 1, over: 3 });
    assert_eq!(s.count(), 7);
    assert_eq!(s.min().unwrap(), 0.0);
    assert_eq!(s.max().unwrap(), 3e6);
    // Nothing is dropped: the top rank is the exact maximum.
    assert_eq!(s.quantile(1.0).unwrap(), 3e6);
}

#[test]
fn add_n_equals_repeated_add() {
    let mut a = Sketch::new().unwrap();
    let mut b = Sketch::new().unwrap();
    a.add_n(0.125, 1000).unwrap();
    for _ in 0..1000 {
        b.add(0.125).unwrap();
    }
    assert_eq!(a.count(), b.count());
    assert_eq!(a.sum(), b.sum());
    assert_eq!(a.buckets().collect::<Vec<_>>(), b.buckets().collect::<Vec<_>>());
    a.add_n(0.5, 0).unwrap();
    assert_eq!(a.count(), 1000);
    assert_eq!(a.add_n(1.0, u64::MAX).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(a.count(), 1000);
}

#[test]
fn merge_is_exact_and_subtract_inverts_it() {
    let data = lognormal_data(11, 6_000, 0.2, 1.0);
    let (left, right) = data.split_at(2_500);
    let mut whole = Sketch::new().unwrap();
    whole.add_many(&data).unwrap();
    let mut a = Sketch::new().unwrap();
    a.add_many(left).unwrap();
    let mut b = Sketch::new().unwrap();
    b.add_many(right).unwrap();
    let a_before = a.clone();
    a.merge(&b).unwrap();
    assert_eq!(a.count(), whole.count());
    assert_eq!(a.buckets().collect::<Vec<_>>(), whole.buckets().collect::<Vec<_>>());
    assert_eq!(a.quantiles(&QS).unwrap(), whole.quantiles(&QS).unwrap());
    assert_rel(a.sum(), whole.sum(), 1e-12, "merged sum");
    // The interval since `a_before` is exactly `b`'s counts.
    a.subtract(&a_before).unwrap();
    assert_eq!(a.count(), b.count());
    assert_eq!(a.buckets().collect::<Vec<_>>(), b.buckets().collect::<Vec<_>>());
    // An earlier snapshot that is not contained is refused, leaving the sketch unchanged.
    assert_eq!(b.subtract(&whole).unwrap_err().kind(), ErrorKind::State);
    assert_eq!(b.count(), right.len() as u64);
}

#[test]
fn merge_across_scales_takes_the_coarser_one() {
    let data = lognormal_data(5, 3_000, 0.2, 1.0);
    let mut fine = Sketch::with_scale(8).unwrap();
    fine.add_many(&data).unwrap();
    let mut coarse = Sketch::with_scale(4).unwrap();
    coarse.add_many(&data).unwrap();
    let mut merged = Sketch::with_scale(4).unwrap();
    merged.merge(&fine).unwrap();
    assert_eq!(merged.scale(), 4);
    assert_eq!(merged.buckets().collect::<Vec<_>>(), coarse.buckets().collect::<Vec<_>>());
    let mut down = fine.clone();
    down.downscale(4).unwrap();
    assert_eq!(down.scale(), 4);
    assert_eq!(down.buckets().collect::<Vec<_>>(), coarse.buckets().collect::<Vec<_>>());
    let exact = sorted(&data);
    for &q in QS.iter() {
        assert_rel(
            down.quantile(q).unwrap(),
            exact_quantile(&exact, q),
            relative_error(4),
            "downscaled",
        );
    }
}

#[test]
fn clone_copy_and_reset() {
    let data = lognormal_data(9, 1_000, 0.2, 1.0);
    let mut s = Sketch::with_scale(5).unwrap();
    s.set_range(1e-4, 1e4).unwrap();
    s.add_many(&data).unwrap();
    let c = s.clone();
    assert_eq!(c.scale(), 5);
    assert_eq!(c.range(), (1e-4, 1e4));
    assert_eq!(c.count(), s.count());
    assert_eq!(c.sum().to_bits(), s.sum().to_bits());
    assert_eq!(c.quantiles(&QS).unwrap(), s.quantiles(&QS).unwrap());
    // The clone is independent.
    s.add(1.0).unwrap();
    assert_eq!(c.count() + 1, s.count());
    let mut other = Sketch::new().unwrap();
    other.clone_from(&c);
    assert_eq!(other.scale(), 5);
    assert_eq!(other.buckets().collect::<Vec<_>>(), c.buckets().collect::<Vec<_>>());
    let mut t = c.try_clone().unwrap();
    t.reset().unwrap();
    assert!(t.is_empty());
    assert_eq!(t.scale(), 5);
    assert_eq!(t.range(), (1e-4, 1e4));
    assert_eq!(c.count(), data.len() as u64);
    let dbg = format!("{:?}", c);
    assert!(dbg.contains("count: 1000") && dbg.contains("scale: 5"), "{}", dbg);
}

#[test]
fn concurrent_readers_share_one_sketch() {
    let data = lognormal_data(13, 10_000, 0.2, 1.0);
    let mut s = Sketch::new().unwrap();
    s.add_many(&data).unwrap();
    let want = s.quantiles(&QS).unwrap();
    let s = &s;
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..200 {
                    assert_eq!(s.quantiles(&QS).unwrap(), want);
                    let c = s.clone();
                    assert_eq!(c.count(), 10_000);
                }
            });
        }
    });
}
