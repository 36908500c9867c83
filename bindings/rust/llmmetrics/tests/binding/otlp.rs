//! OTLP requests: the safe crate's bytes equal the C library's on the same request built by
//! hand through `llmmetrics-sys`, and the JSON form carries the sketch's own figures.

use std::ffi::CString;
use std::ptr;

use llmmetrics::sys;
use llmmetrics::*;

use crate::support::*;

fn sized<T: Copy>(kind: sys::llmm_struct_kind) -> T {
    let mut v = std::mem::MaybeUninit::<T>::zeroed();
    let st = unsafe {
        sys::llmm_struct_init(kind, v.as_mut_ptr() as *mut _, std::mem::size_of::<T>() as u32)
    };
    assert_eq!(st, 0);
    unsafe { v.assume_init() }
}

/// The JSON number that follows `key` in `json`.
fn number_after(json: &str, key: &str) -> f64 {
    let rest = &json[json.find(key).expect(key) + key.len()..];
    let end = rest.find([',', '}']).unwrap();
    rest[..end].parse().unwrap()
}

#[test]
fn metrics_match_the_c_library_and_the_sketch() {
    let data = lognormal_data(44, 3000, 0.2, 1.0);
    let mut s = Sketch::new().unwrap();
    s.add_many(&data).unwrap();
    let ex = [OtlpExemplar {
        value: 0.5,
        time_unix_nano: 7,
        trace_id: [3; 16],
        span_id: [4; 8],
        attributes: Some("k=\"v\""),
    }];
    let points = [OtlpPoint {
        sketch: Some(&s),
        attributes: Some("outcome=\"ok\""),
        time_unix_nano: 99,
        exemplars: &ex,
        ..Default::default()
    }];
    let metrics = [OtlpMetric::new("ttft", OtlpMetricType::ExponentialHistogram, &points)];
    let scope = OtlpScope { resource_attributes: Some("service.name=\"r\""), ..Default::default() };
    let pb = otlp_metrics(&metrics, &scope, OtlpEncoding::Protobuf).unwrap();

    // the same request through the raw calls
    let (name, attrs, xattrs, res) = (
        CString::new("ttft").unwrap(),
        CString::new("outcome=\"ok\"").unwrap(),
        CString::new("k=\"v\"").unwrap(),
        CString::new("service.name=\"r\"").unwrap(),
    );
    let mut e: sys::llmm_otlp_exemplar = sized(sys::LLMM_STRUCT_OTLP_EXEMPLAR);
    e.value = 0.5;
    e.time_unix_nano = 7;
    e.trace_id = [3; 16];
    e.span_id = [4; 8];
    e.attributes = xattrs.as_ptr();
    let mut p: sys::llmm_otlp_point = sized(sys::LLMM_STRUCT_OTLP_POINT);
    p.sketch = s.as_ptr();
    p.attributes = attrs.as_ptr();
    p.time_unix_nano = 99;
    p.exemplars = &e;
    p.exemplar_count = 1;
    let mut m: sys::llmm_otlp_metric = sized(sys::LLMM_STRUCT_OTLP_METRIC);
    m.name = name.as_ptr();
    m.r#type = sys::LLMM_OTLP_EXPONENTIAL_HISTOGRAM;
    m.points = &p;
    m.point_count = 1;
    let mut r: sys::llmm_otlp_metrics_request = sized(sys::LLMM_STRUCT_OTLP_METRICS_REQUEST);
    r.resource_attributes = res.as_ptr();
    r.metrics = &m;
    r.metric_count = 1;
    let mut len = 0usize;
    let st = unsafe {
        sys::llmm_export_otlp_metrics(&r, sys::LLMM_OTLP_PROTOBUF, ptr::null_mut(), 0, &mut len)
    };
    assert_eq!(st, sys::LLMM_E_BUFFER);
    let mut raw = vec![0u8; len];
    let st = unsafe {
        sys::llmm_export_otlp_metrics(&r, sys::LLMM_OTLP_PROTOBUF, raw.as_mut_ptr(), len, &mut len)
    };
    assert_eq!(st, 0);
    assert_eq!(pb, raw);

    // the JSON form: count, min, max, exemplar ids as hex
    let json =
        String::from_utf8(otlp_metrics(&metrics, &scope, OtlpEncoding::Json).unwrap()).unwrap();
    assert!(json.contains(&format!("\"count\":\"{}\"", data.len())), "{json}");
    let min = data.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = data.iter().cloned().fold(0.0, f64::max);
    assert_eq!(number_after(&json, "\"min\":"), min);
    assert_eq!(number_after(&json, "\"max\":"), max);
    assert!(json.contains(&format!("\"traceId\":\"{}\"", "03".repeat(16))));
    assert!(json.contains(&format!("\"spanId\":\"{}\"", "04".repeat(8))));

    // a histogram point without a sketch is refused
    let empty = [OtlpPoint::default()];
    let bad = [OtlpMetric::new("h", OtlpMetricType::Histogram, &empty)];
    assert!(otlp_metrics(&bad, &OtlpScope::default(), OtlpEncoding::Json).is_err());
}

#[test]
fn spans_carry_ids_times_attributes_and_status() {
    let attrs = [
        ("tokens", OtlpValue::Int(-12)),
        ("ttft", OtlpValue::Double(0.25)),
        ("outcome", OtlpValue::Str("ok")),
    ];
    let mut sp = OtlpSpan::new([0xab; 16], [1; 8], "chat", 5, 9);
    sp.parent_span_id = [2; 8];
    sp.attributes = &attrs;
    sp.status_code = OtlpStatusCode::Error;
    sp.status_message = Some("503");
    let json = String::from_utf8(
        otlp_traces(&[sp.clone()], &OtlpScope::default(), OtlpEncoding::Json).unwrap(),
    )
    .unwrap();
    for want in [
        format!("\"traceId\":\"{}\"", "ab".repeat(16)),
        format!("\"parentSpanId\":\"{}\"", "02".repeat(8)),
        "\"kind\":3".to_string(),
        "\"startTimeUnixNano\":\"5\",\"endTimeUnixNano\":\"9\"".to_string(),
        "{\"key\":\"tokens\",\"value\":{\"intValue\":\"-12\"}}".to_string(),
        "{\"key\":\"ttft\",\"value\":{\"doubleValue\":0.25}}".to_string(),
        "\"status\":{\"message\":\"503\",\"code\":2}".to_string(),
    ] {
        assert!(json.contains(&want), "{want} not in {json}");
    }
    sp.end_time_unix_nano = 1;
    assert!(otlp_traces(&[sp], &OtlpScope::default(), OtlpEncoding::Protobuf).is_err());
}
