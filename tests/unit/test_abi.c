/* Caller-sized structs through the public API: llmm_struct_init(), the llmm_<type>_init()
 * macros of the headers and the exported 1.0 _init symbols, for every size-prefixed struct.
 * The list below is written out here, independently of the library's own table. */
#include "helpers.h"

#define CANARY 0xA5
#define SLACK 64

/* X(kind, type) for every size-prefixed struct of the headers: those of 1.0, which keep an
 * exported _init symbol, and those added since, which have the header macro only. */
#define SIZED_1_0(X)                                                                         \
    X(LLMM_STRUCT_ALLOCATOR, llmm_allocator)                                                 \
    X(LLMM_STRUCT_SPIKE_STATS, llmm_spike_stats)                                             \
    X(LLMM_STRUCT_COLLAPSE_VERDICT, llmm_collapse_verdict)                                   \
    X(LLMM_STRUCT_COLLAPSE_REPORT, llmm_collapse_report)                                     \
    X(LLMM_STRUCT_STABILITY_READING, llmm_stability_reading)                                 \
    X(LLMM_STRUCT_SATURATION_READING, llmm_saturation_reading)                               \
    X(LLMM_STRUCT_OTLP_OPTIONS, llmm_otlp_options)                                           \
    X(LLMM_STRUCT_FIT_STATS, llmm_fit_stats)                                                 \
    X(LLMM_STRUCT_KNEE, llmm_knee)                                                           \
    X(LLMM_STRUCT_USL, llmm_usl)                                                             \
    X(LLMM_STRUCT_KNEE_OPTIONS, llmm_knee_options)                                           \
    X(LLMM_STRUCT_LII_READING, llmm_lii_reading)                                             \
    X(LLMM_STRUCT_KV_OCCUPANCY_RESULT, llmm_kv_occupancy_result)                             \
    X(LLMM_STRUCT_KV_HIT_READING, llmm_kv_hit_reading)                                       \
    X(LLMM_STRUCT_TLB_READING, llmm_tlb_reading)                                             \
    X(LLMM_STRUCT_SCORE_RESULT, llmm_score_result)                                           \
    X(LLMM_STRUCT_SLO_RESULT, llmm_slo_result)                                               \
    X(LLMM_STRUCT_GOODPUT_RESULT, llmm_goodput_result)                                       \
    X(LLMM_STRUCT_BURN_RESULT, llmm_burn_result)                                             \
    X(LLMM_STRUCT_ERROR_TRIGGER_READING, llmm_error_trigger_reading)
#define SIZED_1_1(X) X(LLMM_STRUCT_OPTION_INFO, llmm_option_info)
#define SIZED_1_2(X)                                                                          \
    X(LLMM_STRUCT_OTLP_EXEMPLAR, llmm_otlp_exemplar)                                         \
    X(LLMM_STRUCT_OTLP_POINT, llmm_otlp_point)                                               \
    X(LLMM_STRUCT_OTLP_METRIC, llmm_otlp_metric)                                             \
    X(LLMM_STRUCT_OTLP_METRICS_REQUEST, llmm_otlp_metrics_request)                           \
    X(LLMM_STRUCT_OTLP_ATTRIBUTE, llmm_otlp_attribute)                                       \
    X(LLMM_STRUCT_OTLP_SPAN, llmm_otlp_span)                                                 \
    X(LLMM_STRUCT_OTLP_TRACES_REQUEST, llmm_otlp_traces_request)                             \
    X(LLMM_STRUCT_EXEMPLAR, llmm_exemplar)                                                   \
    X(LLMM_STRUCT_DECODE_INFO, llmm_decode_info)                                             \
    X(LLMM_STRUCT_TRACED_EVENT, llmm_traced_event)
#define SIZED(X) SIZED_1_0(X) SIZED_1_1(X) SIZED_1_2(X)

typedef struct sized {
    const char *name;
    llmm_struct_kind kind;
    size_t size;
} sized;

#define ROW(kind, type) {#type, kind, sizeof(type)},
static const sized all[] = {SIZED(ROW)};
#define N_SIZED (sizeof all / sizeof all[0])

static int untouched(const unsigned char *buf, size_t from, size_t to)
{
    size_t i;
    for (i = from; i < to; i++)
        if (buf[i] != CANARY)
            return 0;
    return 1;
}

static uint32_t size_field(const unsigned char *buf)
{
    uint32_t s;
    memcpy(&s, buf, sizeof s);
    return s;
}

