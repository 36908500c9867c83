//! OpenTelemetry requests: many metrics and points, and client spans, as protobuf or
//! OTLP/JSON (`llmmetrics/otlp.h`).
//!
//! [`otlp_metrics`] returns the body of an OTLP/HTTP POST to `/v1/metrics` and
//! [`otlp_traces`] one to `/v1/traces`. The library only encodes; send the bytes with any
//! HTTP client. Attribute lists of resource, scope, points and exemplars are preformatted
//! label lists (`k="v",k2="w"`; keys may contain `.` and `-`); span attributes are typed.

use std::ffi::CString;
use std::ptr;

use llmmetrics_sys as ffi;

use crate::error::{check, Error, Result};
use crate::export::OtlpTemporality;
use crate::sketch::Sketch;

/// The encoding of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum OtlpEncoding {
    /// Protobuf binary (`application/x-protobuf`), the OTLP/HTTP default.
    Protobuf = ffi::LLMM_OTLP_PROTOBUF,
    /// OTLP/JSON (`application/json`).
    Json = ffi::LLMM_OTLP_JSON,
}

/// The data type of a metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum OtlpMetricType {
    /// `ExponentialHistogram` of a sketch (lossless).
    ExponentialHistogram = ffi::LLMM_OTLP_EXPONENTIAL_HISTOGRAM,
    /// `Histogram` with explicit bounds, counted from a sketch.
    Histogram = ffi::LLMM_OTLP_HISTOGRAM,
    /// `Sum` of the points' values.
    Sum = ffi::LLMM_OTLP_SUM,
    /// `Gauge` of the points' values.
    Gauge = ffi::LLMM_OTLP_GAUGE,
    /// `Summary`: count, sum and quantiles of a sketch.
    Summary = ffi::LLMM_OTLP_SUMMARY,
}

/// The kind of a span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum OtlpSpanKind {
    /// An internal operation.
    Internal = ffi::LLMM_OTLP_SPAN_INTERNAL,
    /// The server side of a request.
    Server = ffi::LLMM_OTLP_SPAN_SERVER,
    /// The client side of a request.
    Client = ffi::LLMM_OTLP_SPAN_CLIENT,
    /// The sending side of an asynchronous message.
    Producer = ffi::LLMM_OTLP_SPAN_PRODUCER,
    /// The receiving side of an asynchronous message.
    Consumer = ffi::LLMM_OTLP_SPAN_CONSUMER,
}

/// The status of a span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum OtlpStatusCode {
    /// Not set.
    Unset = ffi::LLMM_OTLP_STATUS_UNSET,
    /// The operation succeeded.
    Ok = ffi::LLMM_OTLP_STATUS_OK,
    /// The operation failed.
    Error = ffi::LLMM_OTLP_STATUS_ERROR,
}

/// One exemplar of a point; an all-zero trace or span id is left out.
#[derive(Clone, Debug, Default)]
pub struct OtlpExemplar<'a> {
    /// The recorded value.
    pub value: f64,
    /// When it was recorded (ns since the Unix epoch).
    pub time_unix_nano: u64,
    /// W3C trace id.
    pub trace_id: [u8; 16],
    /// Span id.
    pub span_id: [u8; 8],
    /// Filtered attributes as a label list.
    pub attributes: Option<&'a str>,
}

/// One data point: `sketch` for histograms and summaries (with `earlier`, a delta histogram
/// point is `sketch − earlier`), `value` for sums and gauges.
#[derive(Clone, Debug, Default)]
pub struct OtlpPoint<'a> {
    /// Point attributes as a label list.
    pub attributes: Option<&'a str>,
    /// Start of the covered interval.
    pub start_time_unix_nano: u64,
    /// End of the covered interval.
    pub time_unix_nano: u64,
    /// The data of a histogram or summary point.
    pub sketch: Option<&'a Sketch>,
    /// An earlier snapshot (delta histograms only).
    pub earlier: Option<&'a Sketch>,
    /// The value of a sum or gauge point.
    pub value: f64,
    /// Exemplars of the point.
    pub exemplars: &'a [OtlpExemplar<'a>],
}

