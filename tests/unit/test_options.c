/* Option metadata (llmm_option_describe) against the objects themselves: for every kind and
 * every option it lists, a fresh object's getter returns the listed default, the typed setter
 * accepts the listed bounds and refuses the values just outside them, the other typed setter
 * does not know the key, and a fixed option refuses a change once the object holds data. The
 * expectations come from the listing itself, so no default or bound is written here. */
#include "helpers.h"

/* One kind, reached through untyped adapters so that one loop drives all of them. */
typedef struct kind_ops {
    llmm_object_kind kind;
    const char *label;
    void *(*make)(void);
    void (*destroy)(void *);
    void (*feed)(void *); /* make the object hold data; NULL when no option is fixed */
    llmm_status (*set_f64)(void *, int32_t, double);
    llmm_status (*get_f64)(const void *, int32_t, double *);
    llmm_status (*set_u64)(void *, int32_t, uint64_t);
    llmm_status (*get_u64)(const void *, int32_t, uint64_t *);
    llmm_status (*set_i32)(void *, int32_t, int32_t);
    llmm_status (*get_i32)(const void *, int32_t, int32_t *);
} kind_ops;

#define TYPED(T, K, sfx, ctype)                                                              \
    static llmm_status T##_set_##sfx##_(void *o, int32_t k, ctype v)                         \
    {                                                                                        \
        return T##_set_##sfx((T *)o, (K)k, v);                                               \
    }                                                                                        \
    static llmm_status T##_get_##sfx##_(const void *o, int32_t k, ctype *v)                  \
    {                                                                                        \
        return T##_get_##sfx((const T *)o, (K)k, v);                                         \
    }
#define FREE(T)                                                                              \
    static void T##_free_(void *o)                                                           \
    {                                                                                        \
        T##_free((T *)o);                                                                    \
    }

TYPED(llmm_spike, llmm_spike_option, f64, double)
TYPED(llmm_spike, llmm_spike_option, u64, uint64_t)
TYPED(llmm_collapse, llmm_collapse_option, f64, double)
TYPED(llmm_collapse, llmm_collapse_option, u64, uint64_t)
TYPED(llmm_stability, llmm_stability_option, f64, double)
TYPED(llmm_stability, llmm_stability_option, u64, uint64_t)
TYPED(llmm_saturation, llmm_saturation_option, f64, double)
TYPED(llmm_saturation, llmm_saturation_option, u64, uint64_t)
TYPED(llmm_lii_monitor, llmm_lii_option, f64, double)
TYPED(llmm_scorecard, llmm_scorecard_option, i32, int32_t)
TYPED(llmm_goodput, llmm_goodput_option, f64, double)
TYPED(llmm_burn, llmm_burn_option, f64, double)
TYPED(llmm_burn, llmm_burn_option, u64, uint64_t)
TYPED(llmm_error_trigger, llmm_error_trigger_option, f64, double)
TYPED(llmm_error_trigger, llmm_error_trigger_option, u64, uint64_t)
TYPED(llmm_host_sampler, llmm_host_option, f64, double)
FREE(llmm_spike)
FREE(llmm_collapse)
FREE(llmm_stability)
FREE(llmm_saturation)
FREE(llmm_lii_monitor)
FREE(llmm_scorecard)
FREE(llmm_goodput)
FREE(llmm_burn)
FREE(llmm_error_trigger)
FREE(llmm_host_sampler)

/* A fresh object of type T made by `call` (which writes `o`). */
#define MAKE(name, T, call)                                                                  \
    static void *name(void)                                                                  \
    {                                                                                        \
        T *o = NULL;                                                                         \
        assert_ok(call);                                                                     \
        return o;                                                                            \
    }
MAKE(make_spike, llmm_spike, llmm_spike_new(NULL, &o))
MAKE(make_collapse, llmm_collapse, llmm_collapse_new(NULL, &o))
MAKE(make_stability, llmm_stability, llmm_stability_new(NULL, &o))
MAKE(make_saturation, llmm_saturation, llmm_saturation_new(NULL, &o))
MAKE(make_lii, llmm_lii_monitor, llmm_lii_monitor_new(NULL, 0, &o))
MAKE(make_scorecard, llmm_scorecard, llmm_scorecard_new(NULL, LLMM_SCENARIO_CODE_ASSISTANT, &o))
MAKE(make_goodput, llmm_goodput, llmm_goodput_new(NULL, &o))
MAKE(make_burn, llmm_burn, llmm_burn_new(NULL, 0.999, 0, 0, &o))
MAKE(make_trigger, llmm_error_trigger, llmm_error_trigger_new(NULL, 0, &o))
MAKE(make_host, llmm_host_sampler, llmm_host_sampler_new(NULL, NULL, &o))

