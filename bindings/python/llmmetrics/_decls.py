"""The binding's copy of the libllmmetrics public API, as C declarations, one text per module.

``_lib.py`` derives every ctypes ``argtypes`` / ``restype`` and every structure layout from
these texts, ``llmmetrics.cffi_cdef`` is generated from them, and the drift test
(``tests/test_drift.py``) checks that they match ``include/llmmetrics/*.h`` declaration for
declaration (names, parameter types, struct members, enum values, numeric and string
``#define``\\ s).
When a header changes, change the text here the same way; the drift test says where.
"""

from typing import Dict

CORE = r"""
typedef enum llmm_status {
    LLMM_OK = 0,
    LLMM_E_INVALID = -1,
    LLMM_E_NOMEM = -2,
    LLMM_E_RANGE = -3,
    LLMM_E_EMPTY = -4,
    LLMM_E_CORRUPT = -5,
    LLMM_E_VERSION = -6,
    LLMM_E_BUFFER = -7,
    LLMM_E_UNKNOWN_OPTION = -8,
    LLMM_E_STATE = -9,
    LLMM_E_NOT_CONVERGED = -10,
    LLMM_E_ABI = -11
} llmm_status;

const char *llmm_status_name(llmm_status s);
const char *llmm_strerror(llmm_status s);
uint32_t llmm_version(void);
const char *llmm_version_string(void);

typedef struct llmm_allocator {
    uint32_t struct_size;
    void *user;
    void *(*alloc)(void *user, size_t size);
    void *(*realloc)(void *user, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *user, void *ptr, size_t size);
} llmm_allocator;

llmm_status llmm_allocator_init(llmm_allocator *a);

typedef enum llmm_struct_kind {
    LLMM_STRUCT_ALLOCATOR = 1,
    LLMM_STRUCT_SPIKE_STATS = 2,
    LLMM_STRUCT_COLLAPSE_VERDICT = 3,
    LLMM_STRUCT_COLLAPSE_REPORT = 4,
    LLMM_STRUCT_STABILITY_READING = 5,
    LLMM_STRUCT_SATURATION_READING = 6,
    LLMM_STRUCT_OTLP_OPTIONS = 7,
    LLMM_STRUCT_FIT_STATS = 8,
    LLMM_STRUCT_KNEE = 9,
    LLMM_STRUCT_USL = 10,
    LLMM_STRUCT_KNEE_OPTIONS = 11,
    LLMM_STRUCT_LII_READING = 12,
    LLMM_STRUCT_KV_OCCUPANCY_RESULT = 13,
    LLMM_STRUCT_KV_HIT_READING = 14,
    LLMM_STRUCT_TLB_READING = 15,
    LLMM_STRUCT_SCORE_RESULT = 16,
    LLMM_STRUCT_SLO_RESULT = 17,
    LLMM_STRUCT_GOODPUT_RESULT = 18,
    LLMM_STRUCT_BURN_RESULT = 19,
    LLMM_STRUCT_ERROR_TRIGGER_READING = 20,
    LLMM_STRUCT_OPTION_INFO = 21
} llmm_struct_kind;

llmm_status llmm_struct_init(llmm_struct_kind kind, void *s, uint32_t size);

typedef struct llmm_ctx llmm_ctx;
llmm_status llmm_ctx_new(const llmm_allocator *a, llmm_ctx **out);
void llmm_ctx_free(llmm_ctx *ctx);
uint64_t llmm_now_ns(void);

typedef enum llmm_object_kind {
    LLMM_KIND_SPIKE = 1,
    LLMM_KIND_COLLAPSE = 2,
    LLMM_KIND_STABILITY = 3,
    LLMM_KIND_SATURATION = 4,
    LLMM_KIND_LII_MONITOR = 5,
    LLMM_KIND_SCORECARD = 6,
    LLMM_KIND_GOODPUT = 7,
    LLMM_KIND_BURN = 8,
    LLMM_KIND_ERROR_TRIGGER = 9,
    LLMM_KIND_HOST_SAMPLER = 10
} llmm_object_kind;

typedef enum llmm_option_type {
    LLMM_OPTION_F64 = 1,
    LLMM_OPTION_U64 = 2,
    LLMM_OPTION_I32 = 3
} llmm_option_type;

typedef struct llmm_option_info {
    uint32_t struct_size;
    int32_t key;
    llmm_option_type type;
    int32_t min_exclusive;
    int32_t max_exclusive;
    int32_t fixed_once_started;
    int32_t cross_checked;
    int32_t has_default;
    const char *name;
    double min_f64;
    double max_f64;
    double default_f64;
    uint64_t min_u64;
    uint64_t max_u64;
    uint64_t default_u64;
    int32_t min_i32;
    int32_t max_i32;
    int32_t default_i32;
    int32_t reserved_;
} llmm_option_info;

llmm_status llmm_option_describe(llmm_object_kind kind, uint32_t index, llmm_option_info *info);
"""

