/* Writes doc/options.md, the option reference, from llmm_option_describe(): the one table of
 * every object's options, as the library holds it. Suite 'docs' runs this program and fails
 * when the committed page differs; regenerate with
 *     build/doc/options_md > doc/options.md
 * Only the names of the kinds' types are written here; every key, bound and default comes
 * from the library. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llmmetrics/llmmetrics.h"

typedef struct kind_doc {
    llmm_object_kind kind;
    const char *object;  /* the handle type */
    const char *options; /* the key enum */
    const char *prefix;  /* of its enumerators */
} kind_doc;

static const kind_doc KINDS[] = {
    {LLMM_KIND_SPIKE, "llmm_spike", "llmm_spike_option", "LLMM_SPIKE_"},
    {LLMM_KIND_COLLAPSE, "llmm_collapse", "llmm_collapse_option", "LLMM_COLLAPSE_"},
    {LLMM_KIND_STABILITY, "llmm_stability", "llmm_stability_option", "LLMM_STABILITY_"},
    {LLMM_KIND_SATURATION, "llmm_saturation", "llmm_saturation_option", "LLMM_SATURATION_"},
    {LLMM_KIND_LII_MONITOR, "llmm_lii_monitor", "llmm_lii_option", "LLMM_LII_"},
    {LLMM_KIND_SCORECARD, "llmm_scorecard", "llmm_scorecard_option", "LLMM_SCORECARD_"},
    {LLMM_KIND_GOODPUT, "llmm_goodput", "llmm_goodput_option", "LLMM_GOODPUT_"},
    {LLMM_KIND_BURN, "llmm_burn", "llmm_burn_option", "LLMM_BURN_"},
    {LLMM_KIND_ERROR_TRIGGER, "llmm_error_trigger", "llmm_error_trigger_option",
     "LLMM_ERROR_TRIGGER_"},
    {LLMM_KIND_HOST_SAMPLER, "llmm_host_sampler", "llmm_host_option", "LLMM_HOST_"},
};

/* Whole numbers as integers, others as the shortest decimal that reads back as v; "+Inf" and
 * "max double" spelled out. */
static void fmt_f64(double v, char *buf, size_t cap)
{
    int prec;
    if (isinf(v)) {
        snprintf(buf, cap, "%s", v > 0 ? "+Inf" : "−Inf");
        return;
    }
    if (v == DBL_MAX) {
        snprintf(buf, cap, "max double");
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, cap, "%.0f", v);
        return;
    }
    for (prec = 1; prec < 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, cap, "%.17g", v);
}

/* Exact integers; 2^64 − 1 and 2^32 − 1 by name; whole durations of `_ns` options also in
 * their largest whole unit. */
