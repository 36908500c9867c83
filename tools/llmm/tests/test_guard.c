/* test_guard: the connection limits of common/guard.h: the per-address and total limits, the
 * counts per address against an exact tally while thousands of addresses come and go (the
 * table grows and entries move back on removal), and the list of deadlines. */
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/guard.h"

static struct sockaddr_storage v4(uint32_t a)
{
    struct sockaddr_storage ss;
    struct sockaddr_in *s = (struct sockaddr_in *)&ss;
    memset(&ss, 0, sizeof ss);
    s->sin_family = AF_INET;
    s->sin_addr.s_addr = htonl(a);
    s->sin_port = htons((uint16_t)(a * 7)); /* the port must not matter */
    return ss;
}

static struct sockaddr_storage v6(uint8_t last)
{
    struct sockaddr_storage ss;
    struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss;
    memset(&ss, 0, sizeof ss);
    s->sin6_family = AF_INET6;
    s->sin6_addr.s6_addr[15] = last;
    return ss;
}

static void limits(void **state)
{
    llmm_cli_guard g;
    llmm_cli_guard_entry e[8];
    struct sockaddr_storage a = v4(0x7f000002), b = v4(0x7f000003), c = v6(1), d = v4(2);
    (void)state;
    llmm_cli_guard_init(&g, 2, 5, 1.0);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[0], &a, 1), 0);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[1], &a, 1), 0);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[2], &a, 1), LLMM_CLI_GUARD_PER_ADDRESS);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[2], &b, 1), 0);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[3], &b, 1), 0);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[4], &c, 1), 0);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[5], &d, 1), LLMM_CLI_GUARD_TOTAL);
    assert_int_equal(g.open, 5);
    assert_int_equal(g.used, 3);
    llmm_cli_guard_leave(&g, &e[0]);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[5], &d, 1), 0); /* 1.0.0.2 differs from ::1 */
    assert_int_equal(llmm_cli_guard_enter(&g, &e[6], &a, 1), LLMM_CLI_GUARD_TOTAL);
    llmm_cli_guard_leave(&g, &e[5]);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[6], &a, 1), 0);
    assert_int_equal(g.refused, 3);
    for (int i = 1; i <= 4; i++)
        llmm_cli_guard_leave(&g, &e[i]);
    llmm_cli_guard_leave(&g, &e[6]);
    assert_int_equal(g.open, 0);
    assert_int_equal(g.used, 0);
    llmm_cli_guard_free(&g);
}

enum { NADDR = 3000, CAP = 3 };

/* Every address holds exactly count[i] connections: one more enters iff count[i] < CAP. */
static void check_counts(llmm_cli_guard *g, const int *count)
{
    for (uint32_t i = 0; i < NADDR; i++) {
        struct sockaddr_storage a = v4(i * 2654435761u);
        llmm_cli_guard_entry extra;
        int rc = llmm_cli_guard_enter(g, &extra, &a, 1);
        assert_int_equal(rc, count[i] < CAP ? 0 : LLMM_CLI_GUARD_PER_ADDRESS);
        if (rc == 0)
            llmm_cli_guard_leave(g, &extra);
    }
}

static void many_addresses(void **state)
{
    llmm_cli_guard g;
    llmm_cli_guard_entry *e = calloc(NADDR * CAP, sizeof *e);
    int *count = calloc(NADDR, sizeof *count);
    (void)state;
    assert_non_null(e);
    assert_non_null(count);
    llmm_cli_guard_init(&g, CAP, NADDR * CAP, 1.0);
    for (uint32_t i = 0; i < NADDR; i++) {
        struct sockaddr_storage a = v4(i * 2654435761u);
        for (int k = 0; k <= (int)(i % CAP); k++, count[i]++)
            assert_int_equal(llmm_cli_guard_enter(&g, &e[i * CAP + (uint32_t)k], &a, 1), 0);
    }
    assert_int_equal(g.used, NADDR);
    check_counts(&g, count);
    for (uint32_t j = 0; j < NADDR; j++) { /* the even addresses leave, in a scattered order */
        uint32_t i = (j * 7919u) % NADDR;
        for (; i % 2 == 0 && count[i] > 0; count[i]--)
            llmm_cli_guard_leave(&g, &e[i * CAP + (uint32_t)count[i] - 1]);
    }
    assert_int_equal(g.used, NADDR / 2);
    check_counts(&g, count);
    free(e);
    free(count);
    llmm_cli_guard_free(&g);
}

static void deadlines(void **state)
{
    llmm_cli_guard g;
    llmm_cli_guard_entry e[2];
    struct sockaddr_storage a = v4(1);
    (void)state;
    llmm_cli_guard_init(&g, 9, 9, 2.0);
    assert_int_equal(llmm_cli_guard_next(&g), 0);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[0], &a, 0), 0);
    assert_int_equal(llmm_cli_guard_enter(&g, &e[1], &a, 1000000000u), 0);
    assert_int_equal(llmm_cli_guard_next(&g), 2000000000u);
    assert_null(llmm_cli_guard_expired(&g, 1999999999u));
    assert_ptr_equal(llmm_cli_guard_expired(&g, 2000000000u), &e[0]);
    llmm_cli_guard_served(&g, &e[0]); /* answered in time: no deadline */
    assert_int_equal(llmm_cli_guard_next(&g), 3000000000u);
    llmm_cli_guard_wait(&g, &e[0], 2500000000u); /* its next request: behind e[1] */
    llmm_cli_guard_wait(&g, &e[0], 2900000000u); /* waits already: unchanged */
    assert_int_equal(e[0].due_ns, 4500000000u);
    assert_ptr_equal(llmm_cli_guard_expired(&g, 4600000000u), &e[1]);
    llmm_cli_guard_leave(&g, &e[1]);
    assert_ptr_equal(llmm_cli_guard_expired(&g, 4600000000u), &e[0]);
    llmm_cli_guard_leave(&g, &e[0]);
    assert_null(llmm_cli_guard_expired(&g, UINT64_MAX));
    assert_int_equal(llmm_cli_guard_next(&g), 0);
    assert_int_equal(g.expired, 3);
    llmm_cli_guard_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limits),
        cmocka_unit_test(many_addresses),
        cmocka_unit_test(deadlines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