SKETCH = r"""
#define LLMM_SCALE_DEFAULT 6
#define LLMM_SCALE_MIN 0
#define LLMM_SCALE_MAX 10
#define LLMM_SKETCH_RANGE_MIN_DEFAULT 1e-9
#define LLMM_SKETCH_RANGE_MAX_DEFAULT 1e15
#define LLMM_SKETCH_RANGE_MIN_LIMIT 1e-300
#define LLMM_SKETCH_RANGE_MAX_LIMIT 1e300

typedef struct llmm_sketch llmm_sketch;

llmm_status llmm_sketch_new(llmm_ctx *ctx, int32_t scale, llmm_sketch **out);
void llmm_sketch_free(llmm_sketch *s);
llmm_status llmm_sketch_set_range(llmm_sketch *s, double lo, double hi);
llmm_status llmm_sketch_range(const llmm_sketch *s, double *lo, double *hi);
llmm_status llmm_sketch_add(llmm_sketch *s, double v);
llmm_status llmm_sketch_add_n(llmm_sketch *s, double v, uint64_t n);
llmm_status llmm_sketch_add_many(llmm_sketch *s, const double *v, size_t n);
llmm_status llmm_sketch_quantile(const llmm_sketch *s, double q, double *out);
llmm_status llmm_sketch_quantiles(const llmm_sketch *s, const double *q, size_t n, double *out);
llmm_status llmm_sketch_rank(const llmm_sketch *s, double v, double *fraction_le);
uint64_t llmm_sketch_count(const llmm_sketch *s);
llmm_status llmm_sketch_sum(const llmm_sketch *s, double *out);
llmm_status llmm_sketch_min(const llmm_sketch *s, double *out);
llmm_status llmm_sketch_max(const llmm_sketch *s, double *out);
llmm_status llmm_sketch_mean(const llmm_sketch *s, double *out);
llmm_status llmm_sketch_special_counts(const llmm_sketch *s, uint64_t *zero, uint64_t *under,
                                       uint64_t *over);
int32_t llmm_sketch_scale(const llmm_sketch *s);
llmm_status llmm_sketch_bucket_span(const llmm_sketch *s, int32_t *first, int32_t *last);
uint64_t llmm_sketch_bucket_count(const llmm_sketch *s, int32_t index);
llmm_status llmm_sketch_index(int32_t scale, double v, int32_t *index);
llmm_status llmm_sketch_bucket_bounds(int32_t scale, int32_t index, double *lower, double *upper);
llmm_status llmm_sketch_merge(llmm_sketch *dst, const llmm_sketch *src);
llmm_status llmm_sketch_subtract(llmm_sketch *dst, const llmm_sketch *earlier);
llmm_status llmm_sketch_reset(llmm_sketch *s);
llmm_status llmm_sketch_clone(const llmm_sketch *s, llmm_sketch **out);
llmm_status llmm_sketch_downscale(llmm_sketch *s, int32_t new_scale);
llmm_status llmm_sketch_copy(llmm_sketch *dst, const llmm_sketch *src);

typedef struct llmm_recorder llmm_recorder;
typedef struct llmm_shard llmm_shard;
llmm_status llmm_recorder_new(llmm_ctx *ctx, int32_t scale, llmm_recorder **out);
llmm_status llmm_recorder_set_range(llmm_recorder *r, double lo, double hi);
llmm_status llmm_recorder_shard(llmm_recorder *r, llmm_shard **out);
llmm_status llmm_shard_add(llmm_shard *sh, double v);
llmm_status llmm_shard_add_many(llmm_shard *sh, const double *v, size_t n);
void llmm_shard_release(llmm_shard *sh);
llmm_status llmm_recorder_snapshot(llmm_recorder *r, llmm_sketch *into);
void llmm_recorder_free(llmm_recorder *r);

#define LLMM_SKETCH_FORMAT_VERSION 1
llmm_status llmm_sketch_serialize(const llmm_sketch *s, uint8_t *buf, size_t cap, size_t *len);
llmm_status llmm_sketch_deserialize(llmm_ctx *ctx, const uint8_t *buf, size_t len,
                                    llmm_sketch **out);
"""

WINDOW = r"""
#define LLMM_WINDOW_SLOT_NS_DEFAULT 1000000000
#define LLMM_WINDOW_SLOTS_DEFAULT 60
#define LLMM_WINDOW_SLOTS_MAX 100000
typedef struct llmm_window llmm_window;
typedef struct llmm_ratio_window llmm_ratio_window;
llmm_status llmm_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots, int32_t scale,
                            llmm_window **out);
void llmm_window_free(llmm_window *w);
llmm_status llmm_window_geometry(const llmm_window *w, uint64_t *slot_ns, uint32_t *slots);
llmm_status llmm_window_add(llmm_window *w, uint64_t now_ns, double v);
llmm_status llmm_window_add_many(llmm_window *w, uint64_t now_ns, const double *v, size_t n);
llmm_status llmm_window_count(llmm_window *w, uint64_t now_ns, uint64_t span_ns, uint64_t *count);
llmm_status llmm_window_quantile(llmm_window *w, uint64_t now_ns, uint64_t span_ns, double q,
                                 double *out);
llmm_status llmm_window_quantiles(llmm_window *w, uint64_t now_ns, uint64_t span_ns,
                                  const double *q, size_t n, double *out);
llmm_status llmm_window_snapshot(llmm_window *w, uint64_t now_ns, uint64_t span_ns,
                                 llmm_sketch *into);
llmm_status llmm_window_reset(llmm_window *w);
llmm_status llmm_ratio_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots,
                                  llmm_ratio_window **out);
void llmm_ratio_window_free(llmm_ratio_window *rw);
llmm_status llmm_ratio_window_add(llmm_ratio_window *rw, uint64_t now_ns, uint64_t events,
                                  uint64_t total);
llmm_status llmm_ratio_window_counts(llmm_ratio_window *rw, uint64_t now_ns, uint64_t span_ns,
                                     uint64_t *events, uint64_t *total);
llmm_status llmm_ratio_window_ratio(llmm_ratio_window *rw, uint64_t now_ns, uint64_t span_ns,
                                    double *ratio);
llmm_status llmm_ratio_window_reset(llmm_ratio_window *rw);
"""