static void feed_spike(void *o)
{
    assert_ok(llmm_spike_observe(o, 1, 1.0, NULL));
}
static void feed_collapse(void *o)
{
    assert_ok(llmm_collapse_observe(o, 1, 1.0, NULL));
}
static void feed_saturation(void *o)
{
    assert_ok(llmm_saturation_observe(o, 1, 1.0, 1.0, NULL));
}
static void feed_goodput(void *o)
{
    assert_ok(llmm_goodput_observe(o, 1.0, 1.0, 1.0, NULL));
}

#define F64_CALLS(T) T##_set_f64_, T##_get_f64_
#define U64_CALLS(T) T##_set_u64_, T##_get_u64_
#define I32_CALLS(T) T##_set_i32_, T##_get_i32_
#define NO_CALLS NULL, NULL

static const kind_ops KINDS[] = {
    {LLMM_KIND_SPIKE, "spike", make_spike, llmm_spike_free_, feed_spike, F64_CALLS(llmm_spike),
     U64_CALLS(llmm_spike), NO_CALLS},
    {LLMM_KIND_COLLAPSE, "collapse", make_collapse, llmm_collapse_free_, feed_collapse,
     F64_CALLS(llmm_collapse), U64_CALLS(llmm_collapse), NO_CALLS},
    {LLMM_KIND_STABILITY, "stability", make_stability, llmm_stability_free_, NULL,
     F64_CALLS(llmm_stability), U64_CALLS(llmm_stability), NO_CALLS},
    {LLMM_KIND_SATURATION, "saturation", make_saturation, llmm_saturation_free_,
     feed_saturation, F64_CALLS(llmm_saturation), U64_CALLS(llmm_saturation), NO_CALLS},
    {LLMM_KIND_LII_MONITOR, "lii_monitor", make_lii, llmm_lii_monitor_free_, NULL,
     F64_CALLS(llmm_lii_monitor), NO_CALLS, NO_CALLS},
    {LLMM_KIND_SCORECARD, "scorecard", make_scorecard, llmm_scorecard_free_, NULL, NO_CALLS,
     NO_CALLS, I32_CALLS(llmm_scorecard)},
    {LLMM_KIND_GOODPUT, "goodput", make_goodput, llmm_goodput_free_, feed_goodput,
     F64_CALLS(llmm_goodput), NO_CALLS, NO_CALLS},
    {LLMM_KIND_BURN, "burn", make_burn, llmm_burn_free_, NULL, F64_CALLS(llmm_burn),
     U64_CALLS(llmm_burn), NO_CALLS},
    {LLMM_KIND_ERROR_TRIGGER, "error_trigger", make_trigger, llmm_error_trigger_free_, NULL,
     F64_CALLS(llmm_error_trigger), U64_CALLS(llmm_error_trigger), NO_CALLS},
    {LLMM_KIND_HOST_SAMPLER, "host_sampler", make_host, llmm_host_sampler_free_, NULL,
     F64_CALLS(llmm_host_sampler), NO_CALLS, NO_CALLS},
};
#define NKINDS (sizeof KINDS / sizeof KINDS[0])

/* The options of a kind, in listing order. */
#define MAX_OPTS 32
static size_t list(llmm_object_kind kind, llmm_option_info *out)
{
    size_t n = 0;
    llmm_status st;
    for (;;) {
        assert_true(n < MAX_OPTS);
        memset(&out[n], 0, sizeof out[n]);
        out[n].struct_size = sizeof out[n];
        st = llmm_option_describe(kind, (uint32_t)n, &out[n]);
        if (st == LLMM_E_RANGE)
            return n;
        assert_ok(st);
        n++;
    }
}

/* Set through the typed setter of the option's type, then read back on success. */
static llmm_status set_value(const kind_ops *k, void *o, const llmm_option_info *d,
                             double f, uint64_t u, int32_t i)
{
    switch (d->type) {
    case LLMM_OPTION_F64:
        return k->set_f64(o, d->key, f);
    case LLMM_OPTION_U64:
        return k->set_u64(o, d->key, u);
    default:
        return k->set_i32(o, d->key, i);
    }
}

