/* metrics.c: the /metrics endpoint of `llmm bench` (metrics.h): its listening socket and its
 * exposition; metrics_conn.c serves the connections. */
#include "bench/metrics.h"

#include <errno.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/* The numeric address addr at port in *a; 0, or -1 when addr is not one. */
static int address_of(const char *addr, int port, struct sockaddr_storage *a, socklen_t *len)
{
    struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)a;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)(void *)a;
    memset(a, 0, sizeof *a);
    if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        *len = sizeof *v4;
        return 0;
    }
    if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        *len = sizeof *v6;
        return 0;
    }
    return -1;
}

/* The socket bound to a and listening, and the epoll set watching it; 0, or -1 with errno. */
static int bind_listen(llmm_bench_metrics *m, struct sockaddr_storage *a, socklen_t len)
{
    int one = 1;
    m->fd = socket(a->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    m->ep = epoll_create1(EPOLL_CLOEXEC);
    if (m->fd < 0 || m->ep < 0 ||
        setsockopt(m->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(m->fd, (struct sockaddr *)a, len) != 0 || listen(m->fd, 1024) != 0 ||
        getsockname(m->fd, (struct sockaddr *)a, &len) != 0 || llmm_bench_metrics_listen(m))
        return -1;
    m->port = ntohs(a->ss_family == AF_INET6 ? ((struct sockaddr_in6 *)(void *)a)->sin6_port
                                             : ((struct sockaddr_in *)(void *)a)->sin_port);
    return 0;
}

int llmm_bench_metrics_open(llmm_bench_metrics *m, const char *addr, int port,
                            llmm_cli_error *err)
{
    struct sockaddr_storage a;
    socklen_t len;
    memset(m, 0, sizeof *m);
    m->fd = m->ep = -1;
    llmm_admit_init(&m->guard, LLMM_BENCH_METRICS_PER_ADDRESS, LLMM_BENCH_METRICS_TOTAL,
                        LLMM_BENCH_METRICS_REQUEST_S);
    if (address_of(addr, port, &a, &len) != 0) {
        llmm_bench_metrics_close(m);
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--metrics-address '%s': not an IPv4 or IPv6 address", addr);
    }
    if (bind_listen(m, &a, len) != 0) {
        int e = errno;
        llmm_bench_metrics_close(m);
        return llmm_cli_fail(err, LLMM_CLI_EIO, "--metrics-address %s --metrics-port %d: %s",
                             addr, port, strerror(e));
    }
    if (llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &m->w) != LLMM_OK) {
        llmm_bench_metrics_close(m);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    return LLMM_CLI_OK;
}

void llmm_bench_metrics_close(llmm_bench_metrics *m)
{
    llmm_bench_metrics_drop_all(m);
    llmm_admit_free(&m->guard);
    if (m->fd >= 0)
        close(m->fd);
    if (m->ep >= 0)
        close(m->ep);
    m->fd = m->ep = -1;
    llmm_prom_writer_free(m->w);
    m->w = NULL;
}

int llmm_bench_metrics_owns(const llmm_bench_metrics *m, int fd)
{
    return m && fd >= 0 && fd == m->ep;
}

static const char *const family[LLMM_BENCH_NSKETCH] = {
    "llm_client_ttft_seconds", "llm_client_itl_seconds", "llm_client_e2e_seconds",
    "llm_client_ttft_from_intended_seconds", "llm_client_e2e_from_intended_seconds"};
static const char *const help[LLMM_BENCH_NSKETCH] = {
    "client-side time to first token, from the send time",
    "client-side gaps between streamed output chunks",
    "client-side request latency to the last output chunk, from the send time",
    "open loop: time to first token from the intended send time",
    "open loop: latency from the intended send time"};

void llmm_bench_metrics_expose(llmm_bench_metrics *m, const llmm_bench_live *live,
                               const uint8_t **data, size_t *len)
{
    static const double q[] = {0.5, 0.9, 0.99, 0.999};
    char labels[96];
    uint64_t done = 0;
    snprintf(labels, sizeof labels, "level=\"%s\"", live->level);
    llmm_prom_writer_reset(m->w, LLMM_PROM_TEXT);
    for (int k = 0; k < LLMM_BENCH_NSKETCH; k++) {
        llmm_sketch *s;
        if (!live->r->level.open && (k == LLMM_BENCH_TTFT_CO || k == LLMM_BENCH_E2E_CO))
            continue;
        s = llmm_bench_result_sketch(live->r, k);
        llmm_prom_writer_family(m->w, family[k], help[k], LLMM_PROM_SUMMARY, q, 4);
        if (s)
            llmm_prom_writer_sketch(m->w, labels, s, 1.0);
        llmm_sketch_free(s);
    }
    llmm_prom_writer_family(m->w, "llm_client_requests_total",
                            "requests ended in this level, by outcome", LLMM_PROM_COUNTER,
                            NULL, 0);
    for (int k = 1; k < LLMM_BENCH_NREASONS; k++)
        done += live->r->failed[k];
    done = live->r->n - live->in_flight - done;
    snprintf(labels, sizeof labels, "level=\"%s\",outcome=\"ok\"", live->level);
    llmm_prom_writer_value(m->w, labels, (double)done);
    for (int k = 1; k < LLMM_BENCH_NREASONS; k++) {
        snprintf(labels, sizeof labels, "level=\"%s\",outcome=\"%s\"", live->level,
                 llmm_bench_reason_name(k));
        llmm_prom_writer_value(m->w, labels, (double)live->r->failed[k]);
    }
    llmm_prom_writer_family(m->w, "llm_client_resends_total",
                            "requests of this level sent again: their reused connection died "
                            "before a byte of answer",
                            LLMM_PROM_COUNTER, NULL, 0);
    snprintf(labels, sizeof labels, "level=\"%s\"", live->level);
    llmm_prom_writer_value(m->w, labels, (double)live->r->resends);
    llmm_prom_writer_family(m->w, "llm_client_in_flight", "requests in flight",
                            LLMM_PROM_GAUGE, NULL, 0);
    snprintf(labels, sizeof labels, "level=\"%s\"", live->level);
    llmm_prom_writer_value(m->w, labels, (double)live->in_flight);
    llmm_prom_writer_data(m->w, data, len);
}