DETECT = r"""
#define LLMM_COLLAPSE_WINDOW_DEFAULT 8
#define LLMM_COLLAPSE_WINDOW_MAX 4096
#define LLMM_DETECT_VALUE_MAX 1e100
#define LLMM_EVENT_LOG_CAPACITY_DEFAULT 1024
#define LLMM_EVENT_LOG_CAPACITY_MAX 16777216
#define LLMM_EVENT_ATTR_TCP_RETRANSMIT "net.tcp.retrans"
#define LLMM_EVENT_ATTR_MAJOR_FAULT "mem.major_fault"
#define LLMM_EVENT_ATTR_SCHED_JITTER "sched.jitter"
#define LLMM_EVENT_ATTR_NUMA_MIGRATION "mem.numa_migration"
#define LLMM_EVENT_ATTR_WEIGHT_SWITCH "model.weight_switch"
#define LLMM_EVENT_ATTR_GC_PAUSE "runtime.gc_pause"
#define LLMM_EVENT_ATTR_CPU_PRESSURE "cpu.pressure"
#define LLMM_EVENT_ATTR_MEMORY_PRESSURE "mem.pressure"
#define LLMM_EVENT_ATTR_IO_PRESSURE "io.pressure"
#define LLMM_EVENT_ATTR_CPU_FREQ_DROP "cpu.freq_drop"
#define LLMM_EVENT_ATTR_CTX_SWITCHES "sched.ctx_switches"
#define LLMM_EVENT_ATTR_CPU_THROTTLE "cpu.throttle"
#define LLMM_STABILITY_WINDOWS_DEFAULT 5
#define LLMM_STABILITY_WINDOWS_MAX 64
#define LLMM_SATURATION_WINDOW_DEFAULT 64
#define LLMM_SATURATION_WINDOW_MAX 1048576
typedef enum llmm_spike_level {
    LLMM_SPIKE_NONE = 0,
    LLMM_SPIKE_LEVEL1 = 1,
    LLMM_SPIKE_LEVEL2 = 2
} llmm_spike_level;
typedef enum llmm_spike_option {
    LLMM_SPIKE_BASE_QUANTILE = 1,
    LLMM_SPIKE_SEVERE_QUANTILE = 2,
    LLMM_SPIKE_SEVERE_FACTOR = 3,
    LLMM_SPIKE_WARMUP = 4,
    LLMM_SPIKE_SLOT_NS = 5,
    LLMM_SPIKE_SLOTS = 6,
    LLMM_SPIKE_SCALE = 7
} llmm_spike_option;
typedef struct llmm_spike_stats {
    uint32_t struct_size;
    int32_t ready;
    double base_threshold;
    double severe_threshold;
    uint64_t baseline_samples;
    uint64_t window_samples;
    uint64_t window_classified;
    uint64_t window_level1;
    uint64_t window_level2;
    uint64_t total_samples;
    uint64_t total_classified;
    uint64_t total_level1;
    uint64_t total_level2;
} llmm_spike_stats;
typedef struct llmm_spike llmm_spike;
typedef enum llmm_collapse_option {
    LLMM_COLLAPSE_WINDOW = 1,
    LLMM_COLLAPSE_K = 2,
    LLMM_COLLAPSE_SIGMA_FLOOR = 3,
    LLMM_COLLAPSE_SWITCH_NS = 4,
    LLMM_COLLAPSE_REQUIRE_SWITCH = 5,
    LLMM_COLLAPSE_TPS_DROP = 6,
    LLMM_COLLAPSE_MEMBW_BELOW = 7,
    LLMM_COLLAPSE_CONFIRM_NS = 8
} llmm_collapse_option;
typedef struct llmm_collapse_verdict {
    uint32_t struct_size;
    int32_t collapsed;
    int32_t ready;
    int32_t outlier;
    int32_t after_switch;
    int32_t floored;
    double mean;
    double sigma;
    double threshold;
    uint64_t since_switch_ns;
    uint64_t samples;
} llmm_collapse_verdict;
typedef struct llmm_collapse_report {
    uint32_t struct_size;
    int32_t signals;
    int32_t latency_confirmed;
    int32_t tps_known;
    int32_t tps_confirmed;
    int32_t membw_known;
    int32_t membw_confirmed;
    int32_t open;
    uint64_t switch_ns;
    uint64_t latencies;
    uint64_t flagged;
    double tps_before;
    double tps_after;
    double tps_drop;
    double membw;
} llmm_collapse_report;
typedef struct llmm_collapse llmm_collapse;
typedef enum llmm_event_type {
    LLMM_EVENT_TCP_RETRANSMIT = 1,
    LLMM_EVENT_MAJOR_FAULT = 2,
    LLMM_EVENT_SCHED_JITTER = 3,
    LLMM_EVENT_NUMA_MIGRATION = 4,
    LLMM_EVENT_WEIGHT_SWITCH = 5,
    LLMM_EVENT_GC_PAUSE = 6,
    LLMM_EVENT_CPU_PRESSURE = 7,
    LLMM_EVENT_MEMORY_PRESSURE = 8,
    LLMM_EVENT_IO_PRESSURE = 9,
    LLMM_EVENT_CPU_FREQ_DROP = 10,
    LLMM_EVENT_CTX_SWITCHES = 11,
    LLMM_EVENT_CPU_THROTTLE = 12,
    LLMM_EVENT_USER = 65536
} llmm_event_type;
typedef struct llmm_event {
    uint64_t time_ns;
    uint64_t before_ns;
    double value;
    int32_t type;
    uint32_t reserved;
} llmm_event;
typedef struct llmm_event_log llmm_event_log;
typedef enum llmm_correlation_method {
    LLMM_CORRELATION_PEARSON = 1,
    LLMM_CORRELATION_SPEARMAN = 2
} llmm_correlation_method;
typedef enum llmm_stability_option {
    LLMM_STABILITY_WINDOWS = 1,
    LLMM_STABILITY_EPSILON = 2
} llmm_stability_option;
typedef struct llmm_stability_reading {
    uint32_t struct_size;
    int32_t stable;
    uint32_t held;
    uint32_t windows;
    double min;
    double max;
    double ratio;
    uint64_t total;
} llmm_stability_reading;
typedef struct llmm_stability llmm_stability;
typedef enum llmm_saturation_option {
    LLMM_SATURATION_WINDOW = 1,
    LLMM_SATURATION_CONFIDENCE = 2
} llmm_saturation_option;
typedef struct llmm_saturation_reading {
    uint32_t struct_size;
    int32_t saturated;
    int32_t ready;
    int32_t latency_rising;
    int32_t inflight_rising;
    uint32_t samples;
    double latency_slope;
    double latency_slope_se;
    double inflight_slope;
    double inflight_slope_se;
    uint64_t total;
} llmm_saturation_reading;
typedef struct llmm_saturation llmm_saturation;
llmm_status llmm_spike_new(llmm_ctx *ctx, llmm_spike **out);
void llmm_spike_free(llmm_spike *d);
llmm_status llmm_spike_set_f64(llmm_spike *d, llmm_spike_option key, double value);
llmm_status llmm_spike_get_f64(const llmm_spike *d, llmm_spike_option key, double *value);
llmm_status llmm_spike_set_u64(llmm_spike *d, llmm_spike_option key, uint64_t value);
llmm_status llmm_spike_get_u64(const llmm_spike *d, llmm_spike_option key, uint64_t *value);
llmm_status llmm_spike_observe(llmm_spike *d, uint64_t now_ns, double latency,
                               llmm_spike_level *level);
llmm_status llmm_spike_rate(llmm_spike *d, uint64_t now_ns, double *rate);
llmm_status llmm_spike_stats_init(llmm_spike_stats *s);
llmm_status llmm_spike_get_stats(llmm_spike *d, uint64_t now_ns, llmm_spike_stats *s);
llmm_status llmm_spike_reset(llmm_spike *d);
llmm_status llmm_collapse_new(llmm_ctx *ctx, llmm_collapse **out);
void llmm_collapse_free(llmm_collapse *c);
llmm_status llmm_collapse_set_f64(llmm_collapse *c, llmm_collapse_option key, double value);
llmm_status llmm_collapse_get_f64(const llmm_collapse *c, llmm_collapse_option key, double *value);
llmm_status llmm_collapse_set_u64(llmm_collapse *c, llmm_collapse_option key, uint64_t value);
llmm_status llmm_collapse_get_u64(const llmm_collapse *c, llmm_collapse_option key,
                                  uint64_t *value);
llmm_status llmm_collapse_mark_switch(llmm_collapse *c, uint64_t now_ns);
llmm_status llmm_collapse_observe(llmm_collapse *c, uint64_t now_ns, double latency,
                                  int32_t *collapsed);
llmm_status llmm_collapse_verdict_init(llmm_collapse_verdict *v);
llmm_status llmm_collapse_observe_ex(llmm_collapse *c, uint64_t now_ns, double latency,
                                     llmm_collapse_verdict *v);
llmm_status llmm_collapse_observe_tps(llmm_collapse *c, uint64_t now_ns, double tps);
llmm_status llmm_collapse_observe_membw(llmm_collapse *c, uint64_t now_ns, double utilisation);
llmm_status llmm_collapse_report_init(llmm_collapse_report *r);
llmm_status llmm_collapse_switch_report(const llmm_collapse *c, llmm_collapse_report *r);
llmm_status llmm_collapse_counts(const llmm_collapse *c, uint64_t *samples, uint64_t *collapsed,
                                 uint64_t *switches);
llmm_status llmm_collapse_reset(llmm_collapse *c);
const char *llmm_event_attr_name(int32_t type);
llmm_status llmm_event_log_new(llmm_ctx *ctx, uint32_t capacity, llmm_event_log **out);
void llmm_event_log_free(llmm_event_log *log);
llmm_status llmm_event_log_add(llmm_event_log *log, uint64_t now_ns, int32_t type, double value);
llmm_status llmm_event_log_lookback(const llmm_event_log *log, uint64_t at_ns,
                                    uint64_t lookback_ns, llmm_event *out, size_t cap,
                                    size_t *len);
llmm_status llmm_event_log_count(const llmm_event_log *log, int32_t type, uint64_t from_ns,
                                 uint64_t to_ns, uint64_t *count);
llmm_status llmm_event_log_counts(const llmm_event_log *log, uint64_t *held, uint64_t *total,
                                  uint64_t *dropped);
llmm_status llmm_event_log_reset(llmm_event_log *log);
llmm_status llmm_correlation(llmm_ctx *ctx, const double *x, const double *y, size_t n,
                             llmm_correlation_method method, double *r);
llmm_status llmm_stability_new(llmm_ctx *ctx, llmm_stability **out);
void llmm_stability_free(llmm_stability *s);
llmm_status llmm_stability_set_f64(llmm_stability *s, llmm_stability_option key, double value);
llmm_status llmm_stability_get_f64(const llmm_stability *s, llmm_stability_option key,
                                   double *value);
llmm_status llmm_stability_set_u64(llmm_stability *s, llmm_stability_option key, uint64_t value);
llmm_status llmm_stability_get_u64(const llmm_stability *s, llmm_stability_option key,
                                   uint64_t *value);
llmm_status llmm_stability_add(llmm_stability *s, double mean, int32_t *stable);
llmm_status llmm_stability_reading_init(llmm_stability_reading *r);
llmm_status llmm_stability_read(const llmm_stability *s, llmm_stability_reading *r);
llmm_status llmm_stability_reset(llmm_stability *s);
llmm_status llmm_saturation_new(llmm_ctx *ctx, llmm_saturation **out);
void llmm_saturation_free(llmm_saturation *s);
llmm_status llmm_saturation_set_f64(llmm_saturation *s, llmm_saturation_option key, double value);
llmm_status llmm_saturation_get_f64(const llmm_saturation *s, llmm_saturation_option key,
                                    double *value);
llmm_status llmm_saturation_set_u64(llmm_saturation *s, llmm_saturation_option key,
                                    uint64_t value);
llmm_status llmm_saturation_get_u64(const llmm_saturation *s, llmm_saturation_option key,
                                    uint64_t *value);
llmm_status llmm_saturation_observe(llmm_saturation *s, uint64_t now_ns, double latency,
                                    double in_flight, int32_t *saturated);
llmm_status llmm_saturation_reading_init(llmm_saturation_reading *r);
llmm_status llmm_saturation_read(const llmm_saturation *s, llmm_saturation_reading *r);
llmm_status llmm_saturation_reset(llmm_saturation *s);
"""

