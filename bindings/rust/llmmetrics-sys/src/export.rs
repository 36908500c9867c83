//! `export.h`: Prometheus and OpenTelemetry exporters.

use super::*;

/// Exposition format of a [`llmm_prom_writer`] (`llmm_prom_format`).
pub type llmm_prom_format = c_int;
/// Text format 0.0.4.
pub const LLMM_PROM_TEXT: llmm_prom_format = 0;
/// Length-delimited protobuf `MetricFamily` messages (native histograms).
pub const LLMM_PROM_PROTOBUF: llmm_prom_format = 1;

/// Metric family types of a [`llmm_prom_writer`] (`llmm_prom_type`).
pub type llmm_prom_type = c_int;
/// Monotonic counter.
pub const LLMM_PROM_COUNTER: llmm_prom_type = 0;
/// Gauge.
pub const LLMM_PROM_GAUGE: llmm_prom_type = 1;
/// Summary at the family's quantiles.
pub const LLMM_PROM_SUMMARY: llmm_prom_type = 2;
/// Classic histogram.
pub const LLMM_PROM_HISTOGRAM: llmm_prom_type = 3;
/// Native histogram (protobuf; classic in text).
pub const LLMM_PROM_NATIVE_HISTOGRAM: llmm_prom_type = 4;

/// Named classic bucket lists (`llmm_bucket_list`).
pub type llmm_bucket_list = c_int;
/// vLLM `time_to_first_token_seconds`.
pub const LLMM_BUCKETS_VLLM_TTFT: llmm_bucket_list = 0;
/// vLLM `inter_token_latency_seconds`.
pub const LLMM_BUCKETS_VLLM_INTER_TOKEN: llmm_bucket_list = 1;
/// vLLM `e2e_request_latency_seconds`.
pub const LLMM_BUCKETS_VLLM_REQUEST_LATENCY: llmm_bucket_list = 2;
/// OpenTelemetry GenAI operation duration.
pub const LLMM_BUCKETS_OTEL_GENAI_DURATION: llmm_bucket_list = 3;
/// OpenTelemetry GenAI time to first token.
pub const LLMM_BUCKETS_OTEL_GENAI_TTFT: llmm_bucket_list = 4;
/// OpenTelemetry GenAI time per output token.
pub const LLMM_BUCKETS_OTEL_GENAI_TPOT: llmm_bucket_list = 5;
/// OpenTelemetry GenAI token usage (tokens).
pub const LLMM_BUCKETS_OTEL_GENAI_TOKENS: llmm_bucket_list = 6;

/// OTLP aggregation temporality (`llmm_otlp_temporality`).
pub type llmm_otlp_temporality = c_int;
/// Each point covers (start, time] only.
pub const LLMM_OTLP_DELTA: llmm_otlp_temporality = 1;
/// Each point covers everything since a fixed start.
pub const LLMM_OTLP_CUMULATIVE: llmm_otlp_temporality = 2;

/// Options of the OTLP JSON exporters (`llmm_otlp_options`); size-prefixed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct llmm_otlp_options {
    /// `sizeof(llmm_otlp_options)`, set by [`llmm_otlp_options_init`].
    pub struct_size: u32,
    /// Start of the covered interval.
    pub start_time_unix_nano: u64,
    /// End of the covered interval.
    pub time_unix_nano: u64,
    /// Factor applied to every value.
    pub unit_to_seconds: f64,
    /// Largest number of positive buckets (0 = no limit).
    pub max_buckets: u32,
    /// Cumulative or delta.
    pub temporality: llmm_otlp_temporality,
    /// Point attributes as a preformatted label list, or NULL.
    pub attributes: *const c_char,
    /// Metric description, or NULL.
    pub description: *const c_char,
    /// Metric unit; NULL gives "s".
    pub unit: *const c_char,
    /// Resource attributes, or NULL.
    pub resource_attributes: *const c_char,
}

opaque! {
    /// A Prometheus exposition under construction (`llmm_prom_writer`).
    llmm_prom_writer;
}

extern "C" {
    pub fn llmm_export_prometheus_text(
        s: *const llmm_sketch,
        name: *const c_char,
        labels: *const c_char,
        unit_to_seconds: f64,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_prom_label_escape(
        value: *const c_char,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_prom_writer_new(
        ctx: *mut llmm_ctx,
        format: llmm_prom_format,
        out: *mut *mut llmm_prom_writer,
    ) -> llmm_status;
    pub fn llmm_prom_writer_free(w: *mut llmm_prom_writer);
    pub fn llmm_prom_writer_reset(
        w: *mut llmm_prom_writer,
        format: llmm_prom_format,
    ) -> llmm_status;
    pub fn llmm_prom_writer_family(
        w: *mut llmm_prom_writer,
        name: *const c_char,
        help: *const c_char,
        type_: llmm_prom_type,
        points: *const f64,
        npoints: usize,
    ) -> llmm_status;
    pub fn llmm_prom_writer_value(
        w: *mut llmm_prom_writer,
        labels: *const c_char,
        value: f64,
    ) -> llmm_status;
    pub fn llmm_prom_writer_sketch(
        w: *mut llmm_prom_writer,
        labels: *const c_char,
        s: *const llmm_sketch,
        unit_to_seconds: f64,
    ) -> llmm_status;
    pub fn llmm_prom_writer_finish(
        w: *mut llmm_prom_writer,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_prom_writer_data(
        w: *mut llmm_prom_writer,
        data: *mut *const u8,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_prom_negotiate(
        accept: *const c_char,
        format: *mut llmm_prom_format,
        content_type: *mut *const c_char,
    ) -> llmm_status;
    pub fn llmm_prom_content_type(format: llmm_prom_format) -> *const c_char;
    pub fn llmm_prom_buckets(
        which: llmm_bucket_list,
        out: *mut f64,
        cap: usize,
        n: *mut usize,
    ) -> llmm_status;
    pub fn llmm_prom_writer_set_classic_list(
        w: *mut llmm_prom_writer,
        which: llmm_bucket_list,
    ) -> llmm_status;
    pub fn llmm_prom_writer_set_classic_max(
        w: *mut llmm_prom_writer,
        max_bounds: u32,
    ) -> llmm_status;
    pub fn llmm_otlp_options_init(o: *mut llmm_otlp_options) -> llmm_status;
    pub fn llmm_export_otlp_json_point(
        s: *const llmm_sketch,
        earlier: *const llmm_sketch,
        o: *const llmm_otlp_options,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
    pub fn llmm_export_otlp_json(
        s: *const llmm_sketch,
        earlier: *const llmm_sketch,
        name: *const c_char,
        o: *const llmm_otlp_options,
        buf: *mut u8,
        cap: usize,
        len: *mut usize,
    ) -> llmm_status;
}