/// One metric and its points.
#[derive(Clone, Debug)]
pub struct OtlpMetric<'a> {
    /// Metric name.
    pub name: &'a str,
    /// Description.
    pub description: Option<&'a str>,
    /// Unit.
    pub unit: Option<&'a str>,
    /// The data type.
    pub kind: OtlpMetricType,
    /// Histograms and sums: cumulative (default) or delta.
    pub temporality: OtlpTemporality,
    /// Sums: a monotonic sum (a counter).
    pub monotonic: bool,
    /// Histograms and summaries: factor to the exported unit (default 1).
    pub unit_to_seconds: f64,
    /// Exponential histograms: the largest number of buckets (0: no limit).
    pub max_buckets: u32,
    /// Explicit bounds of a histogram or quantiles of a summary (`None`: the defaults).
    pub bounds: Option<&'a [f64]>,
    /// The points.
    pub points: &'a [OtlpPoint<'a>],
}

impl<'a> OtlpMetric<'a> {
    /// A metric of `kind` with the library's defaults (cumulative, factor 1).
    pub fn new(name: &'a str, kind: OtlpMetricType, points: &'a [OtlpPoint<'a>]) -> Self {
        OtlpMetric {
            name,
            description: None,
            unit: None,
            kind,
            temporality: OtlpTemporality::Cumulative,
            monotonic: false,
            unit_to_seconds: 1.0,
            max_buckets: 0,
            bounds: None,
            points,
        }
    }
}

/// Resource and instrumentation scope of a request (`Default`: none, the library's scope).
#[derive(Clone, Debug, Default)]
pub struct OtlpScope<'a> {
    /// Resource attributes as a label list.
    pub resource_attributes: Option<&'a str>,
    /// Scope name (`None`: `libllmmetrics`).
    pub name: Option<&'a str>,
    /// Scope version.
    pub version: Option<&'a str>,
    /// Scope attributes as a label list.
    pub attributes: Option<&'a str>,
}

/// The value of a span attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum OtlpValue<'a> {
    /// A string.
    Str(&'a str),
    /// An integer.
    Int(i64),
    /// A double.
    Double(f64),
}

/// One span.
#[derive(Clone, Debug)]
pub struct OtlpSpan<'a> {
    /// W3C trace id (not all zero).
    pub trace_id: [u8; 16],
    /// Span id (not all zero).
    pub span_id: [u8; 8],
    /// The parent's span id; all zero: a root span.
    pub parent_span_id: [u8; 8],
    /// Span name.
    pub name: &'a str,
    /// Kind (client by default in [`OtlpSpan::new`]).
    pub kind: OtlpSpanKind,
    /// Start (ns since the Unix epoch).
    pub start_time_unix_nano: u64,
    /// End.
    pub end_time_unix_nano: u64,
    /// Typed attributes.
    pub attributes: &'a [(&'a str, OtlpValue<'a>)],
    /// Status code.
    pub status_code: OtlpStatusCode,
    /// Status message.
    pub status_message: Option<&'a str>,
}

impl<'a> OtlpSpan<'a> {
    /// A client span with no attributes and an unset status.
    pub fn new(trace_id: [u8; 16], span_id: [u8; 8], name: &'a str, start: u64, end: u64) -> Self {
        OtlpSpan {
            trace_id,
            span_id,
            parent_span_id: [0; 8],
            name,
            kind: OtlpSpanKind::Client,
            start_time_unix_nano: start,
            end_time_unix_nano: end,
            attributes: &[],
            status_code: OtlpStatusCode::Unset,
            status_message: None,
        }
    }
}

/// Everything a request's C structs point into, alive for the call.
#[derive(Default)]
struct Keep {
    strings: Vec<CString>,
}

impl Keep {
    fn opt(&mut self, s: Option<&str>) -> Result<*const ffi::c_char> {
        match s {
            None => Ok(ptr::null()),
            Some(s) => self.put(s),
        }
    }