FIT = r"""
#define LLMM_POLY_MAX_DEGREE 16
typedef struct llmm_fit_stats {
    uint32_t struct_size;
    uint32_t rank;
    uint64_t n;
    double r2;
    double rss;
    double tss;
    double residual_std;
    double condition;
    double centre;
    double scale;
} llmm_fit_stats;
typedef enum llmm_knee_quality {
    LLMM_KNEE_NONE = 0,
    LLMM_KNEE_WEAK = 1,
    LLMM_KNEE_OK = 2
} llmm_knee_quality;
typedef struct llmm_knee {
    uint32_t struct_size;
    llmm_knee_quality quality;
    double knee;
    double qps;
    double strength;
} llmm_knee;
typedef struct llmm_usl {
    uint32_t struct_size;
    llmm_knee_quality quality;
    uint32_t iterations;
    int32_t kappa_at_bound;
    double lambda;
    double sigma;
    double kappa;
    double n_max;
    double x_max;
    double r2;
    double rss;
} llmm_usl;
typedef struct llmm_knee_options {
    uint32_t struct_size;
    uint32_t smooth;
    double trim;
    double collapse_fraction;
    double kneedle_sensitivity;
} llmm_knee_options;
llmm_status llmm_fit_stats_init(llmm_fit_stats *st);
llmm_status llmm_polyfit(const double *x, const double *y, size_t n, uint32_t degree,
                         double *coeffs, llmm_fit_stats *st);
llmm_status llmm_polyfit_weighted(const double *x, const double *y, const double *w, size_t n,
                                  uint32_t degree, double *coeffs, llmm_fit_stats *st);
llmm_status llmm_poly_eval(const double *coeffs, uint32_t degree, double x, double *y);
llmm_status llmm_poly_residuals(const double *coeffs, uint32_t degree, const double *x,
                                const double *y, size_t n, double *residuals, double *rss);
llmm_status llmm_poly_deriv(const double *coeffs, uint32_t degree, uint32_t order, double *out,
                            uint32_t *out_degree);
llmm_status llmm_poly_roots(const double *coeffs, uint32_t degree, double *roots, size_t cap,
                            size_t *nroots);
llmm_status llmm_knee_init(llmm_knee *k);
llmm_status llmm_knee_inflection(const double *conc, const double *qps, size_t n, double trim,
                                 double *knee);
llmm_status llmm_knee_inflection_ex(const double *conc, const double *qps, size_t n, double trim,
                                    llmm_knee *out);
llmm_status llmm_knee_collapse(const double *conc, const double *qps, size_t n, double fraction,
                               uint32_t smooth, llmm_knee *out);
llmm_status llmm_knee_kneedle(const double *conc, const double *qps, size_t n, double sensitivity,
                              llmm_knee *out);
llmm_status llmm_usl_init(llmm_usl *m);
llmm_status llmm_usl_fit(const double *conc, const double *qps, size_t n, llmm_usl *model);
llmm_status llmm_usl_throughput(const llmm_usl *model, double n, double *x);
llmm_status llmm_usl_latency(const llmm_usl *model, double n, double *latency);
llmm_status llmm_usl_slo_concurrency(const llmm_usl *model, double max_latency, double *n);
llmm_status llmm_knee_options_init(llmm_knee_options *o);
llmm_status llmm_knee_report(const double *conc, const double *qps, size_t n,
                             const llmm_knee_options *opt, llmm_knee *inflection,
                             llmm_knee *collapse, llmm_knee *kneedle, llmm_usl *usl);
"""

