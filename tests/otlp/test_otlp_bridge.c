/* test_otlp_bridge: tools/otlp's bridge from an exemplar store to OTLP exemplars
 * (llmm_push_exemplars_from_store): the slots that hold one, in slot order, values scaled to
 * the exported unit, times, ids and labels carried over, the cap, and a metrics request that
 * encodes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "otlp_push.h"

static void bridge(void **state)
{
    static const double bounds[] = {100.0, 500.0}; /* milliseconds: slots <=100, <=500, above */
    uint8_t trace[16], span[8], zero[16] = {0};
    llmm_exemplars *ex = NULL;
    llmm_exemplar_shard *sh = NULL;
    llmm_exemplar held[4];
    llmm_otlp_exemplar out[4];
    size_t n;
    (void)state;
    memset(trace, 0x5a, sizeof trace);
    memset(span, 0xc3, sizeof span);
    assert_int_equal(llmm_exemplars_new(NULL, bounds, 2, LLMM_EXEMPLAR_LATEST, &ex), LLMM_OK);
    assert_int_equal(llmm_exemplars_shard(ex, &sh), LLMM_OK);
    assert_int_equal(n = llmm_push_exemplars_from_store(ex, 1e-3, held, out, 4), 0);
    assert_int_equal(llmm_exemplar_shard_record(sh, 750.0, trace, NULL, 2000, "k=\"v\""), LLMM_OK);
    assert_int_equal(llmm_exemplar_shard_record(sh, 40.0, trace, span, 1000, NULL), LLMM_OK);
    n = llmm_push_exemplars_from_store(ex, 1e-3, held, out, 4);
    assert_int_equal(n, 2); /* the middle slot is empty */
    assert_true(out[0].value == 40.0 * 1e-3 && out[0].time_unix_nano == 1000);
    assert_memory_equal(out[0].trace_id, trace, 16);
    assert_memory_equal(out[0].span_id, span, 8);
    assert_null(out[0].attributes);
    assert_true(out[1].value == 750.0 * 1e-3 && out[1].time_unix_nano == 2000);
    assert_memory_equal(out[1].span_id, zero, 8);
    assert_string_equal(out[1].attributes, "k=\"v\"");
    assert_ptr_equal(out[1].attributes, held[1].labels);
    assert_int_equal(llmm_push_exemplars_from_store(ex, 1e-3, held, out, 1), 1);
    assert_int_equal(llmm_push_exemplars_from_store(NULL, 1, held, out, 4), 0);

    { /* the bridged exemplars encode on a histogram point */
        llmm_sketch *s = NULL;
        llmm_otlp_point p;
        llmm_otlp_metric m;
        llmm_otlp_metrics_request r;
        size_t len = 0;
        n = llmm_push_exemplars_from_store(ex, 1e-3, held, out, 4);
        assert_int_equal(llmm_sketch_new(NULL, 6, &s), LLMM_OK);
        assert_int_equal(llmm_sketch_add(s, 40.0), LLMM_OK);
        assert_int_equal(llmm_sketch_add(s, 750.0), LLMM_OK);
        llmm_otlp_point_init(&p);
        p.sketch = s;
        p.exemplars = out;
        p.exemplar_count = n;
        llmm_otlp_metric_init(&m);
        m.name = "ttft";
        m.type = LLMM_OTLP_EXPONENTIAL_HISTOGRAM;
        m.unit_to_seconds = 1e-3;
        m.points = &p;
        m.point_count = 1;
        llmm_otlp_metrics_request_init(&r);
        r.metrics = &m;
        r.metric_count = 1;
        assert_int_equal(llmm_export_otlp_metrics(&r, LLMM_OTLP_JSON, NULL, 0, &len),
                         LLMM_E_BUFFER);
        assert_true(len > 0);
        llmm_sketch_free(s);
    }
    llmm_exemplar_shard_release(sh);
    llmm_exemplars_free(ex);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(bridge)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
