/* The 1.0 program's driver: one TAP test per part (see v1_0.h). */
#include "v1_0.h"

int v1_failures;

int v1_check(int ok, const char *what, const char *file, int line)
{
    if (!ok) {
        v1_failures++;
        printf("# %s:%d: check failed: %s\n", file, line, what);
    }
    return ok;
}

int v1_guard_ok(const unsigned char *bytes, size_t size)
{
    size_t i;
    for (i = size; i < size + GUARD_BYTES; i++)
        if (bytes[i] != GUARD_BYTE)
            return 0;
    return 1;
}

static const struct {
    const char *name;
    void (*run)(void);
} parts[] = {
    {"core, sketch, recorder, codec", v1_core_sketch},
    {"window, ratio window, spike, collapse, events, correlation, stability, saturation",
     v1_window_detect},
    {"polyfit, polynomials, knees, USL, capacity", v1_fit_capacity},
    {"resource, SLO, goodput, burn, error trigger", v1_resource_slo},
    {"scorecard, Prometheus and OTLP export", v1_score_export},
};

int main(void)
{
    size_t i, n = sizeof parts / sizeof parts[0];
    int failed = 0;
    printf("1..%zu\n", n + 1);
    /* A 1.x library of this major version, at least 1.0. */
    v1_failures = 0;
    CHECK(llmm_version() / 10000 == 1 && llmm_version() >= 10000);
    printf("%s 1 - loaded libllmmetrics %s, built against the 1.0.0 headers\n",
           v1_failures ? "not ok" : "ok", llmm_version_string());
    failed += v1_failures != 0;
    for (i = 0; i < n; i++) {
        v1_failures = 0;
        parts[i].run();
        printf("%s %zu - 1.0 calls and structs: %s\n", v1_failures ? "not ok" : "ok", i + 2,
               parts[i].name);
        failed += v1_failures != 0;
    }
    return failed ? 1 : 0;
}