CAPACITY = r"""
#define LLMM_LITTLES_LAW_SAFETY_DEFAULT 0.85
llmm_status llmm_decay_rate(double actual, double peak, double *eta);
llmm_status llmm_roofline(double peak_flops, double bandwidth_bytes, double intensity,
                          double *attainable);
llmm_status llmm_roofline_critical_intensity(double peak_flops, double bandwidth_bytes,
                                             double *intensity);
llmm_status llmm_arithmetic_intensity(double flops, double bytes, double *intensity);
llmm_status llmm_scaling_decay(double ideal, double measured, double *decay);
llmm_status llmm_scaling_decay_devices(double single, uint32_t devices, double measured,
                                       double *decay);
llmm_status llmm_comm_share(double comm_time, double step_time, double *share);
llmm_status llmm_seqlen_decay(double tps_short, double tps_long, double *decay);
llmm_status llmm_littles_law_tps(double p999_ms, double concurrency, double safety, double *tps);
"""

RESOURCE = r"""
#define LLMM_LII_WINDOW_DEFAULT 64
#define LLMM_LII_WINDOW_MAX 1048576
#define LLMM_KV_HIT_WINDOW_NS_DEFAULT 60000000000
#define LLMM_RESOURCE_WINDOW_SLOTS 60
typedef enum llmm_lii_tier {
    LLMM_LII_KEEP = 0,
    LLMM_LII_PREFETCH = 1,
    LLMM_LII_ADAPT = 2
} llmm_lii_tier;
typedef enum llmm_lii_option {
    LLMM_LII_PREFETCH_AT = 0,
    LLMM_LII_ADAPT_AT = 1,
    LLMM_LII_SCALE_AT = 2
} llmm_lii_option;
typedef struct llmm_lii_reading {
    uint32_t struct_size;
    llmm_lii_tier tier;
    int32_t scale;
    uint32_t samples;
    double lii;
    double mean_cpu;
    double mean_gpu;
} llmm_lii_reading;
typedef struct llmm_lii_monitor llmm_lii_monitor;
typedef struct llmm_kv_occupancy_result {
    uint32_t struct_size;
    uint32_t reserved_;
    uint64_t wasted_slots;
    double block_occupancy;
    double token_occupancy;
    double gap;
    double internal_fragmentation;
} llmm_kv_occupancy_result;
typedef struct llmm_kv_hit_reading {
    uint32_t struct_size;
    uint32_t reserved_;
    uint64_t hits;
    uint64_t lookups;
    double hit_rate;
    int64_t ttl;
} llmm_kv_hit_reading;
typedef struct llmm_kv_hit_tracker llmm_kv_hit_tracker;
typedef enum llmm_tlb_workload {
    LLMM_TLB_OLTP_DATABASE = 0,
    LLMM_TLB_JAVA_MICROSERVICE = 1
} llmm_tlb_workload;
typedef struct llmm_tlb_reading {
    uint32_t struct_size;
    int32_t alert;
    uint64_t misses;
    uint64_t accesses;
    uint64_t window_ns;
    double miss_rate;
    double max_miss_rate;
} llmm_tlb_reading;
typedef struct llmm_tlb_monitor llmm_tlb_monitor;
llmm_status llmm_lii(const double *cpu, const double *gpu, size_t n, double *lii);
llmm_status llmm_lii_reading_init(llmm_lii_reading *r);
llmm_status llmm_lii_monitor_new(llmm_ctx *ctx, uint32_t window, llmm_lii_monitor **out);
void llmm_lii_monitor_free(llmm_lii_monitor *m);
llmm_status llmm_lii_monitor_set_f64(llmm_lii_monitor *m, llmm_lii_option opt, double value);
llmm_status llmm_lii_monitor_get_f64(const llmm_lii_monitor *m, llmm_lii_option opt,
                                     double *value);
llmm_status llmm_lii_monitor_add(llmm_lii_monitor *m, double cpu, double gpu);
llmm_status llmm_lii_monitor_read(const llmm_lii_monitor *m, llmm_lii_reading *r);
llmm_status llmm_lii_monitor_reset(llmm_lii_monitor *m);
llmm_status llmm_kv_fragmentation(const uint64_t *free_extents, size_t n, double *f);
llmm_status llmm_kv_evict_threshold(double fragmentation, double *threshold);
llmm_status llmm_kv_ttl(double avg_hit_rate, int64_t *ttl);
llmm_status llmm_kv_occupancy_result_init(llmm_kv_occupancy_result *r);
llmm_status llmm_kv_occupancy(uint64_t block_size, uint64_t blocks_total, uint64_t blocks_used,
                              uint64_t tokens_stored, llmm_kv_occupancy_result *r);
llmm_status llmm_kv_hit_reading_init(llmm_kv_hit_reading *r);
llmm_status llmm_kv_hit_tracker_new(llmm_ctx *ctx, uint64_t window_ns, llmm_kv_hit_tracker **out);
void llmm_kv_hit_tracker_free(llmm_kv_hit_tracker *t);
llmm_status llmm_kv_hit_tracker_add(llmm_kv_hit_tracker *t, uint64_t now_ns, uint64_t hits,
                                    uint64_t lookups);
llmm_status llmm_kv_hit_tracker_read(llmm_kv_hit_tracker *t, uint64_t now_ns,
                                     llmm_kv_hit_reading *r);
llmm_status llmm_kv_hit_tracker_reset(llmm_kv_hit_tracker *t);
llmm_status llmm_tlb_preset(llmm_tlb_workload workload, double *max_miss_rate,
                            uint64_t *window_ns);
llmm_status llmm_page_walk_ns(double cycles, double cpu_hz, double *ns);
llmm_status llmm_tlb_reading_init(llmm_tlb_reading *r);
llmm_status llmm_tlb_monitor_new(llmm_ctx *ctx, llmm_tlb_workload workload,
                                 llmm_tlb_monitor **out);
llmm_status llmm_tlb_monitor_new_custom(llmm_ctx *ctx, double max_miss_rate, uint64_t window_ns,
                                        llmm_tlb_monitor **out);
void llmm_tlb_monitor_free(llmm_tlb_monitor *m);
llmm_status llmm_tlb_monitor_add(llmm_tlb_monitor *m, uint64_t now_ns, uint64_t misses,
                                 uint64_t accesses);
llmm_status llmm_tlb_monitor_read(llmm_tlb_monitor *m, uint64_t now_ns, llmm_tlb_reading *r);
llmm_status llmm_tlb_monitor_reset(llmm_tlb_monitor *m);
"""