static void test_kinds_pinned(void **state)
{
    size_t i;
    (void)state;
    /* The values are ABI, like status codes: 1, 2, 3 … in this order. */
    for (i = 0; i < N_SIZED; i++)
        assert_int_equal(all[i].kind, (int)i + 1);
}

/* The caller's size: exactly that many bytes written, struct_size = size, the rest as the
 * struct's defaults say (checked per struct below); anything else refused untouched. */
static void test_struct_init_sizes(void **state)
{
    unsigned char buf[512 + SLACK];
    size_t i, j;
    (void)state;
    for (i = 0; i < N_SIZED; i++) {
        const uint32_t size = (uint32_t)all[i].size;
        const uint32_t wrong[] = {0, 4, size - 1, size + 1, size + 8, 2 * size, UINT32_MAX};
        assert_true(size + SLACK <= sizeof buf);
        assert_status(llmm_struct_init(all[i].kind, NULL, size), LLMM_E_INVALID);
        memset(buf, CANARY, sizeof buf);
        assert_ok(llmm_struct_init(all[i].kind, buf, size));
        assert_int_equal(size_field(buf), size);
        assert_true(untouched(buf, size, sizeof buf));
        for (j = 0; j < sizeof wrong / sizeof wrong[0]; j++) {
            memset(buf, CANARY, sizeof buf);
            assert_status(llmm_struct_init(all[i].kind, buf, wrong[j]), LLMM_E_ABI);
            assert_true(untouched(buf, 0, sizeof buf));
        }
    }
}

static void test_struct_init_unknown_kind(void **state)
{
    const int kinds[] = {0, -1, (int)N_SIZED + 1, 1000, 0x7fffffff};
    unsigned char buf[256];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        memset(buf, CANARY, sizeof buf);
        assert_status(llmm_struct_init((llmm_struct_kind)kinds[i], buf, 32), LLMM_E_ABI);
        assert_true(untouched(buf, 0, sizeof buf));
    }
}

/* The header's llmm_<type>_init(p) passes sizeof *p; the exported 1.0 symbol of the same name
 * (called through parentheses, as a 1.0 program does) writes a released size no larger than
 * that, the same bytes as llmm_struct_init() for that size, and nothing beyond. */
