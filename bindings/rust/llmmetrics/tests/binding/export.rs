//! Exporters: the same bytes as the C library, and the content the formats require.

use std::ffi::CString;
use std::ptr;

use llmmetrics::sys;
use llmmetrics::*;

use crate::support::*;

fn raw_text(s: &Sketch, name: &str, labels: &str, unit: f64) -> Vec<u8> {
    let (name, labels) = (CString::new(name).unwrap(), CString::new(labels).unwrap());
    // Asked first without a buffer for the length, then at that length.
    let text = |buf: *mut u8, cap: usize, len: &mut usize| unsafe {
        sys::llmm_export_prometheus_text(
            s.as_ptr(),
            name.as_ptr(),
            labels.as_ptr(),
            unit,
            buf,
            cap,
            len,
        )
    };
    let mut len = 0usize;
    assert_eq!(text(ptr::null_mut(), 0, &mut len), sys::LLMM_E_BUFFER);
    let mut buf = vec![0u8; len];
    assert_eq!(text(buf.as_mut_ptr(), len, &mut len), 0);
    buf.truncate(len);
    buf
}

#[test]
fn prometheus_text_equals_the_c_output_and_counts_exactly() {
    let data = lognormal_data(61, 5_000, 200.0, 1.0); // milliseconds
    let mut s = Sketch::new().unwrap();
    s.add_many(&data).unwrap();
    let text = prometheus_text(&s, "llm_e2e_seconds", Some("model=\"a\""), 1e-3).unwrap();
    assert_eq!(text.as_bytes(), &raw_text(&s, "llm_e2e_seconds", "model=\"a\"", 1e-3)[..]);
    assert!(text.starts_with("# HELP llm_e2e_seconds"));
    assert!(text.contains(&format!("llm_e2e_seconds_count{{model=\"a\"}} {}\n", data.len())));
    assert!(text
        .contains(&format!("llm_e2e_seconds_bucket{{model=\"a\",le=\"+Inf\"}} {}\n", data.len())));
    // Cumulative counts never decrease.
    let mut last = 0u64;
    for line in text.lines().filter(|l| l.starts_with("llm_e2e_seconds_bucket")) {
        let n: u64 = line.rsplit(' ').next().unwrap().parse().unwrap();
        assert!(n >= last, "{}", line);
        last = n;
    }
    let long = "x".repeat(100_000);
    let big = prometheus_text(&s, "m", Some(&format!("l=\"{}\"", long)), 1.0).unwrap();
    assert!(big.len() > 100_000, "the buffer grows as needed");
    for (name, labels) in
        [("bad name", None), ("m", Some("le=\"1\"")), ("m", Some("a=b")), ("m", Some("a=\"\0\""))]
    {
        assert_eq!(
            prometheus_text(&s, name, labels, 1.0).unwrap_err().kind(),
            ErrorKind::Invalid,
            "{:?}",
            (name, labels)
        );
    }
    assert_eq!(prometheus_text(&s, "m", None, 0.0).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn writer_text_and_protobuf() {
    let mut s = Sketch::new().unwrap();
    s.add_many(&[0.004, 0.02, 0.02, 0.3, 1.5]).unwrap();
    let bounds = prom_buckets(BucketList::VllmTtft).unwrap();
    let mut w = PromWriter::new(PromFormat::Text).unwrap();
    w.family("ttft_seconds", Some("Time to first token."), PromType::Histogram, &bounds).unwrap();
    w.sketch(Some("model=\"m\""), &s, 1.0).unwrap();
    w.family("up", None, PromType::Gauge, &[]).unwrap();
    w.value(None, 1.0).unwrap();
    assert_eq!(w.value(None, f64::NAN).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(w.sketch(None, &s, 1.0).unwrap_err().kind(), ErrorKind::State);
    assert_eq!(w.family("up", None, PromType::Gauge, &[]).unwrap_err().kind(), ErrorKind::State);
    let out = String::from_utf8(w.finish().unwrap()).unwrap();
    assert_eq!(w.data().unwrap(), out.as_bytes());
    assert!(out.contains("ttft_seconds_bucket{model=\"m\",le=\"+Inf\"} 5"), "{}", out);
    assert!(out.contains("ttft_seconds_count{model=\"m\"} 5"));
    assert!(out.contains("# TYPE up gauge\nup 1"));
    // Bounds that are sketch-bucket bounds (powers of two) count exactly: 0.03125 = 2^-5.
    w.reset(PromFormat::Text).unwrap();
    w.family("h", None, PromType::Histogram, &[0.03125, 1.0]).unwrap();
    w.sketch(None, &s, 1.0).unwrap();
    let out = String::from_utf8(w.finish().unwrap()).unwrap();
    assert!(
        out.contains("h_bucket{le=\"0.03125\"} 3\n") && out.contains("h_bucket{le=\"1.0\"} 4\n"),
        "{}",
        out
    );

    w.reset(PromFormat::Protobuf).unwrap();
    w.family("lat", None, PromType::NativeHistogram, &[]).unwrap();
    w.sketch(None, &s, 1.0).unwrap();
    let pb = w.finish().unwrap();
    assert!(pb.len() > 20);
    assert!(pb.windows(3).any(|x| x == b"lat"));
    assert_eq!(w.data().unwrap(), &pb[..]);
}

/// The finite `le` bounds and counts of family `name` in a text exposition.
fn classic_rows(text: &str, name: &str) -> Vec<(f64, u64)> {
    let prefix = format!("{}_bucket{{le=\"", name);
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter(|l| !l.starts_with("+Inf"))
        .map(|l| {
            let (le, n) = l.split_once("\"} ").unwrap();
            (le.parse().unwrap(), n.parse().unwrap())
        })
        .collect()
}

#[test]
fn writer_bounded_classic_fallback() {
    // 600 values over six decades: hundreds of touched buckets
    let data: Vec<f64> = (0..600).map(|k| 1e-3 * 10f64.powf(6.0 * k as f64 / 599.0)).collect();
    let mut s = Sketch::new().unwrap();
    s.add_many(&data).unwrap();
    let mut w = PromWriter::new(PromFormat::Text).unwrap();
    w.family("default_seconds", None, PromType::NativeHistogram, &[]).unwrap();
    w.sketch(None, &s, 1.0).unwrap();
    w.set_classic_list(BucketList::OtelGenaiTtft).unwrap();
    w.family("ttft_seconds", None, PromType::Histogram, &[]).unwrap();
    w.sketch(None, &s, 1.0).unwrap();
    w.set_classic_max(20).unwrap();
    w.family("grid_seconds", None, PromType::NativeHistogram, &[]).unwrap();
    w.sketch(None, &s, 1.0).unwrap();
    assert_eq!(w.set_classic_max(2).unwrap_err().kind(), ErrorKind::Invalid);
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    let default: Vec<f64> = classic_rows(&text, "default_seconds").iter().map(|r| r.0).collect();
    assert_eq!(default, prom_buckets(BucketList::OtelGenaiDuration).unwrap());
    assert_eq!(classic_rows(&text, "ttft_seconds").len(), 16);
    let grid = classic_rows(&text, "grid_seconds");
    assert!((3..=20).contains(&grid.len()), "{}", grid.len());
    for (le, n) in grid {
        assert_eq!(n, data.iter().filter(|&&v| v <= le).count() as u64, "le {}", le);
    }
}

#[test]
fn negotiation_buckets_and_escaping() {
    let (f, ct) = prom_negotiate(Some("text/plain;version=0.0.4")).unwrap();
    assert_eq!((f, ct), (PromFormat::Text, "text/plain; version=0.0.4; charset=utf-8"));
    assert_eq!(PromFormat::Text.content_type(), ct);
    assert!(PromFormat::Protobuf.content_type().starts_with("application/vnd.google.protobuf"));
    assert_eq!(prom_negotiate(Some("garbage;;;")).unwrap().0, PromFormat::Text);
    for (list, n) in [
        (BucketList::VllmTtft, 22),
        (BucketList::VllmInterToken, 19),
        (BucketList::VllmRequestLatency, 21),
        (BucketList::OtelGenaiDuration, 14),
        (BucketList::OtelGenaiTtft, 16),
        (BucketList::OtelGenaiTpot, 13),
        (BucketList::OtelGenaiTokens, 14),
    ] {
        let b = prom_buckets(list).unwrap();
        assert_eq!(b.len(), n, "{:?}", list);
        assert!(b.windows(2).all(|p| p[0] < p[1]));
    }
    assert_eq!(prom_buckets(BucketList::OtelGenaiTokens).unwrap()[13], 67108864.0);
    assert_eq!(prom_label_escape("plain").unwrap(), "plain");
    assert_eq!(prom_label_escape("q\"\\\n").unwrap(), "q\\\"\\\\\\n");
    assert_eq!(prom_label_escape("nul\0").unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn otlp_points_and_requests() {
    let mut before = Sketch::new().unwrap();
    before.add_many(&[0.5, 1.0]).unwrap();
    let mut now = before.clone();
    now.add_many(&[2.0, 4.0, 8.0]).unwrap();
    let o = OtlpOptions {
        start_time_unix_nano: 1_000,
        time_unix_nano: 2_000,
        temporality: OtlpTemporality::Delta,
        attributes: Some("gen_ai.request.model=\"m\""),
        ..OtlpOptions::default()
    };
    let delta = otlp_json_point(&now, Some(&before), &o).unwrap();
    assert!(delta.contains("\"count\":\"3\""), "{}", delta);
    assert!(delta.contains("\"startTimeUnixNano\":\"1000\""));
    assert!(delta.contains("gen_ai.request.model"));
    // Cumulative temporality refuses an earlier snapshot.
    let cumulative = OtlpOptions::default();
    assert_eq!(cumulative.temporality, OtlpTemporality::Cumulative);
    assert_eq!(
        otlp_json_point(&now, Some(&before), &cumulative).unwrap_err().kind(),
        ErrorKind::Invalid
    );
    assert_eq!(otlp_json_point(&before, Some(&now), &o).unwrap_err().kind(), ErrorKind::State);
    let small = OtlpOptions { max_buckets: 4, ..OtlpOptions::default() };
    let p = otlp_json_point(&now, None, &small).unwrap();
    assert!(p.contains("\"count\":\"5\""));
    let req = otlp_json(
        &now,
        None,
        "llm.latency",
        &OtlpOptions { description: Some("d"), ..OtlpOptions::default() },
    )
    .unwrap();
    assert!(
        req.contains("\"resourceMetrics\"") && req.contains("\"name\":\"llm.latency\""),
        "{}",
        req
    );
    assert!(req.contains("\"unit\":\"s\""));
    assert_eq!(
        otlp_json(&now, None, "", &OtlpOptions::default()).unwrap_err().kind(),
        ErrorKind::Invalid
    );
}
