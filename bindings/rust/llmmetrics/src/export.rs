//! Prometheus text and protobuf (native histograms) and OpenTelemetry JSON export.
//!
//! Every exporter takes `unit_to_seconds`, the factor that turns a recorded value into the
//! exported unit (1e-3 for a sketch recorded in milliseconds). With 1 or a power of two the
//! native / OTLP buckets are exactly the sketch's buckets; any other factor re-buckets within
//! one bucket. Label lists are preformatted without braces, e.g. `model="m\"x",gpu="0"`
//! ([`prom_label_escape`] escapes one value).

use std::ffi::{CStr, CString};
use std::ptr::{self};

use llmmetrics_sys as ffi;

use crate::context::Context;
use crate::error::{check, Error, Result};
use crate::object::Owned;
use crate::sketch::Sketch;

/// Calls an encoder of the `(buf, cap, *len)` convention until the buffer is large enough.
fn encode(mut call: impl FnMut(*mut u8, usize, &mut usize) -> ffi::llmm_status) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; 1024];
    loop {
        let mut len = 0usize;
        let st = call(buf.as_mut_ptr(), buf.len(), &mut len);
        if st == ffi::LLMM_E_BUFFER && len > buf.len() {
            buf.resize(len, 0);
            continue;
        }
        check(st)?;
        buf.truncate(len);
        return Ok(buf);
    }
}

pub(crate) fn text(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|_| Error::from_code(ffi::LLMM_E_CORRUPT))
}

pub(crate) fn c_string(s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::invalid())
}

pub(crate) fn c_opt(s: Option<&str>) -> Result<Option<CString>> {
    s.map(c_string).transpose()
}

pub(crate) fn opt_ptr(s: &Option<CString>) -> *const ffi::c_char {
    s.as_ref().map_or(ptr::null(), |c| c.as_ptr())
}

fn static_str(p: *const ffi::c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: the library returns static NUL-terminated strings.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

/// One complete Prometheus text family (`# HELP`, `# TYPE histogram`, one classic-histogram
/// series whose `le` bounds are the sketch's own bucket bounds, downscaled to at most 160 of
/// them, so every count is exact).
///
/// ```
/// use llmmetrics::{prometheus_text, Sketch};
///
/// let mut ttft = Sketch::with_scale(0)?;         // buckets (2^i, 2^(i+1)]
/// ttft.add_many(&[0.3, 0.4, 3.0])?;
/// let text = prometheus_text(&ttft, "ttft_seconds", Some("model=\"m\""), 1.0)?;
/// assert!(text.contains("# TYPE ttft_seconds histogram"));
/// assert!(text.contains("ttft_seconds_bucket{model=\"m\",le=\"0.5\"} 2"));
/// assert!(text.contains("ttft_seconds_count{model=\"m\"} 3"));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
///
/// # Errors
/// `Invalid` for a malformed name or label list or a factor that is not finite and > 0;
/// `Range` when a bound times the factor is not a finite positive double.
pub fn prometheus_text(
    s: &Sketch,
    name: &str,
    labels: Option<&str>,
    unit_to_seconds: f64,
) -> Result<String> {
    let name = c_string(name)?;
    let labels = c_opt(labels)?;
    text(encode(|buf, cap, len| {
        // SAFETY: live sketch (read only), NUL-terminated strings, `buf` writable for `cap`.
        unsafe {
            ffi::llmm_export_prometheus_text(
                s.as_ptr(),
                name.as_ptr(),
                opt_ptr(&labels),
                unit_to_seconds,
                buf,
                cap,
                len,
            )
        }
    })?)
}

/// Escape one label value: `\` → `\\`, `"` → `\"`, newline → `\n`.
///
/// ```
/// assert_eq!(llmmetrics::prom_label_escape("a\"b\\c\nd")?, "a\\\"b\\\\c\\nd");
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn prom_label_escape(value: &str) -> Result<String> {
    let value = c_string(value)?;
    // SAFETY: NUL-terminated input, `buf` writable for `cap`.
    text(encode(|buf, cap, len| unsafe {
        ffi::llmm_prom_label_escape(value.as_ptr(), buf, cap, len)
    })?)
}

/// Exposition format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromFormat {
    /// Text format 0.0.4.
    Text = 0,
    /// Length-delimited protobuf `MetricFamily` messages: the only format with native
    /// histograms.
    Protobuf = 1,
    /// OpenMetrics 1.0 text: exemplars, counter families without `_total`, `# EOF`
    /// (chosen by [`prom_negotiate_openmetrics`](crate::prom_negotiate_openmetrics)). Since
    /// 1.2.0.
    OpenMetrics = 2,
}

