//! The recorder: shards on several threads, snapshots while they write, intervals.

use llmmetrics::*;

use crate::support::*;

#[test]
fn shards_on_threads_sum_to_one_sketch() {
    let data = lognormal_data(21, 40_000, 0.2, 1.0);
    let rec = Recorder::new().unwrap();
    std::thread::scope(|scope| {
        for (t, part) in data.chunks(10_000).enumerate() {
            let mut shard = rec.shard().unwrap();
            scope.spawn(move || {
                if t % 2 == 0 {
                    part.iter().for_each(|&v| shard.add(v).unwrap());
                } else {
                    part.chunks(333).for_each(|c| shard.add_many(c).unwrap());
                }
            });
        }
    });
    let snap = rec.snapshot().unwrap();
    let mut whole = RawSketch::new(SCALE_DEFAULT);
    whole.add_each(&data);
    assert_eq!(snap.count(), whole.count());
    let (lo, hi) = whole.span();
    assert_eq!(snap.bucket_span().unwrap(), (lo, hi));
    for i in lo..=hi {
        assert_eq!(snap.bucket_count(i), whole.bucket(i), "bucket {}", i);
    }
    for &q in QS.iter() {
        assert_eq!(snap.quantile(q).unwrap(), whole.quantile(q), "q {}", q);
    }
    assert_rel(snap.sum(), whole.sum(), 1e-12, "sum");
    let exact = sorted(&data);
    for &q in QS.iter() {
        assert_rel(
            snap.quantile(q).unwrap(),
            exact_quantile(&exact, q),
            relative_error(6),
            "exact",
        );
    }
}

#[test]
fn snapshots_while_writers_run_are_consistent() {
    let rec = Recorder::with_scale(5).unwrap();
    let per_writer = 50_000u64;
    std::thread::scope(|scope| {
        for t in 0..2 {
            let mut shard = rec.shard().unwrap();
            scope.spawn(move || {
                let mut rng = Rng::new(100 + t);
                for _ in 0..per_writer {
                    shard.add(rng.lognormal(0.2, 1.0)).unwrap();
                }
            });
        }
        let mut snap = Sketch::new().unwrap();
        let mut last = 0;
        for _ in 0..50 {
            rec.snapshot_into(&mut snap).unwrap();
            let n = snap.count();
            assert!(n >= last && n <= 2 * per_writer);
            // The snapshot's count is exactly the sum of the counts it read.
            let buckets: u64 = snap.buckets().map(|(_, c)| c).sum();
            let sc = snap.special_counts();
            assert_eq!(buckets + sc.zero + sc.under + sc.over, n);
            last = n;
        }
    });
    let total = rec.snapshot().unwrap();
    assert_eq!(total.count(), 2 * per_writer);
    assert_eq!(total.scale(), 5);
}

#[test]
fn released_shards_keep_their_counts_and_are_reused() {
    let mut rec = Recorder::new().unwrap();
    rec.set_range(1e-6, 1e6).unwrap();
    {
        let mut a = rec.shard().unwrap();
        a.add_many(&[1.0, 2.0, 3.0]).unwrap();
        a.release();
        let mut b = rec.shard().unwrap();
        b.add(4.0).unwrap();
        assert_eq!(b.add(f64::NAN).unwrap_err().kind(), ErrorKind::Invalid);
        assert_eq!(b.add_many(&[5.0, -1.0]).unwrap_err().kind(), ErrorKind::Invalid);
    }
    let snap = rec.snapshot().unwrap();
    assert_eq!(snap.count(), 4);
    assert_eq!(snap.sum(), 10.0);
    assert_eq!(snap.range(), (1e-6, 1e6));
    // Too late to change the range once a shard was handed out, even if released.
    assert_eq!(rec.set_range(1e-3, 1e3).unwrap_err().kind(), ErrorKind::State);
    assert_eq!(Recorder::with_scale(11).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn two_snapshots_give_the_interval() {
    let rec = Recorder::new().unwrap();
    let mut shard = rec.shard().unwrap();
    let first = lognormal_data(31, 1_000, 0.2, 1.0);
    let second = lognormal_data(32, 1_500, 0.2, 1.0);
    shard.add_many(&first).unwrap();
    let before = rec.snapshot().unwrap();
    shard.add_many(&second).unwrap();
    let mut interval = rec.snapshot().unwrap();
    interval.subtract(&before).unwrap();
    let mut want = Sketch::new().unwrap();
    want.add_many(&second).unwrap();
    assert_eq!(interval.count(), want.count());
    assert_eq!(interval.buckets().collect::<Vec<_>>(), want.buckets().collect::<Vec<_>>());
}
