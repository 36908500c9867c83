/* Export internals: Go-compatible float spelling, label-list parser, protobuf primitives.
 * Expected strings are Go's strconv.FormatFloat(v, 'g', -1, 64) outputs worked out by hand
 * from its rules (shortest round-trip digits; %e when the exponent is < -4 or >= 6, with at
 * least two exponent digits) and Prometheus' FormatOpenMetricsFloat (".0" appended). */
#include "helpers.h"

#include "export/export_internal.h"

static void check_fmt(double v, const char *go, const char *om)
{
    char out[LLMM__FLOAT_CHARS + 1];
    size_t n = llmm__fmt_double(v, out);
    out[n] = '\0';
    if (strcmp(out, go) != 0) {
        print_error("fmt(%.17g) = %s, expected %s\n", v, out, go);
        fail();
    }
    n = llmm__fmt_om_double(v, out);
    out[n] = '\0';
    if (strcmp(out, om) != 0) {
        print_error("om(%.17g) = %s, expected %s\n", v, out, om);
        fail();
    }
}

static void test_float_spelling(void **state)
{
    (void)state;
    check_fmt(0, "0", "0.0");
    check_fmt(1, "1", "1.0");
    check_fmt(-1, "-1", "-1.0");
    check_fmt(2.5, "2.5", "2.5");
    check_fmt(-2.5, "-2.5", "-2.5");
    check_fmt(0.005, "0.005", "0.005");
    check_fmt(0.0001, "0.0001", "0.0001");         /* exponent -4: still %f */
    check_fmt(0.00001, "1e-05", "1e-05");          /* exponent -5: %e */
    check_fmt(0.0009765625, "0.0009765625", "0.0009765625");
    check_fmt(9.5e-5, "9.5e-05", "9.5e-05");
    check_fmt(1e-7, "1e-07", "1e-07");
    check_fmt(0.000123, "0.000123", "0.000123");
    check_fmt(100, "100", "100.0");
    check_fmt(2560, "2560", "2560.0");
    check_fmt(123456, "123456", "123456.0");       /* exponent 5: %f */
    check_fmt(123456.5, "123456.5", "123456.5");
    check_fmt(999999.9999999999, "999999.9999999999", "999999.9999999999");
    check_fmt(1e6, "1e+06", "1e+06");              /* exponent 6: %e */
    check_fmt(1234567, "1.234567e+06", "1.234567e+06");
    check_fmt(67108864, "6.7108864e+07", "6.7108864e+07");
    check_fmt(1e21, "1e+21", "1e+21");
    check_fmt(9007199254740992.0, "9.007199254740992e+15", "9.007199254740992e+15");
    check_fmt(12345678901234567890.0, "1.2345678901234567e+19", "1.2345678901234567e+19");
    check_fmt(0.1 + 0.2, "0.30000000000000004", "0.30000000000000004");
    check_fmt(1.0 / 3.0, "0.3333333333333333", "0.3333333333333333");
    check_fmt(4.35, "4.35", "4.35");
    check_fmt(81.92, "81.92", "81.92");
    check_fmt(5e-324, "5e-324", "5e-324");
    check_fmt(2.2250738585072014e-308, "2.2250738585072014e-308", "2.2250738585072014e-308");
    check_fmt(1.7976931348623157e308, "1.7976931348623157e+308", "1.7976931348623157e+308");
    check_fmt(1e100, "1e+100", "1e+100");
    check_fmt(INFINITY, "+Inf", "+Inf");
    check_fmt(-INFINITY, "-Inf", "-Inf");
    check_fmt(NAN, "NaN", "NaN");
}

/* Every printed value reads back exactly and has no more digits than %.17g needs. */
static void test_float_round_trip(void **state)
{
    uint64_t x = 88172645463325252ull;
    (void)state;
    for (int i = 0; i < 20000; i++) {
        uint64_t bits;
        double v;
        char out[LLMM__FLOAT_CHARS + 1];
        size_t n;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bits = x & 0x7fefffffffffffffull; /* finite, positive */
        memcpy(&v, &bits, sizeof v);
        if (i % 2)
            v = ldexp((double)(x >> 40), -(int)(x % 40)); /* short decimals too */
        n = llmm__fmt_double(v, out);
        out[n] = '\0';
        assert_true(strtod(out, NULL) == v);
        /* as short as printf's shortest round-trip precision (found by a linear scan), or
         * one digit shorter where a neighbouring decimal reads back too */
        {
            char tmp[40];
            int sig = 0, started = 0, minp;
            for (size_t k = 0; k < n && out[k] != 'e'; k++) {
                if (out[k] < '0' || out[k] > '9')
                    continue;
                if (out[k] != '0')
                    started = 1;
                sig += started;
            }
            for (minp = 1; minp < 17; minp++) {
                snprintf(tmp, sizeof tmp, "%.*e", minp - 1, v);
                if (strtod(tmp, NULL) == v)
                    break;
            }
            /* trailing zeros of an integer part count in `sig` */
            if (!strchr(out, 'e') && !strchr(out, '.'))
                while (sig > 1 && out[n - 1] == '0' && sig > minp)
                    sig--;
            assert_true(sig <= minp && sig >= minp - 1);
        }
    }
}