impl PromFormat {
    /// The exact `Content-Type` of the format.
    pub fn content_type(self) -> &'static str {
        // SAFETY: known formats give static strings.
        static_str(unsafe { ffi::llmm_prom_content_type(self as ffi::llmm_prom_format) })
    }
}

/// Choose the exposition format for an HTTP `Accept` header (protobuf only when offered with
/// a higher quality than every text type, as Prometheus does with native histograms
/// enabled); returns the format and the `Content-Type` to answer with.
///
/// ```
/// use llmmetrics::{prom_negotiate, PromFormat};
///
/// let (f, ct) = prom_negotiate(Some("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3"))?;
/// assert_eq!(f, PromFormat::Protobuf);
/// assert_eq!(ct, PromFormat::Protobuf.content_type());
/// assert_eq!(prom_negotiate(None)?.0, PromFormat::Text);
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn prom_negotiate(accept: Option<&str>) -> Result<(PromFormat, &'static str)> {
    negotiate(accept, ffi::llmm_prom_negotiate)
}

type NegotiateFn = unsafe extern "C" fn(
    *const ffi::c_char,
    *mut ffi::llmm_prom_format,
    *mut *const ffi::c_char,
) -> ffi::llmm_status;

/// One of the C negotiation calls on `accept`.
pub(crate) fn negotiate(
    accept: Option<&str>,
    call: NegotiateFn,
) -> Result<(PromFormat, &'static str)> {
    let accept = c_opt(accept)?;
    let mut format = ffi::LLMM_PROM_TEXT;
    let mut ct = ptr::null();
    // SAFETY: NULL or NUL-terminated input; valid out-pointers.
    check(unsafe { call(opt_ptr(&accept), &mut format, &mut ct) })?;
    let format = match format {
        ffi::LLMM_PROM_TEXT => PromFormat::Text,
        ffi::LLMM_PROM_PROTOBUF => PromFormat::Protobuf,
        ffi::LLMM_PROM_OPENMETRICS => PromFormat::OpenMetrics,
        _ => return Err(Error::abi()),
    };
    Ok((format, static_str(ct)))
}

/// Metric family types of a [`PromWriter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromType {
    /// Monotonic counter (series by [`PromWriter::value`]).
    Counter = 0,
    /// Gauge (series by [`PromWriter::value`]).
    Gauge = 1,
    /// Summary at the family's quantiles (series by [`PromWriter::sketch`]).
    Summary = 2,
    /// Classic histogram at the family's bounds, or the writer's bounded classic layout when
    /// none (see [`PromWriter::set_classic_list`]).
    Histogram = 3,
    /// Native histogram in protobuf; written as a classic histogram in text.
    NativeHistogram = 4,
}

/// Named classic bucket lists, in seconds unless noted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BucketList {
    /// vLLM `time_to_first_token_seconds`: 0.001 … 2560.
    VllmTtft = 0,
    /// vLLM `inter_token_latency_seconds`: 0.01 … 80.
    VllmInterToken = 1,
    /// vLLM `e2e_request_latency_seconds`: 0.3 … 7680.
    VllmRequestLatency = 2,
    /// OpenTelemetry GenAI operation duration: 0.01 · 2^k, k = 0 … 13.
    OtelGenaiDuration = 3,
    /// OpenTelemetry GenAI time to first token: 0.001 … 10.
    OtelGenaiTtft = 4,
    /// OpenTelemetry GenAI time per output token: 0.01 … 2.5.
    OtelGenaiTpot = 5,
    /// OpenTelemetry GenAI token usage (tokens): 4^k, k = 0 … 13.
    OtelGenaiTokens = 6,
}

/// A named bucket list (ascending upper bounds, without `+Inf`).
///
/// ```
/// use llmmetrics::{prom_buckets, BucketList};
/// let b = prom_buckets(BucketList::OtelGenaiDuration)?;
/// assert_eq!(b.len(), 14);
/// assert_eq!((b[0], b[13]), (0.01, 81.92));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn prom_buckets(which: BucketList) -> Result<Vec<f64>> {
    let mut out = vec![0.0; 32];
    loop {
        let mut n = 0usize;
        // SAFETY: `out` writable for `cap` elements.
        let st = unsafe {
            ffi::llmm_prom_buckets(
                which as ffi::llmm_bucket_list,
                out.as_mut_ptr(),
                out.len(),
                &mut n,
            )
        };
        if st == ffi::LLMM_E_BUFFER && n > out.len() {
            out.resize(n, 0.0);
            continue;
        }
        check(st)?;
        out.truncate(n);
        return Ok(out);
    }
}

