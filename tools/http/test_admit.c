/* test_admit: the admission policy of admit.h against hand-worked cases: who gives way under
 * the per-address and total limits (the connection waiting longest, never one being answered,
 * never one whose complete request head waits in its socket), the socket of the one that gives
 * way shut down, the counts per address against an exact tally while thousands of addresses
 * come and go (the table grows and entries move back on removal), and the list of
 * deadlines. */
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "admit.h"

/* The addresses are built in their own types and copied into the storage byte for byte: a
 * store through a cast pointer would not be seen by the copy of the storage at -O2 (strict
 * aliasing: on x86-64 every address read as 0.0.0.0 and many_addresses failed). */
static struct sockaddr_storage v4(uint32_t a)
{
    struct sockaddr_storage ss;
    struct sockaddr_in s;
    memset(&s, 0, sizeof s);
    s.sin_family = AF_INET;
    s.sin_addr.s_addr = htonl(a);
    s.sin_port = htons((uint16_t)(a * 7)); /* the port must not matter */
    memset(&ss, 0, sizeof ss);
    memcpy(&ss, &s, sizeof s);
    return ss;
}

static struct sockaddr_storage v6(uint8_t last)
{
    struct sockaddr_storage ss;
    struct sockaddr_in6 s;
    memset(&s, 0, sizeof s);
    s.sin6_family = AF_INET6;
    s.sin6_addr.s6_addr[15] = last;
    memset(&ss, 0, sizeof ss);
    memcpy(&ss, &s, sizeof s);
    return ss;
}

/* Enter e from sa with no socket. */
static int enter(llmm_admit *g, llmm_admit_entry *e, const struct sockaddr_storage *sa,
                 uint64_t now)
{
    return llmm_admit_enter(g, e, sa, -1, now);
}

static void limits(void **state)
{
    llmm_admit g;
    llmm_admit_entry e[10];
    struct sockaddr_storage a = v4(0x7f000002), b = v4(0x7f000003), c = v6(1), d = v4(2);
    (void)state;
    llmm_admit_init(&g, 2, 5, 1.0);
    assert_int_equal(enter(&g, &e[0], &a, 1), 0);
    assert_int_equal(enter(&g, &e[1], &a, 2), 0);
    assert_int_equal(enter(&g, &e[2], &a, 3), 0); /* a's third: its oldest gives way */
    assert_int_equal(e[0].state, LLMM_ADMIT_GONE);
    assert_ptr_equal(llmm_admit_any(&g), &e[1]);  /* the waiting first, then the gone */
    assert_int_equal(g.evicted, 1);
    assert_int_equal(g.open, 2);
    llmm_admit_served(&g, &e[1]);                 /* answered: no place under a's limit */
    assert_int_equal(enter(&g, &e[3], &a, 4), 0); /* e[2], e[3] wait */
    assert_int_equal(g.evicted, 1);
    assert_int_equal(enter(&g, &e[4], &a, 5), 0); /* e[2] goes, never e[1] */
    assert_int_equal(e[2].state, LLMM_ADMIT_GONE);
    assert_int_equal(e[1].state, LLMM_ADMIT_ANSWERING);
    assert_int_equal(enter(&g, &e[5], &b, 6), 0);
    assert_int_equal(enter(&g, &e[6], &b, 7), 0); /* open: e1 e3 e4 e5 e6 = 5, the total */
    assert_int_equal(g.open, 5);
    assert_int_equal(enter(&g, &e[7], &c, 8), 0); /* the oldest waiting of any address */
    assert_int_equal(e[3].state, LLMM_ADMIT_GONE);
    assert_int_equal(g.open, 5);
    assert_int_equal(g.used, 3);                  /* a (e4), b (e5, e6), c (e7) */
    assert_int_equal(g.evicted, 3);
    assert_int_equal(g.refused, 0);
    llmm_admit_leave(&g, &e[0]); /* the gone leave as their servers close them */
    llmm_admit_leave(&g, &e[2]);
    llmm_admit_leave(&g, &e[3]);
    llmm_admit_leave(&g, &e[1]); /* answered, then closed */
    assert_int_equal(g.open, 4);
    assert_int_equal(enter(&g, &e[8], &d, 9), 0); /* 1.0.0.2 differs from ::1; room again */
    assert_int_equal(g.evicted, 3);
    for (int i = 4; i <= 8; i++)
        llmm_admit_leave(&g, &e[i]);
    assert_int_equal(g.open, 0);
    assert_int_equal(g.used, 0);
    assert_null(llmm_admit_any(&g));
    llmm_admit_free(&g);
}