    fn put(&mut self, s: &str) -> Result<*const ffi::c_char> {
        let c = CString::new(s).map_err(|_| Error::invalid())?;
        let p = c.as_ptr(); // the heap buffer does not move with the CString
        self.strings.push(c);
        Ok(p)
    }
}

fn sketch_ptr(s: Option<&Sketch>) -> *const ffi::llmm_sketch {
    s.map_or(ptr::null(), Sketch::as_ptr)
}

fn encode(mut call: impl FnMut(*mut u8, usize, &mut usize) -> ffi::llmm_status) -> Result<Vec<u8>> {
    let mut len = 0usize;
    let st = call(ptr::null_mut(), 0, &mut len);
    if st != ffi::LLMM_E_BUFFER {
        check(st)?;
        return Ok(Vec::new());
    }
    let mut buf = vec![0u8; len];
    check(call(buf.as_mut_ptr(), buf.len(), &mut len))?;
    buf.truncate(len);
    Ok(buf)
}

/// An `ExportMetricsServiceRequest` holding `metrics` in `encoding`.
///
/// ```
/// use llmmetrics::{otlp_metrics, OtlpEncoding, OtlpMetric, OtlpMetricType, OtlpPoint, OtlpScope};
///
/// let points = [OtlpPoint { value: 3.0, ..Default::default() }];
/// let m = [OtlpMetric::new("requests", OtlpMetricType::Gauge, &points)];
/// let json = otlp_metrics(&m, &OtlpScope::default(), OtlpEncoding::Json)?;
/// assert!(String::from_utf8(json).unwrap().contains("\"asDouble\":3"));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn otlp_metrics(
    metrics: &[OtlpMetric<'_>],
    scope: &OtlpScope<'_>,
    encoding: OtlpEncoding,
) -> Result<Vec<u8>> {
    let mut keep = Keep::default();
    let mut exemplars: Vec<Vec<ffi::llmm_otlp_exemplar>> = Vec::new();
    let mut points: Vec<Vec<ffi::llmm_otlp_point>> = Vec::new();
    let mut ms: Vec<ffi::llmm_otlp_metric> = Vec::with_capacity(metrics.len());
    for m in metrics {
        let mut ps = Vec::with_capacity(m.points.len());
        for p in m.points {
            let mut ex = Vec::with_capacity(p.exemplars.len());
            for e in p.exemplars {
                let mut c = crate::sized::try_defaults::<ffi::llmm_otlp_exemplar>()?;
                c.value = e.value;
                c.time_unix_nano = e.time_unix_nano;
                c.trace_id = e.trace_id;
                c.span_id = e.span_id;
                c.attributes = keep.opt(e.attributes)?;
                ex.push(c);
            }
            let mut c = crate::sized::try_defaults::<ffi::llmm_otlp_point>()?;
            c.attributes = keep.opt(p.attributes)?;
            c.start_time_unix_nano = p.start_time_unix_nano;
            c.time_unix_nano = p.time_unix_nano;
            c.sketch = sketch_ptr(p.sketch);
            c.earlier = sketch_ptr(p.earlier);
            c.value = p.value;
            c.exemplars = if ex.is_empty() { ptr::null() } else { ex.as_ptr() };
            c.exemplar_count = ex.len();
            exemplars.push(ex); // moving the Vec keeps its heap buffer where it is
            ps.push(c);
        }
        let mut c = crate::sized::try_defaults::<ffi::llmm_otlp_metric>()?;
        c.name = keep.put(m.name)?;
        c.description = keep.opt(m.description)?;
        c.unit = keep.opt(m.unit)?;
        c.r#type = m.kind as ffi::llmm_otlp_metric_type;
        c.temporality = m.temporality as ffi::llmm_otlp_temporality;
        c.monotonic = i32::from(m.monotonic);
        c.unit_to_seconds = m.unit_to_seconds;
        c.max_buckets = m.max_buckets;
        if let Some(b) = m.bounds {
            c.bounds = b.as_ptr();
            c.bound_count = b.len();
        }
        c.points = if ps.is_empty() { ptr::null() } else { ps.as_ptr() };
        c.point_count = ps.len();
        points.push(ps);
        ms.push(c);
    }
    let mut r = crate::sized::try_defaults::<ffi::llmm_otlp_metrics_request>()?;
    r.resource_attributes = keep.opt(scope.resource_attributes)?;
    r.scope_name = keep.opt(scope.name)?;
    r.scope_version = keep.opt(scope.version)?;
    r.scope_attributes = keep.opt(scope.attributes)?;
    r.metrics = if ms.is_empty() { ptr::null() } else { ms.as_ptr() };
    r.metric_count = ms.len();
    // SAFETY: every pointer of `r` points into `keep`, `ms`, `points`, `exemplars`, the
    // caller's bounds or live sketches (only read), all alive for the call.
    let out = encode(|buf, cap, len| unsafe {
        ffi::llmm_export_otlp_metrics(&r, encoding as ffi::llmm_otlp_encoding, buf, cap, len)
    });
    drop((keep, exemplars, points, ms));
    out
}