SLO = r"""
#define LLMM_BURN_SLOT_NS_DEFAULT 10000000000
#define LLMM_BURN_WINDOWS 4
#define LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT 300000000000
#define LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT 0.05
#define LLMM_ERROR_TRIGGER_SLOTS 60
typedef struct llmm_slo_result {
    uint32_t struct_size;
    int32_t satisfied;
    int32_t latency_ok;
    int32_t errors_ok;
    uint64_t successes;
    uint64_t errors;
    double quantile;
    double latency;
    double error_rate;
} llmm_slo_result;
typedef struct llmm_slo_window llmm_slo_window;
typedef enum llmm_goodput_option {
    LLMM_GOODPUT_TTFT_MAX = 1,
    LLMM_GOODPUT_TPOT_MAX = 2,
    LLMM_GOODPUT_E2E_MAX = 3
} llmm_goodput_option;
typedef struct llmm_goodput_result {
    uint32_t struct_size;
    uint32_t reserved_;
    uint64_t requests;
    uint64_t completed;
    uint64_t good;
    double fraction;
    double rate_per_s;
    double throughput_per_s;
} llmm_goodput_result;
typedef struct llmm_goodput llmm_goodput;
typedef enum llmm_burn_window {
    LLMM_BURN_FAST_LONG = 0,
    LLMM_BURN_FAST_SHORT = 1,
    LLMM_BURN_SLOW_LONG = 2,
    LLMM_BURN_SLOW_SHORT = 3
} llmm_burn_window;
typedef enum llmm_burn_option {
    LLMM_BURN_SLO_TARGET = 1,
    LLMM_BURN_FAST_FACTOR = 2,
    LLMM_BURN_SLOW_FACTOR = 3,
    LLMM_BURN_FAST_LONG_NS = 4,
    LLMM_BURN_FAST_SHORT_NS = 5,
    LLMM_BURN_SLOW_LONG_NS = 6,
    LLMM_BURN_SLOW_SHORT_NS = 7
} llmm_burn_option;
typedef struct llmm_burn_result {
    uint32_t struct_size;
    int32_t fast_alert;
    int32_t slow_alert;
    uint32_t reserved_;
    uint64_t requests[LLMM_BURN_WINDOWS];
    uint64_t errors[LLMM_BURN_WINDOWS];
    double error_rate[LLMM_BURN_WINDOWS];
    double burn_rate[LLMM_BURN_WINDOWS];
} llmm_burn_result;
typedef struct llmm_burn llmm_burn;
typedef enum llmm_error_trigger_option {
    LLMM_ERROR_TRIGGER_MAX_SHARE = 1,
    LLMM_ERROR_TRIGGER_MIN_REQUESTS = 2
} llmm_error_trigger_option;
typedef struct llmm_error_trigger_reading {
    uint32_t struct_size;
    int32_t fired;
    uint64_t errors;
    uint64_t requests;
    double share;
} llmm_error_trigger_reading;
typedef struct llmm_error_trigger llmm_error_trigger;
llmm_status llmm_slo_result_init(llmm_slo_result *r);
llmm_status llmm_slo_check(const llmm_sketch *ok_latencies, uint64_t errors, double p95_max,
                           double err_max, llmm_slo_result *r);
llmm_status llmm_slo_check_quantile(const llmm_sketch *ok_latencies, uint64_t errors, double q,
                                    double latency_max, double err_max, llmm_slo_result *r);
llmm_status llmm_slo_window_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots, int32_t scale,
                                llmm_slo_window **out);
void llmm_slo_window_free(llmm_slo_window *w);
llmm_status llmm_slo_window_add(llmm_slo_window *w, uint64_t now_ns, double latency);
llmm_status llmm_slo_window_add_errors(llmm_slo_window *w, uint64_t now_ns, uint64_t errors);
llmm_status llmm_slo_window_check(llmm_slo_window *w, uint64_t now_ns, uint64_t span_ns, double q,
                                  double latency_max, double err_max, llmm_slo_result *r);
llmm_status llmm_slo_window_reset(llmm_slo_window *w);
llmm_status llmm_goodput_result_init(llmm_goodput_result *r);
llmm_status llmm_goodput_tpot(double e2e, double ttft, uint64_t output_tokens, double *tpot);
llmm_status llmm_goodput_new(llmm_ctx *ctx, llmm_goodput **out);
void llmm_goodput_free(llmm_goodput *g);
llmm_status llmm_goodput_set_f64(llmm_goodput *g, llmm_goodput_option opt, double value);
llmm_status llmm_goodput_get_f64(const llmm_goodput *g, llmm_goodput_option opt, double *value);
llmm_status llmm_goodput_observe(llmm_goodput *g, double ttft, double tpot, double e2e,
                                 int32_t *good);
llmm_status llmm_goodput_add_failures(llmm_goodput *g, uint64_t n);
llmm_status llmm_goodput_read(const llmm_goodput *g, uint64_t duration_ns, llmm_goodput_result *r);
llmm_status llmm_goodput_reset(llmm_goodput *g);
llmm_status llmm_burn_result_init(llmm_burn_result *r);
llmm_status llmm_burn_rate(double error_rate, double slo_target, double *burn);
llmm_status llmm_burn_budget_spent(double burn_rate, uint64_t window_ns, uint64_t period_ns,
                                   double *spent);
llmm_status llmm_burn_new(llmm_ctx *ctx, double slo_target, uint64_t slot_ns, uint32_t slots,
                          llmm_burn **out);
void llmm_burn_free(llmm_burn *b);
llmm_status llmm_burn_set_f64(llmm_burn *b, llmm_burn_option opt, double value);
llmm_status llmm_burn_get_f64(const llmm_burn *b, llmm_burn_option opt, double *value);
llmm_status llmm_burn_set_u64(llmm_burn *b, llmm_burn_option opt, uint64_t value);
llmm_status llmm_burn_get_u64(const llmm_burn *b, llmm_burn_option opt, uint64_t *value);
llmm_status llmm_burn_add(llmm_burn *b, uint64_t now_ns, uint64_t errors, uint64_t requests);
llmm_status llmm_burn_evaluate(llmm_burn *b, uint64_t now_ns, llmm_burn_result *r);
llmm_status llmm_burn_reset(llmm_burn *b);
llmm_status llmm_error_trigger_reading_init(llmm_error_trigger_reading *r);
llmm_status llmm_error_trigger_new(llmm_ctx *ctx, uint64_t window_ns, llmm_error_trigger **out);
void llmm_error_trigger_free(llmm_error_trigger *t);
llmm_status llmm_error_trigger_set_f64(llmm_error_trigger *t, llmm_error_trigger_option opt,
                                       double value);
llmm_status llmm_error_trigger_get_f64(const llmm_error_trigger *t, llmm_error_trigger_option opt,
                                       double *value);
llmm_status llmm_error_trigger_set_u64(llmm_error_trigger *t, llmm_error_trigger_option opt,
                                       uint64_t value);
llmm_status llmm_error_trigger_get_u64(const llmm_error_trigger *t, llmm_error_trigger_option opt,
                                       uint64_t *value);
llmm_status llmm_error_trigger_add(llmm_error_trigger *t, uint64_t now_ns, uint64_t errors,
                                   uint64_t requests);
llmm_status llmm_error_trigger_check(llmm_error_trigger *t, uint64_t now_ns,
                                     llmm_error_trigger_reading *r);
llmm_status llmm_error_trigger_reset(llmm_error_trigger *t);
"""