/* Nothing can give way: every connection is being answered, or its complete request head
 * waits in its socket; then the new one is refused and nothing changes. */
static void refused_when_none_can_go(void **state)
{
    llmm_admit g;
    llmm_admit_entry e[4];
    struct sockaddr_storage a = v4(1), b = v4(2), c = v4(3);
    int sp[2], rp[2];
    char buf[8];
    static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
    (void)state;
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, rp), 0);
    llmm_admit_init(&g, 1, 2, 1.0);
    assert_int_equal(send(sp[1], req, sizeof req - 1, 0), (ssize_t)(sizeof req - 1));
    assert_int_equal(llmm_admit_enter(&g, &e[0], &a, sp[0], 1), 0); /* its head has arrived */
    assert_int_equal(enter(&g, &e[1], &a, 2), LLMM_ADMIT_PER_ADDRESS);
    assert_int_equal(e[0].state, LLMM_ADMIT_WAITING);
    llmm_admit_served(&g, &e[0]);
    assert_int_equal(enter(&g, &e[1], &b, 3), 0);
    llmm_admit_served(&g, &e[1]);
    assert_int_equal(enter(&g, &e[2], &c, 4), LLMM_ADMIT_TOTAL); /* both being answered */
    assert_int_equal(g.refused, 2);
    assert_int_equal(g.open, 2);
    assert_int_equal(g.used, 0);
    /* a half-sent head gives way, and its socket is shut down: its peer reads the end */
    llmm_admit_wait(&g, &e[1], 5);
    assert_int_equal(send(rp[1], "GET / HT", 8, 0), 8);
    llmm_admit_leave(&g, &e[0]);
    assert_int_equal(llmm_admit_enter(&g, &e[3], &b, rp[0], 6), 0);
    assert_int_equal(enter(&g, &e[2], &b, 7), 0); /* b waits twice: e[1] (oldest) goes */
    assert_int_equal(e[1].state, LLMM_ADMIT_GONE);
    assert_int_equal(enter(&g, &e[0], &c, 8), 0); /* the total: e[3] (half a head) goes */
    assert_int_equal(e[3].state, LLMM_ADMIT_GONE);
    assert_int_equal(recv(rp[1], buf, sizeof buf, 0), 0);
    for (int i = 0; i < 4; i++)
        llmm_admit_leave(&g, &e[i]);
    assert_int_equal(g.open, 0);
    assert_null(llmm_admit_any(&g));
    llmm_admit_free(&g);
    close(sp[0]);
    close(sp[1]);
    close(rp[0]);
    close(rp[1]);
}

/* A connection answered and kept alive waits again: past its address's limit, the longest
 * waiting other one of that address gives way. */
static void waiting_again(void **state)
{
    llmm_admit g;
    llmm_admit_entry e[3];
    struct sockaddr_storage a = v4(1);
    (void)state;
    llmm_admit_init(&g, 2, 9, 1.0);
    assert_int_equal(enter(&g, &e[0], &a, 1), 0);
    llmm_admit_served(&g, &e[0]);
    assert_int_equal(enter(&g, &e[1], &a, 2), 0);
    assert_int_equal(enter(&g, &e[2], &a, 3), 0);
    llmm_admit_wait(&g, &e[0], 4);
    assert_int_equal(e[1].state, LLMM_ADMIT_GONE);
    assert_int_equal(e[0].state, LLMM_ADMIT_WAITING);
    assert_int_equal(e[2].state, LLMM_ADMIT_WAITING);
    assert_int_equal(g.open, 2);
    for (int i = 0; i < 3; i++)
        llmm_admit_leave(&g, &e[i]);
    assert_int_equal(g.used, 0);
    llmm_admit_free(&g);
}

enum { NADDR = 3000, CAP = 3 };

