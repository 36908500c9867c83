/* test_bench_bpf: the attribution rule of `llmm bench --bpf` (bench/bpf_attr.c) on events and
 * requests made here: a retransmit goes to the request whose connection (4-tuple either way
 * round, namespace) carried it between its send and its end, to no other; a server event to
 * the requests whose largest gap it overlaps; the listed events in time order; the spikes
 * above the P99 and P99.9 and those with an event. */
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

#include "bench/bpf.h"

#define NETNS 4026531840u
#define SEC 1000000000ull

static struct llmm_bpf_event retrans(double t, const char *src, uint16_t sport, const char *dst,
                                     uint16_t dport, uint64_t segs, uint32_t netns)
{
    struct llmm_bpf_event e;
    memset(&e, 0, sizeof e);
    e.kind = LLMM_BPF_RETRANS;
    e.ts_ns = (uint64_t)llround(t * 1e9);
    e.value = segs;
    e.family = AF_INET;
    e.netns = netns;
    e.sport = sport;
    e.dport = dport;
    inet_pton(AF_INET, src, e.saddr);
    inet_pton(AF_INET, dst, e.daddr);
    return e;
}

static struct llmm_bpf_event server(uint32_t kind, double t, uint64_t value)
{
    struct llmm_bpf_event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.ts_ns = (uint64_t)llround(t * 1e9);
    e.value = value;
    e.pid = 77;
    e.tid = 78;
    return e;
}

static llmm_bench_conn conn(uint16_t lport)
{
    llmm_bench_conn c;
    memset(&c, 0, sizeof c);
    c.family = AF_INET;
    inet_pton(AF_INET, "127.0.0.1", c.laddr);
    inet_pton(AF_INET, "127.0.0.1", c.raddr);
    c.lport = lport;
    c.rport = 8000;
    return c;
}

static void request(llmm_bench_rec *x, double sent, double first, double end, int measured)
{
    memset(x, 0, sizeof *x);
    x->sent = sent;
    x->first = first;
    x->last = x->end = end;
    x->measured = measured;
    x->phase = LLMM_BENCH_WINDOW;
}

/* Two requests one after the other on one connection, a third on another. */
static void test_retransmits_by_connection(void **state)
{
    llmm_bench_rec rec[3];
    llmm_bench_result r;
    llmm_bench_conn c[3] = {conn(40000), conn(40000), conn(40001)};
    struct llmm_bpf_event ev[] = {
        retrans(1.2, "127.0.0.1", 40000, "127.0.0.1", 8000, 2, NETNS), /* 0: the bench's */
        retrans(1.3, "127.0.0.1", 8000, "127.0.0.1", 40000, 1, NETNS), /* 0: the server's */
        retrans(1.7, "127.0.0.1", 40000, "127.0.0.1", 8000, 1, NETNS), /* between: none */
        retrans(2.1, "127.0.0.1", 40000, "127.0.0.1", 8000, 1, 1),     /* another netns */
        retrans(2.2, "127.0.0.1", 40001, "127.0.0.1", 8000, 1, NETNS), /* 2's, too early */
        retrans(2.3, "127.0.0.2", 40000, "127.0.0.1", 8000, 1, NETNS), /* another address */
        retrans(2.4, "127.0.0.1", 40000, "127.0.0.1", 8001, 1, NETNS), /* another port */
        retrans(2.5, "127.0.0.1", 8000, "127.0.0.1", 40000, 3, NETNS), /* 1: at its end */
        retrans(3.5, "127.0.0.1", 8000, "127.0.0.1", 40001, 4, NETNS), /* 2 */
    };
    (void)state;
    memset(&r, 0, sizeof r);
    request(&rec[0], 1.0, 1.1, 1.5, 1);
    request(&rec[1], 2.0, 2.1, 2.5, 1);
    request(&rec[2], 3.0, 3.1, 4.0, 1);
    r.rec = rec;
    r.n = 3;
    assert_int_equal(
        llmm_bench_kev_attribute(&r, ev, sizeof ev / sizeof *ev, c, NETNS, 0, SEC / 1000),
        LLMM_CLI_OK);
    assert_int_equal(rec[0].kev_retrans, 3);
    assert_int_equal(rec[1].kev_retrans, 3);
    assert_int_equal(rec[2].kev_retrans, 4);
    assert_int_equal(r.kev->unattributed, 5); /* 15 segments in all */
    assert_int_equal(r.kev->at[1] - r.kev->at[0], 2);
    assert_int_equal(r.kev->ev[r.kev->at[0]].ts_ns, 1200000000ull);
    assert_int_equal(r.kev->ev[r.kev->at[0] + 1].sport, 8000);
    assert_int_equal(r.kev->at[2] - r.kev->at[1], 1);
    assert_int_equal(r.kev->at[3], 4);
    for (int i = 0; i < 3; i++)
        assert_int_equal(rec[i].kev_major_faults + rec[i].kev_sched_jitter, 0);
    llmm_bench_kevents_free(r.kev);
}