SCORE = r"""
#define LLMM_LAYER_COUNT 4
#define LLMM_SCORE_NAME_MAX 255

typedef enum llmm_layer {
    LLMM_LAYER_CAPABILITY = 0,
    LLMM_LAYER_PERFORMANCE = 1,
    LLMM_LAYER_ENGINEERING = 2,
    LLMM_LAYER_BUSINESS = 3
} llmm_layer;

typedef enum llmm_scenario {
    LLMM_SCENARIO_CUSTOMER_SERVICE = 0,
    LLMM_SCENARIO_CODE_ASSISTANT = 1,
    LLMM_SCENARIO_CONTENT_GENERATION = 2,
    LLMM_SCENARIO_CUSTOM = 3
} llmm_scenario;

typedef enum llmm_direction {
    LLMM_HIGHER_IS_BETTER = 0,
    LLMM_LOWER_IS_BETTER = 1
} llmm_direction;

typedef enum llmm_missing_policy {
    LLMM_MISSING_REFUSE = 0,
    LLMM_MISSING_RENORMALIZE = 1
} llmm_missing_policy;

typedef enum llmm_scorecard_option {
    LLMM_SCORECARD_MISSING = 0
} llmm_scorecard_option;

typedef struct llmm_score_result {
    uint32_t struct_size;
    llmm_scenario scenario;
    uint32_t layers_missing;
    int32_t renormalized;
    double overall;
    double layer_score[LLMM_LAYER_COUNT];
    double layer_weight[LLMM_LAYER_COUNT];
    double layer_effective_weight[LLMM_LAYER_COUNT];
    double layer_contribution[LLMM_LAYER_COUNT];
    int32_t layer_present[LLMM_LAYER_COUNT];
    uint32_t layer_metrics[LLMM_LAYER_COUNT];
    uint32_t layer_observed[LLMM_LAYER_COUNT];
} llmm_score_result;

typedef struct llmm_scorecard llmm_scorecard;

llmm_status llmm_score_result_init(llmm_score_result *r);
llmm_status llmm_scenario_weights(llmm_scenario preset, double *weights, size_t n);
llmm_status llmm_score_normalize(llmm_direction dir, double target, double worst, double value,
                                 double *score);
llmm_status llmm_scorecard_new(llmm_ctx *ctx, llmm_scenario preset, llmm_scorecard **out);
void llmm_scorecard_free(llmm_scorecard *sc);
llmm_status llmm_scorecard_set_weights(llmm_scorecard *sc, const double *weights, size_t n);
llmm_status llmm_scorecard_weights(const llmm_scorecard *sc, double *weights, size_t n);
llmm_status llmm_scorecard_set_i32(llmm_scorecard *sc, llmm_scorecard_option opt, int32_t value);
llmm_status llmm_scorecard_get_i32(const llmm_scorecard *sc, llmm_scorecard_option opt,
                                   int32_t *value);
llmm_status llmm_scorecard_add_metric(llmm_scorecard *sc, llmm_layer layer, const char *name,
                                      llmm_direction dir, double target, double worst,
                                      double weight, uint32_t *id);
llmm_status llmm_scorecard_observe(llmm_scorecard *sc, const char *name, double value);
llmm_status llmm_scorecard_observe_id(llmm_scorecard *sc, uint32_t id, double value);
llmm_status llmm_scorecard_clear(llmm_scorecard *sc);
llmm_status llmm_scorecard_metric_score(const llmm_scorecard *sc, uint32_t id, double *score);
llmm_status llmm_scorecard_evaluate(const llmm_scorecard *sc, llmm_score_result *r);
"""

