/* Host sampler on the real /proc of the test machine: context switches from a thread
 * ping-pong, CPU pressure and run delay from more busy threads than CPUs, major faults from
 * pages read back from disk, and TCP retransmits provoked in a network namespace of the
 * test's own (unshare, then tc netem, or tbf where the kernel has no netem). Each asserts a
 * lower bound the test itself caused; none asserts a time. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

#define SEC 1e9

static llmm_host_sampler *real(void)
{
    llmm_host_sampler *s = NULL;
    assert_ok(llmm_host_sampler_new(NULL, NULL, &s));
    return s;
}

/* The count behind a rate: rate × interval. */
static double counted(const llmm_host_sampler *s, llmm_host_signal sig, uint64_t t0,
                      uint64_t t1)
{
    double r = -1;
    assert_ok(llmm_host_signal_rate(s, sig, &r));
    return r * (double)(t1 - t0) / SEC;
}

/* ---- context switches ----------------------------------------------------------------------- */

#define ROUNDS 2000

static void *pong(void *arg)
{
    int *p = arg; /* read end of ping, write end of pong */
    char c;
    for (int i = 0; i < ROUNDS; i++)
        if (read(p[0], &c, 1) != 1 || write(p[1], &c, 1) != 1)
            break;
    return NULL;
}

/* 2000 round trips between two threads over pipes: each round blocks both threads once, so
 * the host-wide count grows by 4000 or more; asserted: at least 2000 (half of them even if
 * a read found its byte already there). */
static void test_ctx_switches_ping_pong(void **state)
{
    llmm_host_sampler *s = real();
    int ping[2], back[2], ends[2];
    pthread_t th;
    uint64_t t0, t1;
    char c = 'x';
    (void)state;

    assert_int_equal(pipe(ping), 0);
    assert_int_equal(pipe(back), 0);
    ends[0] = ping[0];
    ends[1] = back[1];
    t0 = llmm_now_ns();
    assert_ok(llmm_host_sample(s, t0, NULL));
    assert_int_equal(pthread_create(&th, NULL, pong, ends), 0);
    for (int i = 0; i < ROUNDS; i++) {
        assert_int_equal(write(ping[1], &c, 1), 1);
        assert_int_equal(read(back[0], &c, 1), 1);
    }
    pthread_join(th, NULL);
    t1 = llmm_now_ns();
    assert_ok(llmm_host_sample(s, t1, NULL));
    double n = counted(s, LLMM_HOST_CTX_SWITCHES, t0, t1);
    print_message("# %.0f context switches counted for %d round trips\n", n, ROUNDS);
    assert_true(n >= ROUNDS * (1 - 1e-9));
    for (int i = 0; i < 2; i++) {
        close(ping[i]);
        close(back[i]);
    }
    llmm_host_sampler_free(s);
}

/* ---- pressure and run delay ------------------------------------------------------------------ */

static volatile int spinning;

static void *spin(void *arg)
{
    volatile uint64_t x = 0;
    (void)arg;
    while (spinning)
        x++;
    return NULL;
}

/* Twice as many busy threads as CPUs, plus the main thread busy too, for 300 ms: the main
 * thread must wait for a CPU (run delay > 0) and, where the kernel has PSI, some task always
 * waits (CPU pressure > 0). Memory and I/O pressure, where present, are within [0, 1] plus the
 * slack of the kernel's own accounting moments. */
