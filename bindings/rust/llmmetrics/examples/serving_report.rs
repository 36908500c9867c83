//! A complete program on the safe API: worker threads record request latencies into a
//! `Recorder`, one thread each through its own `Shard`; then the percentiles are read, checked
//! against the exact sorted values, tested against an SLO, exported as Prometheus text, and a
//! load sweep is searched for its knee.
//!
//! Run it from the repository (see the crate README for linking):
//!
//! ```sh
//! PKG_CONFIG_PATH=$PWD/build/meson-uninstalled LD_LIBRARY_PATH=$PWD/build/lib \
//!     cargo run --offline --manifest-path bindings/rust/Cargo.toml --example serving_report
//! ```
//!
//! It exits with status 1 if a figure is not what the library promises.

use std::error::Error as StdError;
use std::thread;

use llmmetrics::{knee_report, prometheus_text, relative_error, slo_check, KneeOptions, Recorder};

/// A deterministic stand-in for measured latencies: 1 ms … 2 s, log-uniformly spread.
fn latencies(worker: usize, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let u = ((i * 7919 + worker * 104_729) % n) as f64 / n as f64;
            0.001 * 2000f64.powf(u)
        })
        .collect()
}

fn main() -> Result<(), Box<dyn StdError>> {
    // 1. Four workers record 25 000 latencies each into one recorder.
    let recorder = Recorder::new()?;
    thread::scope(|s| -> Result<(), llmmetrics::Error> {
        let workers: Vec<_> = (0..4)
            .map(|w| {
                let recorder = &recorder;
                s.spawn(move || -> Result<(), llmmetrics::Error> {
                    let mut shard = recorder.shard()?; // lock-free recording from here on
                    for v in latencies(w, 25_000) {
                        shard.add(v)?;
                    }
                    Ok(())
                })
            })
            .collect();
        for w in workers {
            w.join().expect("worker panicked")?;
        }
        Ok(())
    })?;

    // 2. Percentiles of everything recorded, against the exact nearest-rank values.
    let all = recorder.snapshot()?;
    let mut exact: Vec<f64> = (0..4).flat_map(|w| latencies(w, 25_000)).collect();
    exact.sort_by(f64::total_cmp);
    let qs = [0.5, 0.9, 0.99, 0.999];
    let got = all.quantiles(&qs)?;
    println!("{} requests", all.count());
    for (q, v) in qs.iter().zip(&got) {
        let want = exact[((q * exact.len() as f64).ceil() as usize).max(1) - 1];
        let err = (v / want - 1.0).abs();
        println!(
            "p{:<5} {:9.6} s  (exact {:9.6} s, error {:.3} %)",
            q * 100.0,
            v,
            want,
            100.0 * err
        );
        if err > relative_error(all.scale()) {
            eprintln!("p{} is off by more than the sketch's relative error", q * 100.0);
            std::process::exit(1);
        }
    }

    // 3. An SLO: P95 under 1.5 s with at most 1 % errors (120 failed requests).
    let slo = slo_check(&all, 120, 1.5, 0.01)?;
    println!(
        "SLO P95 <= 1.5 s, errors <= 1 %: {} (P95 {:.3} s, error rate {:.4})",
        if slo.satisfied { "met" } else { "missed" },
        slo.latency,
        slo.error_rate
    );

    // 4. The Prometheus exposition of the histogram (first and last lines).
    let text = prometheus_text(&all, "request_latency_seconds", Some("model=\"demo\""), 1.0)?;
    let lines: Vec<&str> = text.lines().collect();
    println!("{}\n...\n{}", lines[..3].join("\n"), lines[lines.len() - 2..].join("\n"));

    // 5. The knee of a load sweep (throughput by concurrency, Universal Scalability Law shape).
    let conc: Vec<f64> = (1..=64).map(f64::from).collect();
    let qps: Vec<f64> = conc
        .iter()
        .map(|n| 900.0 * n / (1.0 + 0.03 * (n - 1.0) + 0.0004 * n * (n - 1.0)))
        .collect();
    let report = knee_report(&conc, &qps, &KneeOptions::default())?;
    println!(
        "knees: inflection {:.1}, collapse {:.1}, kneedle {:.1}; USL sigma {:.4} kappa {:.5}",
        report.inflection.knee,
        report.collapse.knee,
        report.kneedle.knee,
        report.usl.sigma,
        report.usl.kappa
    );
    if (report.usl.sigma - 0.03).abs() > 1e-3 || (report.usl.kappa - 0.0004).abs() > 1e-5 {
        eprintln!("the USL fit did not recover the sweep's parameters");
        std::process::exit(1);
    }
    Ok(())
}
