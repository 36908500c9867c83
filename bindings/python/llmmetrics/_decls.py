"""The binding's copy of the libllmmetrics public API, as C declarations, one text per module.

``_lib.py`` derives every ctypes ``argtypes`` / ``restype`` and every structure layout from
these texts, ``llmmetrics.cffi_cdef`` is generated from them, and the drift test
(``tests/test_drift.py``) checks that they match ``include/llmmetrics/*.h`` declaration for
declaration (names, parameter types, struct members, enum values, numeric ``#define``\\ s).
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

typedef struct llmm_ctx llmm_ctx;
llmm_status llmm_ctx_new(const llmm_allocator *a, llmm_ctx **out);
void llmm_ctx_free(llmm_ctx *ctx);
uint64_t llmm_now_ns(void);
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
"""

#: module name -> C text, in dependency order (a text may use the types of the ones before it)
MODULES: Dict[str, str] = {
    "core": CORE,
    "sketch": SKETCH,
}