/* Whether the object's current value of d equals (f, u, i) of d's type. */
static int value_is(const kind_ops *k, const void *o, const llmm_option_info *d, double f,
                    uint64_t u, int32_t i)
{
    double gf;
    uint64_t gu;
    int32_t gi;
    switch (d->type) {
    case LLMM_OPTION_F64:
        assert_ok(k->get_f64(o, d->key, &gf));
        return gf == f;
    case LLMM_OPTION_U64:
        assert_ok(k->get_u64(o, d->key, &gu));
        return gu == u;
    default:
        assert_ok(k->get_i32(o, d->key, &gi));
        return gi == i;
    }
}

static int value_is_default(const kind_ops *k, const void *o, const llmm_option_info *d)
{
    return value_is(k, o, d, d->default_f64, d->default_u64, d->default_i32);
}

static void test_listing_is_well_formed(void **state)
{
    llmm_option_info d[MAX_OPTS];
    size_t i, j, n, total = 0;
    (void)state;

    for (i = 0; i < NKINDS; i++) {
        n = list(KINDS[i].kind, d);
        assert_true(n >= 1);
        total += n;
        for (j = 0; j < n; j++) {
            const char *c;
            assert_true(d[j].struct_size == sizeof d[j]);
            assert_true(j == 0 || d[j].key > d[j - 1].key); /* in key order */
            assert_non_null(d[j].name);
            assert_true(d[j].name[0] != '\0');
            for (c = d[j].name; *c; c++)
                assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_');
            assert_true(j == 0 || strcmp(d[j].name, d[j - 1].name) != 0);
            assert_int_equal(d[j].reserved_, 0);
            switch (d[j].type) {
            case LLMM_OPTION_F64:
                assert_true(d[j].min_f64 < d[j].max_f64);
                assert_true(d[j].min_u64 == 0 && d[j].max_u64 == 0 && d[j].default_u64 == 0);
                assert_true(d[j].min_i32 == 0 && d[j].max_i32 == 0 && d[j].default_i32 == 0);
                break;
            case LLMM_OPTION_U64:
                assert_true(d[j].min_u64 < d[j].max_u64);
                assert_true(d[j].min_f64 == 0 && d[j].max_f64 == 0 && d[j].default_f64 == 0);
                assert_true(d[j].min_i32 == 0 && d[j].max_i32 == 0 && d[j].default_i32 == 0);
                break;
            case LLMM_OPTION_I32:
                assert_true(d[j].min_i32 < d[j].max_i32);
                assert_true(d[j].min_f64 == 0 && d[j].max_f64 == 0 && d[j].default_f64 == 0);
                assert_true(d[j].min_u64 == 0 && d[j].max_u64 == 0 && d[j].default_u64 == 0);
                break;
            default:
                fail_msg("%s.%s: type %d", KINDS[i].label, d[j].name, (int)d[j].type);
            }
        }
    }
    /* as many entries as the option enums of the headers have enumerators (the bindings' tests
     * match them name by name) */
    assert_int_equal(total, 7 + 8 + 2 + 2 + 3 + 1 + 3 + 7 + 2 + 10);
}

/* A fresh object holds every listed default; the listed default lies within the bounds. */
static void test_defaults_are_what_a_new_object_holds(void **state)
{
    llmm_option_info d[MAX_OPTS];
    size_t i, j, n;
    (void)state;

    for (i = 0; i < NKINDS; i++) {
        void *o = KINDS[i].make();
        n = list(KINDS[i].kind, d);
        for (j = 0; j < n; j++) {
            if (!d[j].has_default)
                continue; /* burn's SLO target: a constructor argument */
            if (!value_is_default(&KINDS[i], o, &d[j]))
                fail_msg("%s.%s: the getter does not return the listed default",
                         KINDS[i].label, d[j].name);
            /* setting the default is accepted */
            assert_ok(set_value(&KINDS[i], o, &d[j], d[j].default_f64, d[j].default_u64,
                                d[j].default_i32));
        }
        KINDS[i].destroy(o);
    }
}

/* The value just outside a bound: the bound itself when exclusive, else one step beyond.
 * Returns 0 when there is no such value of the type (a bound at the end of the type, or an
 * f64 step that reaches an infinity, which some kinds refuse as LLMM_E_INVALID). */
static int beyond_f64(double bound, int exclusive, double toward, double *out)
{
    *out = exclusive ? bound : nextafter(bound, toward);
    return isfinite(*out);
}
static int beyond_u64(uint64_t bound, int exclusive, int up, uint64_t *out)
{
    if (exclusive) {
        *out = bound;
        return 1;
    }
    if (up ? bound == UINT64_MAX : bound == 0)
        return 0;
    *out = up ? bound + 1 : bound - 1;
    return 1;
}
static int beyond_i32(int32_t bound, int exclusive, int up, int32_t *out)
{
    if (exclusive) {
        *out = bound;
        return 1;
    }
    if (up ? bound == INT32_MAX : bound == INT32_MIN)
        return 0;
    *out = up ? bound + 1 : bound - 1;
    return 1;
}

