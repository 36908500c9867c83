/* The host sampler's parsers (lib/host/host_parse.c) on hand-made buffers: what they accept,
 * what they call missing, and the garbage they refuse. */
#include "helpers.h"

#include "host/host_internal.h"

#define FOUND LLMM__HOST_FOUND
#define MISSING LLMM__HOST_MISSING
#define GARBAGE LLMM__HOST_GARBAGE

/* Buffers without their NUL: the parsers get the length only. */
#define KEYED(text, key, out) llmm__host_parse_keyed(text, sizeof text - 1, key, out)
#define TABLE(text, col, out) llmm__host_parse_table(text, sizeof text - 1, "Tcp:", col, out)
#define PSI(text, out) llmm__host_parse_psi_some(text, sizeof text - 1, out)
#define FIELD(text, i, out) llmm__host_parse_field(text, sizeof text - 1, i, out)

static void test_u64(void **state)
{
    uint64_t v = 0;
    (void)state;
    assert_int_equal(llmm__host_parse_u64("0", 1, &v), FOUND);
    assert_true(v == 0);
    assert_int_equal(llmm__host_parse_u64("18446744073709551615", 20, &v), FOUND);
    assert_true(v == UINT64_MAX);
    assert_int_equal(llmm__host_parse_u64("000000000000000000042", 21, &v), GARBAGE);
    assert_int_equal(llmm__host_parse_u64("00000000000000000042", 20, &v), FOUND);
    assert_true(v == 42);
    v = 7;
    const char *bad[] = {"18446744073709551616", "99999999999999999999", "", "-1", "+1",
                         "1 ",   " 1",  "1.0", "0x1", "1e6", "12x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(llmm__host_parse_u64(bad[i], strlen(bad[i]), &v), GARBAGE);
    assert_int_equal(llmm__host_parse_u64("1\0", 2, &v), GARBAGE);
    assert_true(v == 7);
}

static void test_keyed(void **state)
{
    uint64_t v = 0;
    (void)state;
    assert_int_equal(KEYED("pgfault 10\npgmajfault 3\npgmajfault_x 9\n", "pgmajfault", &v),
                     FOUND);
    assert_true(v == 3);
    assert_int_equal(KEYED("xpgmajfault 3\n", "pgmajfault", &v), MISSING);
    assert_int_equal(KEYED("pgmajfault_file 3\n", "pgmajfault", &v), MISSING);
    assert_int_equal(KEYED("", "ctxt", &v), MISSING);
    /* a last line without '\n' may be cut short: not read */
    assert_int_equal(KEYED("ctxt 12", "ctxt", &v), MISSING);
    v = 5;
    assert_int_equal(KEYED("ctxt 1\nctxt 2\n", "ctxt", &v), GARBAGE);
    assert_int_equal(KEYED("ctxt  1\n", "ctxt", &v), GARBAGE);
    assert_int_equal(KEYED("ctxt 1 2\n", "ctxt", &v), GARBAGE);
    assert_int_equal(KEYED("ctxt \n", "ctxt", &v), GARBAGE);
    assert_int_equal(KEYED("ctxt -1\n", "ctxt", &v), GARBAGE);
    assert_int_equal(KEYED("ctxt 1\r\n", "ctxt", &v), GARBAGE);
    assert_true(v == 5);
    assert_int_equal(KEYED("intr 1 2 3\nctxt 77\nbtime 5\n", "ctxt", &v), FOUND);
    assert_true(v == 77);
}

static void test_table(void **state)
{
    uint64_t v = 0;
    (void)state;
    /* the column is found by name, wherever it is */
    assert_int_equal(TABLE("Ip: A B\nIp: 1 2\nTcp: MaxConn RetransSegs InErrs\nTcp: -1 17 0\n"
                           "Udp: X\nUdp: 4\n",
                           "RetransSegs", &v),
                     FOUND);
    assert_true(v == 17);
    assert_int_equal(TABLE("Tcp: RetransSegs MaxConn\nTcp: 9 -1\n", "RetransSegs", &v), FOUND);
    assert_true(v == 9);
    assert_int_equal(TABLE("Tcp: MaxConn\nTcp: -1\n", "RetransSegs", &v), MISSING);
    assert_int_equal(TABLE("TcpExt: RetransSegs\nTcpExt: 1\n", "RetransSegs", &v), MISSING);
    assert_int_equal(TABLE("Udp: X\nUdp: 4\n", "RetransSegs", &v), MISSING);
    v = 5;
    /* fewer or more values than names, a value that is no count, no value line, a third
     * line, a value line cut short */
    const char *bad[] = {"Tcp: A RetransSegs\nTcp: 1\n",
                         "Tcp: A RetransSegs\nTcp: 1 2 3\n",
                         "Tcp: A RetransSegs\nTcp: 1 -2\n",
                         "Tcp: A RetransSegs\n",
                         "Tcp: A RetransSegs\nUdp: 1 2\nTcp: 1 2\n",
                         "Tcp: A RetransSegs\nTcp: 1 2\nTcp: 1 2\n",
                         "Tcp: A RetransSegs\nTcp: 1 2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(llmm__host_parse_table(bad[i], strlen(bad[i]), "Tcp:", "RetransSegs",
                                                &v),
                         GARBAGE);
    assert_true(v == 5);
}

