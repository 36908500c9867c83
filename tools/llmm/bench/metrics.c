/* metrics.c: the /metrics endpoint of `llmm bench` (metrics.h): non-blocking accept and reads
 * on the event loop's epoll set; an answer is written at once (an exposition of a few KiB
 * fits a fresh socket's send buffer) and the connection closed. */
#include "bench/metrics.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

int llmm_bench_metrics_open(llmm_bench_metrics *m, int port, llmm_cli_error *err)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    int one = 1;
    memset(m, 0, sizeof *m);
    for (int i = 0; i < LLMM_BENCH_METRICS_CONNS; i++)
        m->conn[i] = -1;
    m->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = htons((uint16_t)port);
    if (m->fd < 0 || setsockopt(m->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(m->fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(m->fd, 16) != 0 ||
        getsockname(m->fd, (struct sockaddr *)&a, &len) != 0) {
        int e = errno;
        llmm_bench_metrics_close(m);
        return llmm_cli_fail(err, LLMM_CLI_EIO, "--metrics-port %d: %s", port, strerror(e));
    }
    if (llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &m->w) != LLMM_OK) {
        llmm_bench_metrics_close(m);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    m->port = ntohs(a.sin_port);
    return LLMM_CLI_OK;
}

static void drop(llmm_bench_metrics *m, int i)
{
    close(m->conn[i]); /* closing removes it from every epoll set */
    m->conn[i] = -1;
    m->nbuf[i] = 0;
}

void llmm_bench_metrics_detach(llmm_bench_metrics *m)
{
    for (int i = 0; i < LLMM_BENCH_METRICS_CONNS; i++)
        if (m->conn[i] >= 0)
            drop(m, i);
}

void llmm_bench_metrics_close(llmm_bench_metrics *m)
{
    llmm_bench_metrics_detach(m);
    if (m->fd >= 0)
        close(m->fd);
    m->fd = -1;
    llmm_prom_writer_free(m->w);
    m->w = NULL;
}

int llmm_bench_metrics_owns(const llmm_bench_metrics *m, int fd)
{
    if (!m || fd < 0)
        return 0;
    if (fd == m->fd)
        return 1;
    for (int i = 0; i < LLMM_BENCH_METRICS_CONNS; i++)
        if (m->conn[i] == fd)
            return 1;
    return 0;
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

/* The exposition of live into m's writer. */
static void expose(llmm_bench_metrics *m, const llmm_bench_live *live)
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
    llmm_prom_writer_family(m->w, "llm_client_in_flight", "requests in flight",
                            LLMM_PROM_GAUGE, NULL, 0);
    snprintf(labels, sizeof labels, "level=\"%s\"", live->level);
    llmm_prom_writer_value(m->w, labels, (double)live->in_flight);
}

/* Write all of b (the socket is blocking for this). */
static void write_all(int fd, const void *b, size_t n)
{
    const char *p = b;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

static void answer(llmm_bench_metrics *m, int i, const llmm_bench_live *live)
{
    char head[256];
    const uint8_t *data = NULL;
    size_t len = 0;
    int fd = m->conn[i], ok = strncmp(m->buf[i], "GET /metrics", 12) == 0;
    if (ok) {
        expose(m, live);
        llmm_prom_writer_data(m->w, &data, &len);
    }
    snprintf(head, sizeof head,
             "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
             ok ? "200 OK" : "404 Not Found",
             ok ? llmm_prom_content_type(LLMM_PROM_TEXT) : "text/plain", len);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    write_all(fd, head, strlen(head));
    if (len)
        write_all(fd, data, len);
    m->scrapes += ok;
    drop(m, i);
}

void llmm_bench_metrics_event(llmm_bench_metrics *m, int ep, int fd, const llmm_bench_live *live)
{
    if (fd == m->fd) {
        int c;
        while ((c = accept(m->fd, NULL, NULL)) >= 0) {
            struct epoll_event ev = {.events = EPOLLIN};
            int i = 0;
            fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK);
            fcntl(c, F_SETFD, FD_CLOEXEC);
            while (i < LLMM_BENCH_METRICS_CONNS && m->conn[i] >= 0)
                i++;
            ev.data.fd = c;
            if (i == LLMM_BENCH_METRICS_CONNS || epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev) != 0) {
                close(c);
                continue;
            }
            m->conn[i] = c;
        }
        return;
    }
    for (int i = 0; i < LLMM_BENCH_METRICS_CONNS; i++) {
        ssize_t n;
        if (m->conn[i] != fd)
            continue;
        n = read(fd, m->buf[i] + m->nbuf[i], sizeof m->buf[i] - 1 - m->nbuf[i]);
        if (n <= 0) {
            if (n == 0 || (errno != EAGAIN && errno != EINTR))
                drop(m, i);
            return;
        }
        m->nbuf[i] += (size_t)n;
        m->buf[i][m->nbuf[i]] = '\0';
        if (strstr(m->buf[i], "\r\n\r\n") || m->nbuf[i] == sizeof m->buf[i] - 1)
            answer(m, i, live);
        return;
    }
}