/* Refuse the value just below (up = 0) or above (up = 1) the bounds; nothing changes. */
static void check_refused_beyond(const kind_ops *k, void *o, const llmm_option_info *d, int up)
{
    double f = 0.0;
    uint64_t u = 0;
    int32_t i = 0;
    int have;

    if (d->type == LLMM_OPTION_F64)
        have = up ? beyond_f64(d->max_f64, d->max_exclusive, INFINITY, &f)
                  : beyond_f64(d->min_f64, d->min_exclusive, -INFINITY, &f);
    else if (d->type == LLMM_OPTION_U64)
        have = beyond_u64(up ? d->max_u64 : d->min_u64,
                          up ? d->max_exclusive : d->min_exclusive, up, &u);
    else
        have = beyond_i32(up ? d->max_i32 : d->min_i32,
                          up ? d->max_exclusive : d->min_exclusive, up, &i);
    if (!have)
        return;
    if (set_value(k, o, d, f, u, i) != LLMM_E_RANGE)
        fail_msg("%s.%s: a value just %s the bounds is not LLMM_E_RANGE", k->label, d->name,
                 up ? "above" : "below");
    if (d->has_default && !value_is_default(k, o, d))
        fail_msg("%s.%s: a refused value changed the option", k->label, d->name);
}

/* An inclusive bound is accepted (unless another option constrains this one). */
static void check_accepted_at_bounds(const kind_ops *k, void *o, const llmm_option_info *d)
{
    int up;
    if (d->cross_checked)
        return;
    for (up = 0; up <= 1; up++) {
        int exclusive = up ? d->max_exclusive : d->min_exclusive;
        double f = up ? d->max_f64 : d->min_f64;
        uint64_t u = up ? d->max_u64 : d->min_u64;
        int32_t i = up ? d->max_i32 : d->min_i32;
        if (exclusive)
            continue;
        if (set_value(k, o, d, f, u, i) != LLMM_OK || !value_is(k, o, d, f, u, i))
            fail_msg("%s.%s: the %s bound is not accepted", k->label, d->name,
                     up ? "upper" : "lower");
    }
}

static void test_setters_follow_the_bounds(void **state)
{
    llmm_option_info d[MAX_OPTS];
    size_t i, j, n;
    (void)state;

    for (i = 0; i < NKINDS; i++) {
        n = list(KINDS[i].kind, d);
        for (j = 0; j < n; j++) {
            void *o = KINDS[i].make();
            check_refused_beyond(&KINDS[i], o, &d[j], 0);
            check_refused_beyond(&KINDS[i], o, &d[j], 1);
            check_accepted_at_bounds(&KINDS[i], o, &d[j]);
            KINDS[i].destroy(o);
        }
    }
}

/* Each key is known to the setter and getter of its own type only. */
static void test_other_types_do_not_know_the_key(void **state)
{
    llmm_option_info d[MAX_OPTS];
    size_t i, j, n;
    double f;
    uint64_t u;
    int32_t v;
    (void)state;

    for (i = 0; i < NKINDS; i++) {
        const kind_ops *k = &KINDS[i];
        void *o = k->make();
        n = list(k->kind, d);
        for (j = 0; j < n; j++) {
            if (k->set_f64 && d[j].type != LLMM_OPTION_F64) {
                assert_status(k->set_f64(o, d[j].key, 1.0), LLMM_E_UNKNOWN_OPTION);
                assert_status(k->get_f64(o, d[j].key, &f), LLMM_E_UNKNOWN_OPTION);
            }
            if (k->set_u64 && d[j].type != LLMM_OPTION_U64) {
                assert_status(k->set_u64(o, d[j].key, 1), LLMM_E_UNKNOWN_OPTION);
                assert_status(k->get_u64(o, d[j].key, &u), LLMM_E_UNKNOWN_OPTION);
            }
            if (k->set_i32 && d[j].type != LLMM_OPTION_I32) {
                assert_status(k->set_i32(o, d[j].key, 1), LLMM_E_UNKNOWN_OPTION);
                assert_status(k->get_i32(o, d[j].key, &v), LLMM_E_UNKNOWN_OPTION);
            }
        }
        k->destroy(o);
    }
}