static void test_pressure_and_run_delay(void **state)
{
    llmm_host_sampler *s = real();
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    size_t n = (size_t)(ncpu > 0 ? 2 * ncpu : 2);
    pthread_t *th = calloc(n, sizeof *th);
    volatile uint64_t x = 0;
    uint64_t t0, t1;
    double v;
    (void)state;

    assert_non_null(th);
    t0 = llmm_now_ns();
    assert_ok(llmm_host_sample(s, t0, NULL));
    spinning = 1;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pthread_create(&th[i], NULL, spin, NULL), 0);
    while (llmm_now_ns() - t0 < 300000000u)
        x++;
    spinning = 0;
    for (size_t i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    t1 = llmm_now_ns();
    assert_ok(llmm_host_sample(s, t1, NULL));
    free(th);

    if (llmm_host_signal_rate(s, LLMM_HOST_RUN_DELAY, &v) == LLMM_E_STATE) {
        print_message("# run delay: /proc/self/schedstat not exposed here, not checked\n");
    } else {
        assert_ok(llmm_host_signal_rate(s, LLMM_HOST_RUN_DELAY, &v));
        print_message("# run delay of the main thread: %.3f s/s\n", v);
        assert_true(v > 0);
    }
    if (llmm_host_signal_rate(s, LLMM_HOST_PSI_CPU, &v) == LLMM_E_STATE) {
        print_message("# PSI not exposed by this kernel, not checked\n");
    } else {
        assert_ok(llmm_host_signal_rate(s, LLMM_HOST_PSI_CPU, &v));
        print_message("# CPU pressure: %.3f stall s/s\n", v);
        assert_true(v > 0);
        for (int sig = LLMM_HOST_PSI_MEMORY; sig <= LLMM_HOST_PSI_IO; sig++) {
            assert_ok(llmm_host_signal_rate(s, (llmm_host_signal)sig, &v));
            assert_true(v >= 0 && v <= 1.05);
        }
    }
    llmm_host_sampler_free(s);
}

/* ---- major faults ---------------------------------------------------------------------------- */

/* A 2 MiB file written, synced and dropped from the page cache, then read through a mapping
 * with read-ahead off: at least one page must come from disk (a major fault). The file lives
 * in the test's working directory (the build tree: a disk, where /tmp may be tmpfs). */
static void test_major_faults(void **state)
{
    static const char path[] = "test_host_live.majfault";
    const size_t size = 2u << 20;
    llmm_host_sampler *s = real();
    char *buf = malloc(size);
    volatile char sum = 0;
    uint64_t t0, t1;
    int fd;
    (void)state;

    assert_non_null(buf);
    memset(buf, 'm', size);
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, size), (ssize_t)size);
    assert_int_equal(fsync(fd), 0);
    assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
    char *m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    assert_true(m != MAP_FAILED);
    assert_int_equal(madvise(m, size, MADV_RANDOM), 0);
    t0 = llmm_now_ns();
    assert_ok(llmm_host_sample(s, t0, NULL));
    for (size_t i = 0; i < size; i += 4096)
        sum = (char)(sum + m[i]);
    t1 = llmm_now_ns();
    assert_ok(llmm_host_sample(s, t1, NULL));
    double n = counted(s, LLMM_HOST_MAJOR_FAULTS, t0, t1);
    print_message("# %.0f major faults counted for %zu pages read back\n", n, size / 4096);
    assert_true(n >= 1 - 1e-9);
    munmap(m, size);
    close(fd);
    unlink(path);
    free(buf);
    llmm_host_sampler_free(s);
}

/* ---- TCP retransmits in a network namespace -------------------------------------------------- */

/* RetransSegs of this network namespace, read independently of the library. */
static long long retrans_segs(void)
{
    char names[4096], values[4096];
    long long v = -1;
    FILE *f = fopen("/proc/net/snmp", "r");
    if (!f)
        return -1;
    while (fgets(names, sizeof names, f)) {
        if (strncmp(names, "Tcp:", 4) != 0 || !fgets(values, sizeof values, f))
            continue;
        char *sn = NULL, *sv = NULL, *n = strtok_r(names, " \n", &sn);
        char *x = strtok_r(values, " \n", &sv);
        while (n && x && strcmp(n, "RetransSegs") != 0) {
            n = strtok_r(NULL, " \n", &sn);
            x = strtok_r(NULL, " \n", &sv);
        }
        if (n && x)
            v = atoll(x);
        break;
    }
    fclose(f);
    return v;
}

static void *drain(void *arg)
{
    int srv = *(int *)arg, c = accept(srv, NULL, NULL);
    char buf[65536];
    while (c >= 0 && read(c, buf, sizeof buf) > 0)
        continue;
    if (c >= 0)
        close(c);
    return NULL;
}

