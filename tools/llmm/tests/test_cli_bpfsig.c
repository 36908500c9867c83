/* test_cli_bpfsig: the kernel events of `llmm host --bpf` per line (common/bpfsig.c): which
 * line an event goes to, dt_ns, the per-line bound and its count, the lost records since the
 * line before, the waits' sketch restarting with each line; and the line read back by the
 * reader (input/hostsig.c) as events at their own times. */
#include <arpa/inet.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/bpfsig.h"
#include "input/hostsig.h"

static struct llmm_bpf_event ev(uint32_t kind, uint64_t ts, uint64_t value)
{
    struct llmm_bpf_event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.ts_ns = ts;
    e.value = value;
    e.pid = 7;
    e.tid = kind == LLMM_BPF_RETRANS ? 0 : 9;
    return e;
}

/* The line's p50_s, p99_s and max_s are those of a sketch of the same waits. */
static void runq_matches(const char *s, const double *v, size_t n)
{
    static const char *const keys[] = {"\"p50_s\":", "\"p99_s\":", "\"max_s\":"};
    llmm_sketch *k = NULL;
    double want[3];
    assert_int_equal(llmm_sketch_new(NULL, 8, &k), LLMM_OK);
    assert_int_equal(llmm_sketch_add_many(k, v, n), LLMM_OK);
    assert_int_equal(llmm_sketch_quantile(k, 0.5, &want[0]), LLMM_OK);
    assert_int_equal(llmm_sketch_quantile(k, 0.99, &want[1]), LLMM_OK);
    assert_int_equal(llmm_sketch_max(k, &want[2]), LLMM_OK);
    for (int i = 0; i < 3; i++) {
        const char *at = strstr(s, keys[i]);
        assert_non_null(at);
        assert_true(strtod(at + strlen(keys[i]), NULL) == want[i]);
    }
    llmm_sketch_free(k);
}

/* One line {"t": t_s, "bpf": …} for the monotonic time t_ns, as a string (caller frees). */
static char *line(llmm_cli_bpfsig *b, double t_s, uint64_t t_ns)
{
    llmm_cli_jw w;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(llmm_cli_jw_open_line(&w), 0);
    llmm_cli_jw_map(&w);
    llmm_cli_jw_kv(&w, "t", t_s);
    llmm_cli_bpfsig_write(b, &w, t_ns);
    llmm_cli_jw_map_end(&w);
    assert_int_equal(llmm_cli_jw_finish_line(&w, f), LLMM_CLI_OK);
    fclose(f);
    return buf;
}