#define MACRO_AND_EXPORT(kind, type)                                                         \
    {                                                                                        \
        union {                                                                              \
            type s;                                                                          \
            unsigned char b[sizeof(type) + SLACK];                                           \
        } u, v;                                                                              \
        uint32_t size;                                                                       \
        memset(&u, CANARY, sizeof u);                                                        \
        assert_ok(type##_init(&u.s));                                                        \
        assert_int_equal(u.s.struct_size, sizeof(type));                                     \
        assert_true(untouched(u.b, sizeof(type), sizeof u));                                \
        memset(&u, CANARY, sizeof u);                                                        \
        assert_ok((type##_init)(&u.s));                                                      \
        size = u.s.struct_size;                                                              \
        assert_true(size >= 8 && size <= sizeof(type));                                      \
        assert_true(untouched(u.b, size, sizeof u));                                         \
        memset(&v, CANARY, sizeof v);                                                        \
        assert_ok(llmm_struct_init(kind, &v, size));                                         \
        assert_memory_equal(u.b, v.b, sizeof u);                                             \
        assert_status((type##_init)(NULL), LLMM_E_INVALID);                                  \
        assert_status(type##_init((type *)NULL), LLMM_E_INVALID);                            \
    }

static void test_macro_and_1_0_export(void **state)
{
    (void)state;
    SIZED_1_0(MACRO_AND_EXPORT)
}

/* Structs added after 1.0: the header macro writes the caller's sizeof and nothing beyond. */
#define MACRO_ONLY(kind, type)                                                               \
    {                                                                                        \
        union {                                                                              \
            type s;                                                                          \
            unsigned char b[sizeof(type) + SLACK];                                           \
        } u;                                                                                 \
        memset(&u, CANARY, sizeof u);                                                        \
        assert_ok(type##_init(&u.s));                                                        \
        assert_int_equal(u.s.struct_size, sizeof(type));                                     \
        assert_true(untouched(u.b, sizeof(type), sizeof u));                                \
        assert_status(type##_init((type *)NULL), LLMM_E_INVALID);                            \
    }

static void test_macro_since_1_1(void **state)
{
    (void)state;
    SIZED_1_1(MACRO_ONLY)
    SIZED_1_2(MACRO_ONLY)
}

/* Zero defaults: every byte after struct_size is 0. */
static void test_zero_defaults(void **state)
{
    unsigned char buf[512];
    size_t i, j;
    (void)state;
    for (i = 0; i < N_SIZED; i++) {
        llmm_struct_kind k = all[i].kind;
        if (k == LLMM_STRUCT_ALLOCATOR || k == LLMM_STRUCT_OTLP_OPTIONS || k == LLMM_STRUCT_KNEE ||
            k == LLMM_STRUCT_USL || k == LLMM_STRUCT_KNEE_OPTIONS || k == LLMM_STRUCT_OTLP_METRIC ||
            k == LLMM_STRUCT_OTLP_SPAN)
            continue;
        memset(buf, CANARY, sizeof buf);
        assert_ok(llmm_struct_init(k, buf, (uint32_t)all[i].size));
        for (j = 4; j < all[i].size; j++)
            assert_int_equal(buf[j], 0);
    }
}

static void test_documented_defaults(void **state)
{
    llmm_knee_options ko;
    llmm_otlp_options oo;
    llmm_knee k;
    llmm_usl u;
    llmm_allocator a;
    (void)state;
    assert_ok(llmm_knee_options_init(&ko));
    assert_int_equal(ko.smooth, 0);
    assert_close(ko.trim, 0.1, 0, 0);
    assert_close(ko.collapse_fraction, 0.5, 0, 0);
    assert_close(ko.kneedle_sensitivity, 1.0, 0, 0);
    assert_ok(llmm_otlp_options_init(&oo));
    assert_close(oo.unit_to_seconds, 1.0, 0, 0);
    assert_int_equal(oo.temporality, LLMM_OTLP_CUMULATIVE);
    assert_int_equal(oo.max_buckets, 0);
    assert_null(oo.attributes);
    assert_null(oo.unit);
    assert_ok(llmm_knee_init(&k));
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    assert_true(isnan(k.knee) && isnan(k.qps) && isnan(k.strength));
    assert_ok(llmm_usl_init(&u));
    assert_int_equal(u.quality, LLMM_KNEE_NONE);
    assert_true(isnan(u.lambda) && isnan(u.sigma) && isnan(u.kappa) && isnan(u.n_max));
    assert_int_equal(u.iterations, 0);
    assert_ok(llmm_allocator_init(&a));
    assert_null(a.user);
    assert_true(a.alloc && a.realloc && a.free);
}

/* A call refuses a size it does not know before doing anything: the output keeps its bytes
 * and the input is not used. */
static void test_calls_refuse_unknown_sizes(void **state)
{
    const double conc[] = {1, 2, 4, 8, 16, 32, 64}, qps[] = {10, 19, 36, 60, 80, 88, 90};
    llmm_knee k;
    llmm_knee_options o;
    llmm_usl u;
    llmm_fit_stats st;
    double c[2];
    (void)state;
    llmm_knee_init(&k);
    k.struct_size += 8;
    k.knee = 42.0;
    assert_status(llmm_knee_kneedle(conc, qps, 7, 1.0, &k), LLMM_E_ABI);
    assert_close(k.knee, 42.0, 0, 0);
    llmm_knee_options_init(&o);
    o.struct_size = 4;
    llmm_knee_init(&k);
    assert_status(llmm_knee_report(conc, qps, 7, &o, &k, NULL, NULL, NULL), LLMM_E_ABI);
    assert_int_equal(k.quality, LLMM_KNEE_NONE);
    llmm_usl_init(&u);
    u.lambda = 10.0;
    u.sigma = 0.1;
    u.kappa = 0.0;
    u.struct_size -= 8;
    assert_status(llmm_usl_throughput(&u, 4.0, c), LLMM_E_ABI);
    llmm_fit_stats_init(&st);
    st.struct_size = 0;
    assert_status(llmm_polyfit(conc, qps, 7, 1, c, &st), LLMM_E_ABI);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_pinned),
        cmocka_unit_test(test_struct_init_sizes),
        cmocka_unit_test(test_struct_init_unknown_kind),
        cmocka_unit_test(test_macro_and_1_0_export),
        cmocka_unit_test(test_macro_since_1_1),
        cmocka_unit_test(test_zero_defaults),
        cmocka_unit_test(test_documented_defaults),
        cmocka_unit_test(test_calls_refuse_unknown_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