/* 256 KiB over loopback through a lossy queue. */
static int transfer(void)
{
    struct sockaddr_in a = {0};
    socklen_t alen = sizeof a;
    char buf[65536] = {0};
    pthread_t th;
    int srv = socket(AF_INET, SOCK_STREAM, 0), c;

    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (srv < 0 || bind(srv, (struct sockaddr *)&a, sizeof a) != 0 || listen(srv, 1) != 0 ||
        getsockname(srv, (struct sockaddr *)&a, &alen) != 0 ||
        pthread_create(&th, NULL, drain, &srv) != 0)
        return -1;
    c = socket(AF_INET, SOCK_STREAM, 0);
    if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof a) != 0)
        return -1;
    for (int i = 0; i < 4; i++)
        if (write(c, buf, sizeof buf) != (ssize_t)sizeof buf)
            return -1;
    close(c);
    pthread_join(th, NULL);
    close(srv);
    return 0;
}

#define NOT_HERE 77 /* the child's exit status when the machine does not allow the test */

/* In the child: a network namespace, loopback up with a lossy queue, a sampler opened there,
 * a transfer between two samples. The sampler's count lies between the independent counts
 * read just inside and just outside its two samples; the inner one shows retransmits. */
static int netns_child(void)
{
    llmm_host_sampler *s = NULL;
    long long outer0, inner0, inner1, outer1;
    uint64_t t0, t1;
    double r;

    if (unshare(CLONE_NEWNET) != 0) {
        fprintf(stderr, "# unshare(CLONE_NEWNET): %s\n", strerror(errno));
        return NOT_HERE;
    }
    setenv("PATH", "/usr/sbin:/sbin:/usr/bin:/bin", 1);
    if (system("ip link set lo mtu 1500 up") != 0) {
        fprintf(stderr, "# 'ip link set lo up' failed\n");
        return NOT_HERE;
    }
    if (system("tc qdisc add dev lo root netem loss 20% 2>/dev/null") == 0) {
        fprintf(stderr, "# lossy queue: netem loss 20%%\n");
    } else if (system("tc qdisc add dev lo root tbf rate 20mbit burst 16k limit 8k") == 0) {
        fprintf(stderr, "# lossy queue: no netem in this kernel ('tc qdisc add … netem' fails: "
                        "unknown qdisc kind); tbf rate 20mbit burst 16k limit 8k drops instead\n");
    } else {
        fprintf(stderr, "# neither tc netem nor tc tbf can be added here\n");
        return NOT_HERE;
    }
    if (llmm_host_sampler_new(NULL, NULL, &s) != LLMM_OK)
        return 1;
    outer0 = retrans_segs();
    t0 = llmm_now_ns();
    llmm_host_sample(s, t0, NULL);
    inner0 = retrans_segs();
    if (transfer() != 0)
        return 2;
    inner1 = retrans_segs();
    t1 = llmm_now_ns();
    llmm_host_sample(s, t1, NULL);
    outer1 = retrans_segs();
    if (llmm_host_signal_rate(s, LLMM_HOST_TCP_RETRANS, &r) != LLMM_OK)
        return 3;
    r *= (double)(t1 - t0) / SEC;
    fprintf(stderr, "# retransmits: sampler %.3f, independent %lld ... %lld\n", r,
            inner1 - inner0, outer1 - outer0);
    llmm_host_sampler_free(s);
    if (inner1 - inner0 < 1)
        return 4;
    return r >= (double)(inner1 - inner0) - 1e-6 && r <= (double)(outer1 - outer0) + 1e-6 ? 0
                                                                                           : 5;
}

static void test_tcp_retransmits_in_netns(void **state)
{
    int status = 0;
    pid_t pid;
    (void)state;

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(netns_child());
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == NOT_HERE) {
        print_message("# not run: the machine does not allow a network namespace with a lossy "
                      "queue (reason above)\n");
        return;
    }
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctx_switches_ping_pong),
        cmocka_unit_test(test_pressure_and_run_delay),
        cmocka_unit_test(test_major_faults),
        cmocka_unit_test(test_tcp_retransmits_in_netns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
