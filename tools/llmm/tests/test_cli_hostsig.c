/* test_cli_hostsig: host-signal files. The writer's lines, for samplers on the captured trees
 * of tests/data/host, read back by the reader equal what llmm_host_signal_rate() says, signal
 * by signal (unavailable: left out; no rate yet: null); and the reader on hand-made buffers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/hostsig.h"
#include "input/hostsig.h"

static llmm_host_sampler *tree(const char *name)
{
    const char *data = getenv("LLMM_TEST_DATA");
    char root[4096];
    llmm_host_sampler *s = NULL;
    snprintf(root, sizeof root, "%s/host/%s/t0", data ? data : "tests/data", name);
    assert_int_equal(llmm_host_sampler_new(NULL, root, &s), LLMM_OK);
    return s;
}

/* Two samples of a tree, each written as a line and read back. */
static void round_trip(const char *name)
{
    llmm_host_sampler *s = tree(name);
    llmm_cli_hostsig h;
    llmm_cli_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const double t[2] = {12.5, 12.55};
    size_t k;

    assert_non_null(f);
    memset(&h, 0, sizeof h);
    for (k = 0; k < 2; k++) {
        assert_int_equal(llmm_host_sample(s, (uint64_t)(t[k] * 1e9), NULL), LLMM_OK);
        assert_int_equal(llmm_cli_hostsig_write(f, t[k], s), LLMM_CLI_OK);
        fflush(f);
        assert_int_equal(llmm_cli_hostsig_parse(buf, len, name, &h, &err), LLMM_CLI_OK);
        assert_int_equal(h.n, k + 1);
        assert_true(h.s[k].t == t[k]);
        for (int sig = 1; sig <= LLMM_CLI_HOST_MAX; sig++) {
            double v = -1, got = h.s[k].v[sig - 1];
            llmm_status st = llmm_host_signal_rate(s, (llmm_host_signal)sig, &v);
            if (st == LLMM_OK)
                assert_true(got == v);
            else
                assert_true(isnan(got));
        }
        h.n = 0; /* the next parse reads the whole buffer again */
    }
    assert_int_equal(h.unknown, 0);
    fclose(f);
    /* an unavailable signal is left out, one without a rate is null */
    for (int sig = 1; sig <= 10; sig++) {
        double v;
        char key[64];
        snprintf(key, sizeof key, "\"%s\":", llmm_host_signal_name((llmm_host_signal)sig));
        llmm_status st = llmm_host_signal_rate(s, (llmm_host_signal)sig, &v);
        assert_int_equal(strstr(buf, key) != NULL, st != LLMM_E_STATE);
    }
    free(buf);
    llmm_cli_hostsig_free(&h);
    llmm_host_sampler_free(s);
}

static void writer_round_trip(void **state)
{
    (void)state;
    round_trip("linux-5.10"); /* every signal: the counters null, then 0; 3000 MHz */
    round_trip("linux-6.18"); /* no frequency */
    round_trip("garbage");    /* only "t" */
}

static void reader_values(void **state)
{
    static const char text[] = "\xEF\xBB\xBF{\"t\": -1.5, \"psi_io\": 0.25, \"x\": {\"psi_io\": 9}}\n"
                               "\n"
                               "  {\"cpu_freq_mhz\": 2400, \"t\": 0, \"run_delay\": null}\r\n"
                               "{\"t\": 1e3}";
    llmm_cli_hostsig h;
    llmm_cli_error err;
    (void)state;
    memset(&h, 0, sizeof h);
    assert_int_equal(llmm_cli_hostsig_parse(text, sizeof text - 1, "b", &h, &err), LLMM_CLI_OK);
    assert_int_equal(h.n, 3);
    assert_true(h.s[0].t == -1.5 && h.s[1].t == 0 && h.s[2].t == 1000);
    assert_true(h.s[0].v[LLMM_HOST_PSI_IO - 1] == 0.25);
    assert_true(h.s[1].v[LLMM_HOST_CPU_FREQ_MHZ - 1] == 2400);
    assert_true(isnan(h.s[1].v[LLMM_HOST_RUN_DELAY - 1]));
    assert_true(isnan(h.s[2].v[LLMM_HOST_PSI_IO - 1]));
    assert_int_equal(h.unknown, 1);
    assert_string_equal(h.first_unknown, "x");
    /* a parse appends, in time order; a failed one keeps what h had */
    assert_int_equal(llmm_cli_hostsig_parse("{\"t\": 1001}\n{\"t\": 4}\n", 21, "c", &h, &err),
                     LLMM_CLI_EPARSE);
    assert_int_equal(h.n, 3);
    assert_non_null(strstr(err.msg, "c:2: t = 4 is not later"));
    assert_int_equal(llmm_cli_hostsig_parse("{\"t\": 5}\n", 9, "c", &h, &err),
                     LLMM_CLI_EPARSE);
    assert_non_null(strstr(err.msg, "c:1: t = 5 is not later"));
    assert_int_equal(llmm_cli_hostsig_parse("{\"t\": 1e999}\n", 13, "d", &h, &err),
                     LLMM_CLI_EPARSE);
    assert_non_null(strstr(err.msg, "d:1:"));
    llmm_cli_hostsig_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writer_round_trip),
        cmocka_unit_test(reader_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
