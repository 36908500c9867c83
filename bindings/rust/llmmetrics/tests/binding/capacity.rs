//! Capacity formulas against the reference values of doc/spec.md §3 / capacity.h.

use llmmetrics::*;

fn close(got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol, "got {} want {}", got, want);
}

#[test]
fn roofline_and_decay_reference_values() {
    let a100 = roofline(312e12, 2039e9, 16.0).unwrap();
    close(a100, 32.624e12, 1.0);
    close(decay_rate(a100, 312e12).unwrap(), 0.89544, 1e-5);
    assert_eq!(roofline(312e12, 2039e9, 1e6).unwrap(), 312e12);
    close(roofline_critical_intensity(312e12, 2039e9).unwrap(), 153.0, 0.05);
    close(roofline_critical_intensity(756e12, 4000e9).unwrap(), 189.0, 1e-12);
    assert_eq!(arithmetic_intensity(2048.0, 128.0).unwrap(), 16.0);
    assert_eq!(decay_rate(100.0, 100.0).unwrap(), 0.0);
    assert!(decay_rate(120.0, 100.0).unwrap() < 0.0);
    for e in [
        decay_rate(-1.0, 1.0),
        decay_rate(1.0, 0.0),
        roofline(f64::NAN, 1.0, 1.0),
        arithmetic_intensity(1.0, 0.0),
    ] {
        assert_eq!(e.unwrap_err().kind(), ErrorKind::Invalid);
    }
}

#[test]
fn scaling_comm_and_seqlen_reference_values() {
    close(scaling_decay(184.0, 172.0).unwrap(), 0.0652, 5e-5);
    close(scaling_decay(368.0, 329.0).unwrap(), 0.1060, 5e-5);
    close(scaling_decay(736.0, 612.0).unwrap(), 0.1685, 5e-5);
    assert_eq!(
        scaling_decay_devices(92.0, 2, 172.0).unwrap(),
        scaling_decay(184.0, 172.0).unwrap()
    );
    assert_eq!(scaling_decay_devices(92.0, 0, 172.0).unwrap_err().kind(), ErrorKind::Invalid);
    close(comm_share(0.82, 3.5).unwrap(), 0.2343, 5e-5);
    assert_eq!(comm_share(4.0, 3.5).unwrap_err().kind(), ErrorKind::Invalid);
    close(seqlen_decay(1127.0, 693.0).unwrap(), 0.3851, 5e-5);
    close(seqlen_decay(1210.0, 1056.0).unwrap(), 0.1273, 5e-5);
    close(seqlen_decay(612.0, 341.0).unwrap(), 0.4428, 5e-5);
}

#[test]
fn littles_law_reference_values() {
    assert_eq!(LITTLES_LAW_SAFETY_DEFAULT, 0.85);
    for (p999, want) in [(150.0, 255.0), (200.0, 191.25), (250.0, 153.0)] {
        close(littles_law_tps(p999, 45.0, 0.0).unwrap(), want, 1e-9);
        close(littles_law_tps(p999, 45.0, 0.85).unwrap(), want, 1e-9);
    }
    assert_eq!(littles_law_tps(1000.0, 0.0, 1.0).unwrap(), 1.0); // the floor of 1
    assert_eq!(littles_law_tps(200.0, 45.0, 1.5).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(littles_law_tps(200.0, 45.0, -0.5).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(littles_law_tps(0.0, 45.0, 0.0).unwrap_err().kind(), ErrorKind::Invalid);
}