/* A value of the option's type other than its default, within the bounds. */
static void other_value(const llmm_option_info *d, double *f, uint64_t *u, int32_t *i)
{
    if (d->default_f64 != d->min_f64 && !d->min_exclusive)
        *f = d->min_f64;
    else if (d->default_f64 != d->max_f64 && !d->max_exclusive)
        *f = d->max_f64;
    else
        *f = d->min_f64 / 2 + d->max_f64 / 2;
    *u = d->default_u64 == d->min_u64 ? d->default_u64 + 1 : d->default_u64 - 1;
    *i = d->default_i32 == d->min_i32 ? d->default_i32 + 1 : d->default_i32 - 1;
}

/* Options marked fixed_once_started change before the object holds data, not after. */
static void test_fixed_options_refuse_changes_once_started(void **state)
{
    llmm_option_info d[MAX_OPTS];
    size_t i, j, n, fixed = 0;
    double f;
    uint64_t u;
    int32_t v;
    (void)state;

    for (i = 0; i < NKINDS; i++) {
        const kind_ops *k = &KINDS[i];
        n = list(k->kind, d);
        for (j = 0; j < n; j++) {
            void *o;
            if (!d[j].fixed_once_started)
                continue;
            assert_non_null(k->feed);
            fixed++;
            other_value(&d[j], &f, &u, &v);
            o = k->make();
            assert_ok(set_value(k, o, &d[j], f, u, v)); /* before: fine */
            assert_ok(set_value(k, o, &d[j], d[j].default_f64, d[j].default_u64,
                                d[j].default_i32));
            k->feed(o);
            assert_status(set_value(k, o, &d[j], f, u, v), LLMM_E_STATE);
            assert_true(value_is_default(k, o, &d[j]));
            k->destroy(o);
        }
    }
    assert_true(fixed >= 6); /* spike geometry, collapse and saturation windows, goodput */
}

static void test_describe_errors_change_nothing(void **state)
{
    llmm_option_info d, before;
    struct {
        llmm_option_info info;
        unsigned char canary[16];
    } big;
    uint32_t n;
    size_t i;
    (void)state;

    memset(&d, 0xab, sizeof d);
    d.struct_size = sizeof d;
    before = d;
    assert_status(llmm_option_describe(LLMM_KIND_SPIKE, 0, NULL), LLMM_E_INVALID);
    assert_status(llmm_option_describe((llmm_object_kind)0, 0, &d), LLMM_E_INVALID);
    assert_status(llmm_option_describe((llmm_object_kind)11, 0, &d), LLMM_E_INVALID);
    assert_status(llmm_option_describe((llmm_object_kind)-1, 0, &d), LLMM_E_INVALID);
    for (n = 0; llmm_option_describe(LLMM_KIND_BURN, n, &d) == LLMM_OK; n++)
        d = before;
    assert_status(llmm_option_describe(LLMM_KIND_BURN, n, &d), LLMM_E_RANGE);
    assert_status(llmm_option_describe(LLMM_KIND_BURN, UINT32_MAX, &d), LLMM_E_RANGE);
    assert_memory_equal(&d, &before, sizeof d);
    /* sizes the library never released */
    for (i = 0; i < 4; i++) {
        static const uint32_t bad[] = {0, 4, sizeof(llmm_option_info) - 8,
                                       sizeof(llmm_option_info) + 8};
        d.struct_size = bad[i];
        before.struct_size = bad[i];
        assert_status(llmm_option_describe(LLMM_KIND_SPIKE, 0, &d), LLMM_E_ABI);
        assert_memory_equal(&d, &before, sizeof d);
    }
    /* the library writes the caller's prefix and nothing beyond it */
    memset(&big, 0x5a, sizeof big);
    big.info.struct_size = sizeof big.info;
    assert_ok(llmm_option_describe(LLMM_KIND_SPIKE, 0, &big.info));
    for (i = 0; i < sizeof big.canary; i++)
        assert_int_equal(big.canary[i], 0x5a);
    assert_true(big.info.struct_size == sizeof big.info);
    assert_int_equal(big.info.key, LLMM_SPIKE_BASE_QUANTILE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listing_is_well_formed),
        cmocka_unit_test(test_defaults_are_what_a_new_object_holds),
        cmocka_unit_test(test_setters_follow_the_bounds),
        cmocka_unit_test(test_other_types_do_not_know_the_key),
        cmocka_unit_test(test_fixed_options_refuse_changes_once_started),
        cmocka_unit_test(test_describe_errors_change_nothing),
    };
    return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