/* Every address has exactly count[i] connections waiting: one more gives way to a new one
 * iff count[i] == CAP (that one leaves and comes back, newest of its address). */
static void check_counts(llmm_admit *g, llmm_admit_entry *e, const int *count)
{
    for (uint32_t i = 0; i < NADDR; i++) {
        struct sockaddr_storage a = v4(i * 2654435761u);
        llmm_admit_entry extra;
        uint64_t before = g->evicted;
        assert_int_equal(enter(g, &extra, &a, 1), 0);
        assert_int_equal(g->evicted - before, count[i] == CAP ? 1u : 0u);
        llmm_admit_leave(g, &extra);
        for (int k = 0; k < count[i]; k++) {
            llmm_admit_entry *x = &e[i * CAP + (uint32_t)k];
            if (x->state == LLMM_ADMIT_GONE) {
                llmm_admit_leave(g, x);
                assert_int_equal(enter(g, x, &a, 1), 0);
            }
        }
    }
}

static void many_addresses(void **state)
{
    llmm_admit g;
    llmm_admit_entry *e = calloc(NADDR * CAP, sizeof *e);
    int *count = calloc(NADDR, sizeof *count);
    (void)state;
    assert_non_null(e);
    assert_non_null(count);
    llmm_admit_init(&g, CAP, NADDR * CAP + 1, 1.0);
    for (uint32_t i = 0; i < NADDR; i++) {
        struct sockaddr_storage a = v4(i * 2654435761u);
        for (int k = 0; k <= (int)(i % CAP); k++, count[i]++)
            assert_int_equal(enter(&g, &e[i * CAP + (uint32_t)k], &a, 1), 0);
    }
    assert_int_equal(g.used, NADDR);
    check_counts(&g, e, count);
    for (uint32_t j = 0; j < NADDR; j++) { /* the even addresses leave, in a scattered order */
        uint32_t i = (j * 7919u) % NADDR;
        for (; i % 2 == 0 && count[i] > 0; count[i]--)
            llmm_admit_leave(&g, &e[i * CAP + (uint32_t)count[i] - 1]);
    }
    assert_int_equal(g.used, NADDR / 2);
    check_counts(&g, e, count);
    free(e);
    free(count);
    llmm_admit_free(&g);
}

static void deadlines(void **state)
{
    llmm_admit g;
    llmm_admit_entry e[2];
    struct sockaddr_storage a = v4(1);
    (void)state;
    llmm_admit_init(&g, 9, 9, 2.0);
    assert_int_equal(llmm_admit_next(&g), 0);
    assert_int_equal(enter(&g, &e[0], &a, 0), 0);
    assert_int_equal(enter(&g, &e[1], &a, 1000000000u), 0);
    assert_int_equal(llmm_admit_next(&g), 2000000000u);
    assert_null(llmm_admit_expired(&g, 1999999999u));
    assert_ptr_equal(llmm_admit_expired(&g, 2000000000u), &e[0]);
    llmm_admit_served(&g, &e[0]); /* answered in time: no deadline */
    assert_int_equal(llmm_admit_next(&g), 3000000000u);
    llmm_admit_wait(&g, &e[0], 2500000000u); /* its next request: behind e[1] */
    llmm_admit_wait(&g, &e[0], 2900000000u); /* waits already: unchanged */
    assert_int_equal(e[0].due_ns, 4500000000u);
    assert_ptr_equal(llmm_admit_expired(&g, 4600000000u), &e[1]);
    llmm_admit_evict(&g, &e[1]); /* a threaded server lets it give way */
    assert_ptr_equal(llmm_admit_expired(&g, 4600000000u), &e[0]);
    llmm_admit_leave(&g, &e[0]);
    assert_null(llmm_admit_expired(&g, UINT64_MAX));
    assert_int_equal(llmm_admit_next(&g), 0);
    assert_int_equal(g.expired, 3);
    assert_ptr_equal(llmm_admit_any(&g), &e[1]);
    llmm_admit_leave(&g, &e[1]);
    assert_int_equal(g.open, 0);
    llmm_admit_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limits),
        cmocka_unit_test(refused_when_none_can_go),
        cmocka_unit_test(waiting_again),
        cmocka_unit_test(many_addresses),
        cmocka_unit_test(deadlines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