static void test_label_parser(void **state)
{
    static const char *good[] = {
        "", "a=\"\"", "a=\"x\",b=\"y\"", "_x1=\"q\\\"\\\\\\n\"", "model=\"caf\xc3\xa9\"",
        "a_b=\"1\",c=\"2\",d=\"3\"",
    };
    static const char *bad[] = {
        "a", "a=", "a=\"", "a=x", "=\"x\"", "1a=\"x\"", "a=\"x\",", ",a=\"x\"", "a=\"x\" ",
        " a=\"x\"", "a=\"x\",a=\"y\"", "a=\"\\t\"", "a=\"x\ny\"", "__name__=\"x\"",
        "a=\"\xff\"", "a=\"\xc0\xaf\"", "a.b=\"x\"", "a=\"x\"b=\"y\"", "a=\"x\",,b=\"y\"",
        "le=\"1\"",
    };
    size_t i, pos = 0;
    llmm__label l;
    llmm__sink s;
    uint8_t buf[64];
    (void)state;
    for (i = 0; i < sizeof good / sizeof *good; i++)
        assert_int_equal(llmm__labels_check(good[i], LLMM__KEYS_PROM, "le"), LLMM_OK);
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (llmm__labels_check(bad[i], LLMM__KEYS_PROM, "le") != LLMM_E_INVALID) {
            print_error("accepted bad list [%s]\n", bad[i]);
            fail();
        }
    }
    assert_int_equal(llmm__labels_check(NULL, LLMM__KEYS_PROM, NULL), LLMM_OK);
    /* OTLP keys may contain '.' and '-' */
    assert_int_equal(llmm__labels_check("gen_ai.request.model=\"m\",a-b=\"c\"", LLMM__KEYS_OTLP,
                                        NULL),
                     LLMM_OK);
    assert_int_equal(llmm__labels_check("gen_ai.x=\"m\"", LLMM__KEYS_PROM, NULL),
                     LLMM_E_INVALID);

    /* iteration and unescaping */
    const char *list = "a=\"x\\\"y\",bb=\"\\\\\\n\"";
    assert_true(llmm__labels_next(list, &pos, &l));
    assert_int_equal(l.name_len, 1);
    assert_int_equal(l.raw_len, 3);
    llmm__sink_fixed(&s, buf, sizeof buf);
    llmm__put_unescaped(&s, l.value, l.value_len);
    assert_int_equal(s.len, 3);
    assert_memory_equal(buf, "x\"y", 3);
    assert_true(llmm__labels_next(list, &pos, &l));
    assert_int_equal(l.name_len, 2);
    assert_memory_equal(l.name, "bb", 2);
    assert_int_equal(l.raw_len, 2);
    llmm__sink_fixed(&s, buf, sizeof buf);
    llmm__put_unescaped(&s, l.value, l.value_len);
    assert_memory_equal(buf, "\\\n", 2);
    assert_false(llmm__labels_next(list, &pos, &l));
}

static void test_pb_primitives(void **state)
{
    uint8_t buf[64];
    llmm__sink s;
    size_t m;
    (void)state;
    llmm__sink_fixed(&s, buf, sizeof buf);
    llmm__pb_uint(&s, 1, 300); /* 08 ac 02 */
    llmm__pb_sint(&s, 2, -1);  /* 10 01 */
    llmm__pb_sint(&s, 2, 1);   /* 10 02 */
    llmm__pb_sint(&s, 2, -64); /* 10 7f */
    m = llmm__pb_begin(&s, 3); /* 1a 03 ... */
    llmm__pb_uint(&s, 1, 5);
    llmm__putc(&s, 0x42);
    llmm__pb_end(&s, m);
    llmm__pb_double(&s, 4, 1.0); /* 21 00..f0 3f */
    static const uint8_t want[] = {0x08, 0xac, 0x02, 0x10, 0x01, 0x10, 0x02, 0x10, 0x7f,
                                   0x1a, 0x03, 0x08, 0x05, 0x42, 0x21, 0,    0,    0,
                                   0,    0,    0,    0xf0, 0x3f};
    assert_int_equal(s.len, sizeof want);
    assert_memory_equal(buf, want, sizeof want);
    assert_int_equal(llmm__varint_len(127), 1);
    assert_int_equal(llmm__varint_len(128), 2);
    assert_int_equal(llmm__varint_len(UINT64_MAX), 10);

    /* a fixed sink counts past its end and keeps a prefix */
    llmm__sink_fixed(&s, buf, 4);
    llmm__puts(&s, "abc");
    llmm__puts(&s, "defg");
    assert_int_equal(s.len, 7);
    assert_int_equal(llmm__sink_status(&s), LLMM_E_BUFFER);
    assert_memory_equal(buf, "abc", 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_spelling),
        cmocka_unit_test(test_float_round_trip),
        cmocka_unit_test(test_label_parser),
        cmocka_unit_test(test_pb_primitives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