/* A request whose largest gap is its second ITL, [10.11, 10.41]; another whose TTFT is. */
static void test_server_events_in_largest_gap(void **state)
{
    llmm_bench_rec rec[2];
    llmm_bench_result r;
    llmm_bench_conn c[2] = {conn(40000), conn(40001)};
    double itl[] = {0.01, 0.3, 0.02, 0.05};
    struct llmm_bpf_event ev[] = {
        server(LLMM_BPF_MAJFLT, 10.05, 0x1000),      /* in 0's TTFT, not its largest gap */
        server(LLMM_BPF_MAJFLT, 10.2, 0x2000),       /* 0's largest gap; 1's TTFT */
        server(LLMM_BPF_RUNQ, 10.5, SEC / 10),       /* waited from 10.4: overlaps 0's */
        server(LLMM_BPF_RUNQ, 10.45, SEC * 3 / 100), /* from 10.42: after 0's gap */
        server(LLMM_BPF_RUNQ, 9.95, SEC / 100),      /* before both */
    };
    (void)state;
    memset(&r, 0, sizeof r);
    request(&rec[0], 10.0, 10.1, 10.43, 1);
    rec[0].nitl = 3;
    rec[0].itl = 0;
    request(&rec[1], 10.15, 10.44, 10.49, 1); /* TTFT 0.29 > its ITL 0.05 */
    rec[1].nitl = 1;
    rec[1].itl = 3;
    r.rec = rec;
    r.n = 2;
    r.itl = itl;
    r.nitl = 4;
    assert_int_equal(
        llmm_bench_kev_attribute(&r, ev, sizeof ev / sizeof *ev, c, NETNS, 77, SEC / 1000),
        LLMM_CLI_OK);
    assert_int_equal(rec[0].kev_major_faults, 1);
    assert_int_equal(rec[0].kev_sched_jitter, 1);
    assert_int_equal(rec[1].kev_major_faults, 1);
    assert_int_equal(rec[1].kev_sched_jitter, 2); /* [10.4, 10.5] and [10.42, 10.45] */
    assert_int_equal(r.kev->at[1], 2);
    assert_int_equal(r.kev->ev[0].kind, LLMM_BPF_MAJFLT); /* in time order */
    assert_int_equal(r.kev->ev[1].kind, LLMM_BPF_RUNQ);
    assert_int_equal(r.kev->at[2], 5);
    assert_int_equal(r.kev->unattributed, 0);
    llmm_bench_kevents_free(r.kev);
}

/* TTFTs 0.1 (x99) and 1.0: numpy's linear P99 is 0.1 + 0.01 * 0.9 = 0.109 and P99.9 is
 * 0.1 + 0.901 * 0.9 = 0.9109; the one spike holds a retransmit of its connection. Not
 * measured requests are no spikes. */
static void test_spikes(void **state)
{
    llmm_bench_rec rec[101];
    llmm_bench_conn c[101];
    llmm_bench_result r;
    struct llmm_bpf_event ev[] = {
        retrans(990.5, "127.0.0.1", 8000, "127.0.0.1", 41099, 1, NETNS),
    };
    (void)state;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 101; i++) {
        double t = 10.0 * i;
        request(&rec[i], t, t + (i == 99 ? 1.0 : i == 100 ? 5.0 : 0.1), t + 2, i < 100);
        c[i] = conn((uint16_t)(41000 + i));
    }
    r.rec = rec;
    r.n = 101;
    assert_int_equal(llmm_bench_kev_attribute(&r, ev, 1, c, NETNS, 0, SEC / 1000), LLMM_CLI_OK);
    assert_true(fabs(r.kev->threshold[0][0] - 0.109) < 1e-9);
    assert_true(fabs(r.kev->threshold[0][1] - 0.9109) < 1e-9);
    assert_int_equal(r.kev->spikes[0][0], 1);
    assert_int_equal(r.kev->hit[0][0], 1);
    assert_int_equal(r.kev->spikes[0][1], 1);
    assert_int_equal(r.kev->hit[0][1], 1);
    assert_int_equal(r.kev->spikes[1][0], 0); /* no ITL */
    assert_true(isnan(r.kev->threshold[1][0]));
    assert_int_equal(rec[99].kev_retrans, 1);
    llmm_bench_kevents_free(r.kev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_retransmits_by_connection),
        cmocka_unit_test(test_server_events_in_largest_gap),
        cmocka_unit_test(test_spikes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