static void fmt_u64(uint64_t v, int is_ns, char *buf, size_t cap)
{
    static const struct {
        uint64_t ns;
        const char *unit;
    } units[] = {{UINT64_C(3600000000000), "h"}, {UINT64_C(60000000000), "min"},
                 {UINT64_C(1000000000), "s"},    {UINT64_C(1000000), "ms"}};
    size_t i;

    if (v == UINT64_MAX) {
        snprintf(buf, cap, "2^64 − 1");
        return;
    }
    if (v == UINT32_MAX) {
        snprintf(buf, cap, "2^32 − 1");
        return;
    }
    snprintf(buf, cap, "%" PRIu64, v);
    for (i = 0; is_ns && v != 0 && i < sizeof units / sizeof units[0]; i++) {
        if (v % units[i].ns == 0) {
            snprintf(buf + strlen(buf), cap - strlen(buf), " (%" PRIu64 " %s)", v / units[i].ns,
                     units[i].unit);
            return;
        }
    }
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* min, max and default of d as text. */
static void fmt_values(const llmm_option_info *d, char lo[64], char hi[64], char def[64])
{
    int ns = ends_with(d->name, "_ns");
    switch (d->type) {
    case LLMM_OPTION_F64:
        fmt_f64(d->min_f64, lo, 64);
        fmt_f64(d->max_f64, hi, 64);
        fmt_f64(d->default_f64, def, 64);
        break;
    case LLMM_OPTION_U64:
        fmt_u64(d->min_u64, ns, lo, 64);
        fmt_u64(d->max_u64, ns, hi, 64);
        fmt_u64(d->default_u64, ns, def, 64);
        break;
    default:
        snprintf(lo, 64, "%" PRId32, d->min_i32);
        snprintf(hi, 64, "%" PRId32, d->max_i32);
        snprintf(def, 64, "%" PRId32, d->default_i32);
        break;
    }
    if (!d->has_default)
        snprintf(def, 64, "constructor argument");
}

static const char *type_name(llmm_option_type t)
{
    return t == LLMM_OPTION_F64 ? "f64" : t == LLMM_OPTION_U64 ? "u64" : "i32";
}

static void print_option(const kind_doc *k, const llmm_option_info *d)
{
    char lo[64], hi[64], def[64], upper[64];
    size_t i;

    for (i = 0; d->name[i] && i + 1 < sizeof upper; i++)
        upper[i] = (char)(d->name[i] >= 'a' && d->name[i] <= 'z' ? d->name[i] - 'a' + 'A'
                                                                 : d->name[i]);
    upper[i] = '\0';
    fmt_values(d, lo, hi, def);
    printf("| #%s%s | `%s` | %s | %s%s, %s%s | %s | %s%s |\n", k->prefix, upper, d->name,
           type_name(d->type), d->min_exclusive ? "(" : "[", lo, hi,
           d->max_exclusive ? ")" : "]", def, d->fixed_once_started ? "before data" : "any time",
           d->cross_checked ? "; see the key" : "");
}

/* Every option of a kind, in listing order; the count, or -1 after an error. */
#define MAX_OPTS 32
static int list(const kind_doc *k, llmm_option_info *out)
{
    uint32_t n;
    llmm_status st;

    for (n = 0; n < MAX_OPTS; n++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].struct_size = sizeof out[n];
        st = llmm_option_describe(k->kind, n, &out[n]);
        if (st == LLMM_E_RANGE)
            return (int)n;
        if (st != LLMM_OK) {
            fprintf(stderr, "llmm_option_describe(%s, %u): %s\n", k->object, n,
                    llmm_status_name(st));
            return -1;
        }
    }
    fprintf(stderr, "%s: more than %d options\n", k->object, MAX_OPTS);
    return -1;
}

static int print_kind(const kind_doc *k)
{
    llmm_option_info d[MAX_OPTS];
    int i, n = list(k, d);
    llmm_option_type t;
    const char *sep = "";

    if (n < 0)
        return 1;
    printf("\n## %s\n\n", k->object);
    printf("Keys ::%s, set with", k->options);
    for (t = LLMM_OPTION_F64; t <= LLMM_OPTION_I32; t++) {
        for (i = 0; i < n && d[i].type != t; i++)
            continue;
        if (i < n) {
            printf("%s %s_set_%s()", sep, k->object, type_name(t));
            sep = " and";
        }
    }
    printf(".\n\n| key | name | type | bounds | default | may change |\n");
    printf("|---|---|---|---|---|---|\n");
    for (i = 0; i < n; i++)
        print_option(k, &d[i]);
    return 0;
}

int main(void)
{
    size_t i;

    printf("# Option reference {#options_reference}\n\n");
    printf("<!-- Generated by doc/options_md.c from llmm_option_describe(); do not edit.\n"
           "     Regenerate: build/doc/options_md > doc/options.md -->\n\n");
    printf("Every tunable of every object, as the library's own table holds it: the key, the\n"
           "stable name (the one llmm_option_describe() and the bindings use), the type (which\n"
           "names the setter: `_set_f64`, `_set_u64`, `_set_i32`), the bounds, the default and\n"
           "whether the option may change once the object holds data. `[` and `]` include a\n"
           "bound, `(` and `)` exclude it. \"see the key\": the value is further constrained by\n"
           "another option or by how the object was made, as the key's documentation says.\n"
           "What each option means is documented at its key.\n");
    for (i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (print_kind(&KINDS[i]) != 0)
            return 1;
    return 0;
}