EXPORT = r"""
typedef enum llmm_prom_format {
    LLMM_PROM_TEXT = 0,
    LLMM_PROM_PROTOBUF = 1
} llmm_prom_format;
typedef enum llmm_prom_type {
    LLMM_PROM_COUNTER = 0,
    LLMM_PROM_GAUGE = 1,
    LLMM_PROM_SUMMARY = 2,
    LLMM_PROM_HISTOGRAM = 3,
    LLMM_PROM_NATIVE_HISTOGRAM = 4
} llmm_prom_type;
typedef struct llmm_prom_writer llmm_prom_writer;
typedef enum llmm_bucket_list {
    LLMM_BUCKETS_VLLM_TTFT = 0,
    LLMM_BUCKETS_VLLM_INTER_TOKEN = 1,
    LLMM_BUCKETS_VLLM_REQUEST_LATENCY = 2,
    LLMM_BUCKETS_OTEL_GENAI_DURATION = 3,
    LLMM_BUCKETS_OTEL_GENAI_TTFT = 4,
    LLMM_BUCKETS_OTEL_GENAI_TPOT = 5,
    LLMM_BUCKETS_OTEL_GENAI_TOKENS = 6
} llmm_bucket_list;
typedef enum llmm_otlp_temporality {
    LLMM_OTLP_DELTA = 1,
    LLMM_OTLP_CUMULATIVE = 2
} llmm_otlp_temporality;
typedef struct llmm_otlp_options {
    uint32_t struct_size;
    uint64_t start_time_unix_nano;
    uint64_t time_unix_nano;
    double unit_to_seconds;
    uint32_t max_buckets;
    llmm_otlp_temporality temporality;
    const char *attributes;
    const char *description;
    const char *unit;
    const char *resource_attributes;
} llmm_otlp_options;
llmm_status llmm_export_prometheus_text(const llmm_sketch *s, const char *name, const char *labels,
                                        double unit_to_seconds, uint8_t *buf, size_t cap,
                                        size_t *len);
llmm_status llmm_prom_label_escape(const char *value, uint8_t *buf, size_t cap, size_t *len);
llmm_status llmm_prom_writer_new(llmm_ctx *ctx, llmm_prom_format format, llmm_prom_writer **out);
void llmm_prom_writer_free(llmm_prom_writer *w);
llmm_status llmm_prom_writer_reset(llmm_prom_writer *w, llmm_prom_format format);
llmm_status llmm_prom_writer_family(llmm_prom_writer *w, const char *name, const char *help,
                                    llmm_prom_type type, const double *points, size_t npoints);
llmm_status llmm_prom_writer_value(llmm_prom_writer *w, const char *labels, double value);
llmm_status llmm_prom_writer_sketch(llmm_prom_writer *w, const char *labels, const llmm_sketch *s,
                                    double unit_to_seconds);
llmm_status llmm_prom_writer_finish(llmm_prom_writer *w, uint8_t *buf, size_t cap, size_t *len);
llmm_status llmm_prom_writer_data(llmm_prom_writer *w, const uint8_t **data, size_t *len);
llmm_status llmm_prom_negotiate(const char *accept, llmm_prom_format *format,
                                const char **content_type);
const char *llmm_prom_content_type(llmm_prom_format format);
llmm_status llmm_prom_buckets(llmm_bucket_list which, double *out, size_t cap, size_t *n);
llmm_status llmm_prom_writer_set_classic_list(llmm_prom_writer *w, llmm_bucket_list which);
llmm_status llmm_prom_writer_set_classic_max(llmm_prom_writer *w, uint32_t max_bounds);
llmm_status llmm_otlp_options_init(llmm_otlp_options *o);
llmm_status llmm_export_otlp_json_point(const llmm_sketch *s, const llmm_sketch *earlier,
                                        const llmm_otlp_options *o, uint8_t *buf, size_t cap,
                                        size_t *len);
llmm_status llmm_export_otlp_json(const llmm_sketch *s, const llmm_sketch *earlier,
                                  const char *name, const llmm_otlp_options *o, uint8_t *buf,
                                  size_t cap, size_t *len);
"""

HOST = r"""
typedef enum llmm_host_signal {
    LLMM_HOST_TCP_RETRANS = 1,
    LLMM_HOST_MAJOR_FAULTS = 2,
    LLMM_HOST_CTX_SWITCHES = 3,
    LLMM_HOST_RUN_DELAY = 4,
    LLMM_HOST_NUMA_MIGRATIONS = 5,
    LLMM_HOST_PSI_CPU = 6,
    LLMM_HOST_PSI_MEMORY = 7,
    LLMM_HOST_PSI_IO = 8,
    LLMM_HOST_CPU_FREQ_MHZ = 9,
    LLMM_HOST_CPU_THROTTLE = 10
} llmm_host_signal;
typedef enum llmm_host_option {
    LLMM_HOST_TCP_RETRANS_ABOVE = 1,
    LLMM_HOST_MAJOR_FAULTS_ABOVE = 2,
    LLMM_HOST_CTX_SWITCHES_ABOVE = 3,
    LLMM_HOST_RUN_DELAY_ABOVE = 4,
    LLMM_HOST_NUMA_MIGRATIONS_ABOVE = 5,
    LLMM_HOST_PSI_CPU_ABOVE = 6,
    LLMM_HOST_PSI_MEMORY_ABOVE = 7,
    LLMM_HOST_PSI_IO_ABOVE = 8,
    LLMM_HOST_CPU_FREQ_DROP = 9,
    LLMM_HOST_CPU_THROTTLE_ABOVE = 10
} llmm_host_option;
typedef struct llmm_host_sampler llmm_host_sampler;
const char *llmm_host_signal_name(llmm_host_signal sig);
int32_t llmm_host_signal_event(llmm_host_signal sig);
llmm_status llmm_host_sampler_new(llmm_ctx *ctx, const char *root, llmm_host_sampler **out);
void llmm_host_sampler_free(llmm_host_sampler *s);
llmm_status llmm_host_sampler_set_f64(llmm_host_sampler *s, llmm_host_option key, double value);
llmm_status llmm_host_sampler_get_f64(const llmm_host_sampler *s, llmm_host_option key,
                                      double *value);
llmm_status llmm_host_sample(llmm_host_sampler *s, uint64_t now_ns, llmm_event_log *log);
llmm_status llmm_host_signal_rate(const llmm_host_sampler *s, llmm_host_signal sig,
                                  double *per_second);
"""

#: module name -> C text, in dependency order (a text may use the types of the ones before it)
MODULES: Dict[str, str] = {
    "core": CORE,
    "sketch": SKETCH,
    "window": WINDOW,
    "detect": DETECT,
    "fit": FIT,
    "capacity": CAPACITY,
    "resource": RESOURCE,
    "slo": SLO,
    "score": SCORE,
    "export": EXPORT,
    "host": HOST,
}