/// An `ExportTraceServiceRequest` holding `spans` in `encoding`.
pub fn otlp_traces(
    spans: &[OtlpSpan<'_>],
    scope: &OtlpScope<'_>,
    encoding: OtlpEncoding,
) -> Result<Vec<u8>> {
    let mut keep = Keep::default();
    let mut attrs: Vec<Vec<ffi::llmm_otlp_attribute>> = Vec::new();
    let mut ss: Vec<ffi::llmm_otlp_span> = Vec::with_capacity(spans.len());
    for s in spans {
        let mut av = Vec::with_capacity(s.attributes.len());
        for (key, value) in s.attributes {
            let mut a = crate::sized::try_defaults::<ffi::llmm_otlp_attribute>()?;
            a.key = keep.put(key)?;
            match value {
                OtlpValue::Str(v) => {
                    a.r#type = ffi::LLMM_OTLP_STRING;
                    a.string_value = keep.put(v)?;
                }
                OtlpValue::Int(v) => {
                    a.r#type = ffi::LLMM_OTLP_INT;
                    a.int_value = *v;
                }
                OtlpValue::Double(v) => {
                    a.r#type = ffi::LLMM_OTLP_DOUBLE;
                    a.double_value = *v;
                }
            }
            av.push(a);
        }
        let mut c = crate::sized::try_defaults::<ffi::llmm_otlp_span>()?;
        c.trace_id = s.trace_id;
        c.span_id = s.span_id;
        c.parent_span_id = s.parent_span_id;
        c.name = keep.put(s.name)?;
        c.kind = s.kind as ffi::llmm_otlp_span_kind;
        c.start_time_unix_nano = s.start_time_unix_nano;
        c.end_time_unix_nano = s.end_time_unix_nano;
        c.attributes = if av.is_empty() { ptr::null() } else { av.as_ptr() };
        c.attribute_count = av.len();
        c.status_code = s.status_code as ffi::llmm_otlp_status_code;
        c.status_message = keep.opt(s.status_message)?;
        attrs.push(av);
        ss.push(c);
    }
    let mut r = crate::sized::try_defaults::<ffi::llmm_otlp_traces_request>()?;
    r.resource_attributes = keep.opt(scope.resource_attributes)?;
    r.scope_name = keep.opt(scope.name)?;
    r.scope_version = keep.opt(scope.version)?;
    r.scope_attributes = keep.opt(scope.attributes)?;
    r.spans = if ss.is_empty() { ptr::null() } else { ss.as_ptr() };
    r.span_count = ss.len();
    // SAFETY: every pointer of `r` points into `keep`, `ss` or `attrs`, alive for the call.
    let out = encode(|buf, cap, len| unsafe {
        ffi::llmm_export_otlp_traces(&r, encoding as ffi::llmm_otlp_encoding, buf, cap, len)
    });
    drop((keep, attrs, ss));
    out
}
