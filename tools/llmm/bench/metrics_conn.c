/* metrics_conn.c: the connections of `llmm bench --metrics-port` (metrics.h), within the limits
 * of tools/http/admit.h: accepted on the endpoint's own epoll set, read until the request head is
 * complete (sim/http.h's parser), answered at once (an exposition of a few KiB fits a fresh
 * socket's send buffer) and closed. GET and HEAD /metrics; 405 for other methods, 404 for
 * other paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bench/metrics.h"
#include "bench/request.h"
#include "sim/http.h"

struct llmm_bench_scrape {
    int fd;
    llmm_admit_entry guard;
    size_t n;
    char buf[2048];
};

static uint64_t now_ns(void)
{
    return (uint64_t)(llmm_bench_now() * 1e9);
}

int llmm_bench_metrics_listen(llmm_bench_metrics *m)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = m};
    if (epoll_ctl(m->ep, EPOLL_CTL_ADD, m->fd, &ev) != 0)
        return -1;
    m->accept_paused = 0;
    return 0;
}

static void drop(llmm_bench_metrics *m, llmm_bench_scrape *c)
{
    llmm_admit_leave(&m->guard, &c->guard);
    close(c->fd); /* closing removes it from the epoll set */
    free(c);
    if (m->accept_paused)
        llmm_bench_metrics_listen(m);
}

void llmm_bench_metrics_drop_all(llmm_bench_metrics *m)
{
    llmm_admit_entry *e; /* a scrape waits for its request until it is answered and closed */
    while ((e = llmm_admit_any(&m->guard)))
        drop(m, e->owner);
}

void llmm_bench_metrics_expire(llmm_bench_metrics *m)
{
    llmm_admit_entry *e;
    uint64_t now = now_ns();
    while ((e = llmm_admit_expired(&m->guard, now)))
        drop(m, e->owner);
}

/* A new connection from sa on fd: kept, or refused with a 503 by the limits. */
static void keep(llmm_bench_metrics *m, int fd, const struct sockaddr_storage *sa)
{
    llmm_bench_scrape *c = calloc(1, sizeof *c);
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = c};
    if (!c || llmm_admit_enter(&m->guard, &c->guard, sa, fd, now_ns()) != 0) {
        llmm_admit_refuse(fd, 1);
        free(c);
        return;
    }
    c->fd = fd;
    c->guard.owner = c;
    if (epoll_ctl(m->ep, EPOLL_CTL_ADD, fd, &ev) != 0)
        drop(m, c);
}

static void accept_all(llmm_bench_metrics *m)
{
    struct sockaddr_storage sa;
    int fd;
    while ((fd = llmm_admit_accept(m->fd, &sa)) >= 0)
        keep(m, fd, &sa);
    if (fd == -2) { /* out of descriptors: rest until a scrape closes, or the loop would spin */
        epoll_ctl(m->ep, EPOLL_CTL_DEL, m->fd, NULL);
        m->accept_paused = 1;
    }
}

/* The status for request h (NULL: unreadable, with status given). */
static int route(const llmm_sim_http_req *h, int status)
{
    if (!h)
        return status;
    if (strcmp(h->path, "/metrics") != 0)
        return 404;
    return strcmp(h->method, "GET") == 0 || strcmp(h->method, "HEAD") == 0 ? 200 : 405;
}

/* Answer c's request h (NULL: unreadable, with status) and close c. */
static void answer(llmm_bench_metrics *m, llmm_bench_scrape *c, const llmm_sim_http_req *h,
                   int status, const llmm_bench_live *live)
{
    char top[320];
    const uint8_t *data = NULL;
    size_t len = 0;
    int k, head = h && strcmp(h->method, "HEAD") == 0;
    struct iovec iov[2];
    struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};
    status = route(h, status);
    if (status == 200) {
        llmm_bench_metrics_expose(m, live, &data, &len);
        m->scrapes += !head;
    }
    k = snprintf(top, sizeof top,
                 "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
                 "Connection: close\r\n\r\n",
                 status, llmm_sim_http_reason(status),
                 status == 200 ? llmm_prom_content_type(LLMM_PROM_TEXT) : "text/plain", len,
                 status == 405 ? "Allow: GET, HEAD\r\n" : "");
    iov[0] = (struct iovec){top, (size_t)k};
    iov[1] = (struct iovec){(void *)(uintptr_t)data, head ? 0 : len};
    sendmsg(c->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    drop(m, c);
}

/* Read what c has sent; answer once its request head is complete. */
static void read_scrape(llmm_bench_metrics *m, llmm_bench_scrape *c, const llmm_bench_live *live)
{
    llmm_sim_http_req h;
    long k;
    ssize_t n = recv(c->fd, c->buf + c->n, sizeof c->buf - c->n, MSG_DONTWAIT);
    if (n <= 0) {
        if (n == 0 || (errno != EAGAIN && errno != EINTR))
            drop(m, c);
        return;
    }
    c->n += (size_t)n;
    k = llmm_sim_http_parse(c->buf, c->n, &h);
    if (k == LLMM_SIM_HTTP_MORE && c->n == sizeof c->buf)
        answer(m, c, NULL, 431, live);
    else if (k < 0)
        answer(m, c, NULL, (int)-k, live);
    else if (k > 0)
        answer(m, c, &h, 0, live);
}

void llmm_bench_metrics_event(llmm_bench_metrics *m, const llmm_bench_live *live)
{
    struct epoll_event ev[64];
    int n = epoll_wait(m->ep, ev, 64, 0);
    for (int i = 0; i < n; i++) {
        if (ev[i].data.ptr == m)
            accept_all(m);
        else
            read_scrape(m, ev[i].data.ptr, live);
    }
    llmm_bench_metrics_expire(m);
}