constructors!(
    /// A Prometheus exposition under construction: many families, many labelled series per
    /// family (`llmm_prom_writer`). Keeps its memory between scrapes.
    ///
    /// ```
    /// use llmmetrics::{PromFormat, PromType, PromWriter, Sketch};
    ///
    /// let mut lat = Sketch::new()?;
    /// lat.add_many(&[0.12, 0.25, 0.31])?;
    /// let mut w = PromWriter::new(PromFormat::Text)?;
    /// w.family("requests_total", Some("Requests served."), PromType::Counter, &[])?;
    /// w.value(Some("code=\"200\""), 3.0)?;
    /// w.family("latency_seconds", None, PromType::Summary, &[0.5, 0.99])?;
    /// w.sketch(None, &lat, 1.0)?;
    /// let text = String::from_utf8(w.finish()?).unwrap();
    /// assert!(text.contains("requests_total{code=\"200\"} 3"));
    /// assert!(text.contains("latency_seconds_count 3"));
    /// assert_eq!(w.data()?, text.as_bytes());   // the same bytes, without a copy
    /// # Ok::<(), llmmetrics::Error>(())
    /// ```
    ///
    /// `PromWriter` is `Send + Sync`: every call takes `&mut self`.
    pub struct PromWriter(ffi::llmm_prom_writer) = ffi::llmm_prom_writer_new;
    /// An empty writer.
    (format: PromFormat as ffi::llmm_prom_format));