static void test_psi(void **state)
{
    uint64_t v = 0;
    (void)state;
    assert_int_equal(PSI("some avg10=1.00 avg60=0.50 avg300=0.10 total=123456\n"
                         "full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n",
                         &v),
                     FOUND);
    assert_true(v == 123456);
    assert_int_equal(PSI("full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n", &v), MISSING);
    assert_int_equal(PSI("some total=5\n", &v), FOUND);
    assert_true(v == 5);
    v = 9;
    assert_int_equal(PSI("some avg10=0.00 avg60=0.00 avg300=0.00\n", &v), GARBAGE);
    assert_int_equal(PSI("some total=1 total=2\n", &v), GARBAGE);
    assert_int_equal(PSI("some total=1\nsome total=2\n", &v), GARBAGE);
    assert_int_equal(PSI("some total=\n", &v), GARBAGE);
    assert_int_equal(PSI("some total=1.5\n", &v), GARBAGE);
    assert_int_equal(PSI("some total=12", &v), MISSING);
    assert_true(v == 9);
}

static void test_field(void **state)
{
    uint64_t v = 0;
    (void)state;
    assert_int_equal(FIELD("1303769 69440 1\n", 1, &v), FOUND);
    assert_true(v == 69440);
    assert_int_equal(FIELD("2400000\n", 0, &v), FOUND);
    assert_true(v == 2400000);
    assert_int_equal(FIELD("", 0, &v), MISSING);
    assert_int_equal(FIELD("2400000", 0, &v), MISSING);
    v = 4;
    assert_int_equal(FIELD("123 abc 4\n", 1, &v), GARBAGE);
    assert_int_equal(FIELD("123 456 x\n", 1, &v), GARBAGE); /* every field is a number */
    assert_int_equal(FIELD("123\n", 1, &v), GARBAGE);
    assert_int_equal(FIELD("<unknown>\n", 0, &v), GARBAGE);
    assert_int_equal(FIELD("2400000 \n", 0, &v), GARBAGE);
    assert_int_equal(FIELD("\n", 0, &v), GARBAGE);
    assert_true(v == 4);
}

static void test_cpulist(void **state)
{
    uint32_t ids[8];
    size_t n = 0;
    (void)state;
#define LIST(text, cap) llmm__host_parse_cpulist(text, strlen(text), ids, cap, &n)
    assert_int_equal(LIST("0-3,8,10-11\n", 8), FOUND);
    assert_int_equal(n, 7);
    const uint32_t want[] = {0, 1, 2, 3, 8, 10, 11};
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(ids[i], want[i]);
    assert_int_equal(LIST("0-63\n", 8), FOUND); /* the first 8 */
    assert_int_equal(n, 8);
    assert_int_equal(ids[7], 7);
    assert_int_equal(LIST("5\n", 8), FOUND);
    assert_int_equal(n, 1);
    assert_int_equal(LIST("\n", 8), MISSING);
    assert_int_equal(LIST("0-3", 8), MISSING);
    const char *bad[] = {"3-0\n", "0-\n", "-3\n", "0,,1\n", "0,\n", "0-65536\n", "a\n",
                         "0 1\n", "0-1-2\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(LIST(bad[i], 8), GARBAGE);
#undef LIST
}

static void test_cgroup(void **state)
{
    static const char v1[] = "12:pids:/a\n4:cpu,cpuacct:/user/1000.user\n1:name=systemd:/b\n";
    static const char v2[] = "1:name=systemd:/x\n0::/system.slice/llm.service\n";
    static const char acct[] = "2:cpuacct:/a\n3:cpuset:/b\n";
    const char *p, *name;
    size_t pn, nn;
    (void)state;
    assert_int_equal(llmm__host_parse_cgroup(v1, sizeof v1 - 1, 0, &p, &pn, &name, &nn), FOUND);
    assert_int_equal(pn, strlen("/user/1000.user"));
    assert_memory_equal(p, "/user/1000.user", pn);
    assert_int_equal(nn, strlen("cpu,cpuacct"));
    assert_memory_equal(name, "cpu,cpuacct", nn);
    assert_int_equal(llmm__host_parse_cgroup(v1, sizeof v1 - 1, 1, &p, &pn, &name, &nn),
                     MISSING);
    assert_int_equal(llmm__host_parse_cgroup(v2, sizeof v2 - 1, 1, &p, &pn, &name, &nn), FOUND);
    assert_memory_equal(p, "/system.slice/llm.service", pn);
    assert_int_equal(llmm__host_parse_cgroup(v2, sizeof v2 - 1, 0, &p, &pn, &name, &nn),
                     MISSING);
    /* cpuacct and cpuset are not cpu */
    assert_int_equal(llmm__host_parse_cgroup(acct, sizeof acct - 1, 0, &p, &pn, &name, &nn),
                     MISSING);
    assert_int_equal(llmm__host_parse_cgroup("0::\n", 4, 1, &p, &pn, &name, &nn), MISSING);
    assert_int_equal(llmm__host_parse_cgroup("0::/", 4, 1, &p, &pn, &name, &nn), MISSING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_u64),     cmocka_unit_test(test_keyed),
        cmocka_unit_test(test_table),   cmocka_unit_test(test_psi),
        cmocka_unit_test(test_field),   cmocka_unit_test(test_cpulist),
        cmocka_unit_test(test_cgroup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