static void lines(void **state)
{
    llmm_cli_bpfsig b;
    struct llmm_bpf_event e;
    char *s;
    (void)state;
    assert_int_equal(llmm_cli_bpfsig_init(&b, 1000000, 3), LLMM_CLI_OK);
    e = ev(LLMM_BPF_RETRANS, 1000, 2);
    e.family = 2;
    e.sport = 8000;
    e.dport = 51234;
    e.ca_state = 4;
    e.netns = 4026531840u;
    inet_pton(AF_INET, "10.0.0.5", e.saddr);
    inet_pton(AF_INET, "10.0.0.9", e.daddr);
    llmm_cli_bpfsig_add(&b, &e);
    e = ev(LLMM_BPF_RUNQ, 1500, 999999); /* below the threshold: the sketch only */
    llmm_cli_bpfsig_add(&b, &e);
    e = ev(LLMM_BPF_RUNQ, 2000, 1000000); /* at it: an event too */
    llmm_cli_bpfsig_add(&b, &e);
    e = ev(LLMM_BPF_MAJFLT, 3000, 4096); /* after the line's time: the next line's */
    llmm_cli_bpfsig_add(&b, &e);
    b.lost = 5;
    s = line(&b, 10.0, 2500);
    assert_non_null(strstr(s, "{\"t\":10,\"bpf\":{\"lost\":5,\"over\":0,\"runq\":{\"count\":2,"
                              "\"sum_s\":0.001999999,\"p50_s\":"));
    runq_matches(s, (const double[]){999999.0 * 1e-9, 1000000.0 * 1e-9}, 2);
    assert_non_null(strstr(
        s, "\"events\":[{\"event\":\"net.tcp.retrans\",\"dt_ns\":-1500,\"pid\":7,\"segs\":2,"
           "\"ca_state\":\"loss\",\"netns\":4026531840,\"saddr\":\"10.0.0.5\",\"sport\":8000,"
           "\"daddr\":\"10.0.0.9\",\"dport\":51234},{\"event\":\"sched.jitter\",\"dt_ns\":-500,"
           "\"pid\":7,\"tid\":9,\"wait_ns\":1000000}]}}\n"));
    free(s);
    /* the fault waited; lost counts since the line before; the bound of 3 per line */
    for (uint64_t k = 0; k < 3; k++) {
        e = ev(LLMM_BPF_RUNQ, 3100 + k, 2000000);
        llmm_cli_bpfsig_add(&b, &e);
    }
    b.lost = 6;
    s = line(&b, 10.1, 5000);
    assert_non_null(strstr(s, "\"lost\":1,\"over\":1,\"runq\":{\"count\":3,"));
    assert_non_null(strstr(s, "{\"event\":\"mem.major_fault\",\"dt_ns\":-2000,\"pid\":7,"
                              "\"tid\":9,\"addr\":4096}"));
    assert_non_null(strstr(s, "\"dt_ns\":-1900,"));
    assert_null(strstr(s, "\"dt_ns\":-1898,")); /* the third wait is the one over the bound */
    free(s);
    s = line(&b, 10.2, 6000);
    assert_string_equal(s, "{\"t\":10.2,\"bpf\":{\"lost\":0,\"over\":0,\"runq\":{\"count\":0,"
                           "\"sum_s\":0,\"p50_s\":0,\"p99_s\":0,\"max_s\":0},\"events\":[]}}\n");
    free(s);
    llmm_cli_bpfsig_free(&b);
}

/* The writer's line read back: the events at t + dt_ns, a wait where it began. */
static void read_back(void **state)
{
    llmm_cli_bpfsig b;
    struct llmm_bpf_event e;
    llmm_cli_hostsig h;
    llmm_cli_error err;
    char *s;
    (void)state;
    assert_int_equal(llmm_cli_bpfsig_init(&b, 1000000, 100), LLMM_CLI_OK);
    e = ev(LLMM_BPF_RUNQ, 7000000000u, 3000000);
    llmm_cli_bpfsig_add(&b, &e);
    e = ev(LLMM_BPF_MAJFLT, 7100000000u, 4096);
    llmm_cli_bpfsig_add(&b, &e);
    s = line(&b, 500.25, 7250000000u);
    memset(&h, 0, sizeof h);
    assert_int_equal(llmm_cli_hostsig_parse(s, strlen(s), "x", &h, &err), LLMM_CLI_OK);
    assert_int_equal(h.n, 1);
    assert_int_equal(h.bpf_lines, 1);
    assert_int_equal(h.nkev, 2);
    assert_int_equal(h.kev[0].type, LLMM_EVENT_SCHED_JITTER);
    assert_true(fabs(h.kev[0].t - (500.25 - 0.25 - 0.003)) < 1e-9);
    assert_true(fabs(h.kev[0].value - 0.003) < 1e-15);
    assert_int_equal(h.kev[1].type, LLMM_EVENT_MAJOR_FAULT);
    assert_true(fabs(h.kev[1].t - (500.25 - 0.15)) < 1e-9);
    assert_true(h.kev[1].value == 1);
    llmm_cli_hostsig_free(&h);
    free(s);
    llmm_cli_bpfsig_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines),
        cmocka_unit_test(read_back),
    };
    return cmocka_run_group_tests_name("cli_bpfsig", tests, NULL, NULL);
}