impl PromWriter {
    /// Drop everything written and start a new exposition in `format` (memory is kept).
    pub fn reset(&mut self, format: PromFormat) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe {
            ffi::llmm_prom_writer_reset(self.raw.ptr(), format as ffi::llmm_prom_format)
        })
    }

    /// Histogram families without bounds that start after this call get the classic buckets
    /// of a named list (the default: [`BucketList::OtelGenaiDuration`]): in text, and in
    /// protobuf for [`PromType::Histogram`]; native buckets are not affected. The setting
    /// survives [`PromWriter::reset`]. Since 1.1.0.
    ///
    /// # Errors
    /// None for a [`BucketList`] variant (the library knows every one); the `Result` keeps the
    /// writer calls uniform.
    pub fn set_classic_list(&mut self, which: BucketList) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe {
            ffi::llmm_prom_writer_set_classic_list(self.raw.ptr(), which as ffi::llmm_bucket_list)
        })
    }

    /// Histogram families without bounds that start after this call get each sketch's own
    /// bucket grid, downscaled to at most `max_bounds` finite `le` bounds, every count exact.
    /// The setting survives [`PromWriter::reset`]. Since 1.1.0.
    ///
    /// # Errors
    /// `Invalid` when `max_bounds` is below 3 (nothing changes).
    pub fn set_classic_max(&mut self, max_bounds: u32) -> Result<()> {
        // SAFETY: live handle, exclusive borrow.
        check(unsafe { ffi::llmm_prom_writer_set_classic_max(self.raw.ptr(), max_bounds) })
    }

    /// Start a family. `points`: none for counters and gauges; the quantiles of a summary;
    /// histogram upper bounds in the exported unit (none: the writer's bounded classic layout,
    /// see [`PromWriter::set_classic_list`]).
    ///
    /// # Errors
    /// `Invalid` for a malformed name or help or bad points; `State` for a name already
    /// written since the last reset.
    pub fn family(
        &mut self,
        name: &str,
        help: Option<&str>,
        kind: PromType,
        points: &[f64],
    ) -> Result<()> {
        let name = c_string(name)?;
        let help = c_opt(help)?;
        // SAFETY: live handle; NUL-terminated strings; `points` readable for `len`.
        check(unsafe {
            ffi::llmm_prom_writer_family(
                self.raw.ptr(),
                name.as_ptr(),
                opt_ptr(&help),
                kind as ffi::llmm_prom_type,
                points.as_ptr(),
                points.len(),
            )
        })
    }

    /// Add a series to the current counter or gauge family.
    pub fn value(&mut self, labels: Option<&str>, value: f64) -> Result<()> {
        let labels = c_opt(labels)?;
        // SAFETY: live handle; NULL or NUL-terminated labels.
        check(unsafe { ffi::llmm_prom_writer_value(self.raw.ptr(), opt_ptr(&labels), value) })
    }

    /// Add a series computed from a sketch to the current summary or histogram family.
    pub fn sketch(&mut self, labels: Option<&str>, s: &Sketch, unit_to_seconds: f64) -> Result<()> {
        let labels = c_opt(labels)?;
        // SAFETY: live handles; the sketch is only read.
        check(unsafe {
            ffi::llmm_prom_writer_sketch(
                self.raw.ptr(),
                opt_ptr(&labels),
                s.as_ptr(),
                unit_to_seconds,
            )
        })
    }

    /// [`sketch`](PromWriter::sketch) with the exemplars of `ex` where the format carries
    /// them (OpenMetrics buckets; protobuf classic buckets and a native histogram's one
    /// exemplar; none in 0.0.4 text). Since 1.2.0.
    pub fn sketch_exemplars(
        &mut self,
        labels: Option<&str>,
        s: &Sketch,
        unit_to_seconds: f64,
        ex: Option<&crate::Exemplars>,
    ) -> Result<()> {
        let labels = c_opt(labels)?;
        let ex = ex.map_or(ptr::null(), |x| x.as_ptr() as *const ffi::llmm_exemplars);
        // SAFETY: live handles; the sketch and the store are only read (the store may be
        // written by its shards meanwhile, which the C call allows).
        check(unsafe {
            ffi::llmm_prom_writer_sketch_exemplars(
                self.raw.ptr(),
                opt_ptr(&labels),
                s.as_ptr(),
                unit_to_seconds,
                ex,
            )
        })
    }

    /// [`value`](PromWriter::value) for a counter, with one exemplar. Since 1.2.0.
    ///
    /// # Errors
    /// `Invalid` for a bad exemplar (value not finite, labels malformed or 64 bytes or more);
    /// `State` when the open family is not a counter.
    pub fn value_exemplar(
        &mut self,
        labels: Option<&str>,
        value: f64,
        e: Option<&crate::Exemplar>,
    ) -> Result<()> {
        let labels = c_opt(labels)?;
        let ce = e.map(crate::exemplar::to_c).transpose()?;
        let ep = ce.as_ref().map_or(ptr::null(), |c| c as *const ffi::llmm_exemplar);
        // SAFETY: live handle; NULL or a set-up exemplar.
        check(unsafe {
            ffi::llmm_prom_writer_value_exemplar(self.raw.ptr(), opt_ptr(&labels), value, ep)
        })
    }

    /// End the current family and copy the whole exposition.
    pub fn finish(&mut self) -> Result<Vec<u8>> {
        let w = self.raw.ptr();
        // SAFETY: live handle; `buf` writable for `cap`.
        encode(|buf, cap, len| unsafe { ffi::llmm_prom_writer_finish(w, buf, cap, len) })
    }

    /// End the current family and borrow the exposition without copying (valid until the
    /// writer is used again, which the borrow enforces).
    pub fn data(&mut self) -> Result<&[u8]> {
        let mut data = ptr::null();
        let mut len = 0usize;
        // SAFETY: live handle; valid out-pointers.
        check(unsafe { ffi::llmm_prom_writer_data(self.raw.ptr(), &mut data, &mut len) })?;
        if len == 0 {
            return Ok(&[]);
        }
        // SAFETY: the library owns `len` bytes at `data` until the writer's next call, and the
        // returned slice borrows `self` mutably until then.
        Ok(unsafe { std::slice::from_raw_parts(data, len) })
    }
}

debug_fields!(PromWriter, "ptr" = { raw.ptr() });

/// OTLP aggregation temporality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OtlpTemporality {
    /// Each point covers (start, time] only.
    Delta = 1,
    /// Each point covers everything since a fixed start.
    Cumulative = 2,
}

/// Options of the OTLP JSON exporters; `Default` gives the library's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OtlpOptions<'a> {
    /// Start of the covered interval (ns since the Unix epoch).
    pub start_time_unix_nano: u64,
    /// End of the covered interval.
    pub time_unix_nano: u64,
    /// Factor applied to every value (default 1).
    pub unit_to_seconds: f64,
    /// Largest number of positive buckets, reached by exact downscaling (0: no limit).
    pub max_buckets: u32,
    /// Cumulative (default) or delta.
    pub temporality: OtlpTemporality,
    /// Point attributes as a preformatted label list (keys may contain `.` and `-`).
    pub attributes: Option<&'a str>,
    /// Metric description (request form only).
    pub description: Option<&'a str>,
    /// Metric unit (request form only); `None` gives `"s"`.
    pub unit: Option<&'a str>,
    /// Resource attributes (request form only).
    pub resource_attributes: Option<&'a str>,
}

impl Default for OtlpOptions<'_> {
    fn default() -> Self {
        let o = crate::sized::defaults::<ffi::llmm_otlp_options>();
        OtlpOptions {
            start_time_unix_nano: o.start_time_unix_nano,
            time_unix_nano: o.time_unix_nano,
            unit_to_seconds: o.unit_to_seconds,
            max_buckets: o.max_buckets,
            temporality: if o.temporality == ffi::LLMM_OTLP_DELTA {
                OtlpTemporality::Delta
            } else {
                OtlpTemporality::Cumulative
            },
            attributes: None,
            description: None,
            unit: None,
            resource_attributes: None,
        }
    }
}

/// The C strings an `llmm_otlp_options` points into, kept alive for the call.
struct OtlpStrings {
    attributes: Option<CString>,
    description: Option<CString>,
    unit: Option<CString>,
    resource_attributes: Option<CString>,
}

impl OtlpOptions<'_> {
    fn strings(&self) -> Result<OtlpStrings> {
        Ok(OtlpStrings {
            attributes: c_opt(self.attributes)?,
            description: c_opt(self.description)?,
            unit: c_opt(self.unit)?,
            resource_attributes: c_opt(self.resource_attributes)?,
        })
    }

    fn raw(&self, s: &OtlpStrings) -> ffi::llmm_otlp_options {
        let mut o = crate::sized::defaults::<ffi::llmm_otlp_options>();
        o.start_time_unix_nano = self.start_time_unix_nano;
        o.time_unix_nano = self.time_unix_nano;
        o.unit_to_seconds = self.unit_to_seconds;
        o.max_buckets = self.max_buckets;
        o.temporality = self.temporality as ffi::llmm_otlp_temporality;
        o.attributes = opt_ptr(&s.attributes);
        o.description = opt_ptr(&s.description);
        o.unit = opt_ptr(&s.unit);
        o.resource_attributes = opt_ptr(&s.resource_attributes);
        o
    }
}

fn earlier_ptr(earlier: Option<&Sketch>) -> *const ffi::llmm_sketch {
    earlier.map_or(ptr::null(), Sketch::as_ptr)
}

/// One OTLP/JSON `ExponentialHistogramDataPoint` object. With `earlier` (delta temporality
/// only) the point is the interval `s − earlier`.
///
/// ```
/// use llmmetrics::{otlp_json_point, OtlpOptions, Sketch};
///
/// let mut s = Sketch::new()?;
/// s.add_many(&[0.5, 1.0, 2.0])?;
/// let json = otlp_json_point(&s, None, &OtlpOptions::default())?;
/// assert!(json.contains("\"count\":\"3\""));
/// assert!(json.contains("\"scale\":6"));
/// # Ok::<(), llmmetrics::Error>(())
/// ```
pub fn otlp_json_point(
    s: &Sketch,
    earlier: Option<&Sketch>,
    options: &OtlpOptions<'_>,
) -> Result<String> {
    let strings = options.strings()?;
    let o = options.raw(&strings);
    // SAFETY: live sketches (read only); `o` points into `strings`, alive for the call.
    text(encode(|buf, cap, len| unsafe {
        ffi::llmm_export_otlp_json_point(s.as_ptr(), earlier_ptr(earlier), &o, buf, cap, len)
    })?)
}

/// A complete OTLP/JSON `ExportMetricsServiceRequest` (the body of a POST to `/v1/metrics`)
/// holding one metric named `name` with one exponential-histogram point.
pub fn otlp_json(
    s: &Sketch,
    earlier: Option<&Sketch>,
    name: &str,
    options: &OtlpOptions<'_>,
) -> Result<String> {
    let name = c_string(name)?;
    let strings = options.strings()?;
    let o = options.raw(&strings);
    // SAFETY: as otlp_json_point; `name` NUL-terminated.
    text(encode(|buf, cap, len| unsafe {
        ffi::llmm_export_otlp_json(
            s.as_ptr(),
            earlier_ptr(earlier),
            name.as_ptr(),
            &o,
            buf,
            cap,
            len,
        )
    })?)
}
