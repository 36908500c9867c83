/* server.c: `llmm sim`'s event loop (server.h). */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "sim/server.h"
#include "sim/tls.h"

uint64_t llmm_sim_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The epoll tags of the server's own descriptors (connections carry their llmm_sim_conn). */
static int tag_listen, tag_timer, tag_signal;

static int watch(int epfd, int fd, void *tag)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = tag};
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

/* Bind and listen on host:port; the socket, or -1 with a message. */
static int listen_on(const char *host, unsigned port, FILE *err)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV},
                    *ai = NULL;
    char service[16];
    int fd = -1, one = 1, rc;
    snprintf(service, sizeof service, "%u", port);
    rc = getaddrinfo(host, service, &hints, &ai);
    if (rc != 0) {
        fprintf(err, "llmm sim: %s: %s\n", host, gai_strerror(rc));
        return -1;
    }
    for (struct addrinfo *a = ai; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 4096) != 0) {
            fprintf(err, "llmm sim: cannot listen on %s port %u: %s\n", host, port,
                    strerror(errno));
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    return fd;
}

/* "llmm sim: listening on http://HOST:PORT", the port the system gave. */
static void say_listening(int fd, const llmm_sim_config *cfg, FILE *out)
{
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    unsigned port = cfg->port;
    if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
        port = sa.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&sa)->sin6_port)
                                        : ntohs(((struct sockaddr_in *)&sa)->sin_port);
    fprintf(out, "llmm sim: listening on %s://%s%s%s:%u\n", cfg->tls_cert ? "https" : "http",
            strchr(cfg->host, ':') ? "[" : "", cfg->host, strchr(cfg->host, ':') ? "]" : "",
            port);
    fflush(out);
}

/* Accept what waits; a connection past the limits is closed at once (llmm_sim_conn_open). */
static void accept_all(llmm_sim_server *s, int lfd)
{
    struct sockaddr_storage sa;
    int fd, one = 1;
    while ((fd = llmm_admit_accept(lfd, &sa)) >= 0) {
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (llmm_sim_conn_open(s, fd, &sa) != 0)
            close(fd);
    }
    if (fd == -2) { /* the backlog waits; watching the socket now would spin until a close */
        epoll_ctl(s->epfd, EPOLL_CTL_DEL, lfd, NULL);
        s->accept_paused = 1;
    }
}

void llmm_sim_resume_accept(llmm_sim_server *s)
{
    if (s->accept_paused && watch(s->epfd, s->listen_fd, &tag_listen) == 0)
        s->accept_paused = 0;
}

/* Point the timer at the engine's next deadline (0: disarmed). */
static void arm(int tfd, uint64_t at, uint64_t *armed)
{
    struct itimerspec its = {{0, 0}, {0, 0}};
    if (at == *armed)
        return;
    its.it_value.tv_sec = (time_t)(at / 1000000000u);
    its.it_value.tv_nsec = (long)(at % 1000000000u);
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
    *armed = at;
}

/* The earlier of two CLOCK_MONOTONIC times, 0 standing for never. */
static uint64_t earliest(uint64_t a, uint64_t b)
{
    return !a ? b : !b ? a : a < b ? a : b;
}

/* Close the connections whose request is late. */
static void expire(llmm_sim_server *s)
{
    llmm_admit_entry *e;
    uint64_t now = llmm_sim_now_ns();
    while ((e = llmm_admit_expired(&s->guard, now)))
        llmm_sim_conn_close(e->owner);
}

/* The descriptors' limit raised to its hard maximum: a thousand streams need as many. */
static void raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* The loop until a signal; 0. */
static int loop(llmm_sim_server *s, int lfd, int tfd)
{
    struct epoll_event ev[256];
    uint64_t armed = 0, junk;
    for (;;) {
        int n;
        llmm_sim_engine_advance(&s->engine, llmm_sim_now_ns());
        expire(s);
        arm(tfd, earliest(llmm_sim_engine_deadline(&s->engine), llmm_admit_next(&s->guard)),
            &armed);
        if (s->log_dirty) {
            fflush(s->log);
            s->log_dirty = 0;
        }
        n = epoll_wait(s->epfd, ev, 256, -1);
        for (int i = 0; i < n; i++) {
            void *p = ev[i].data.ptr;
            if (p == &tag_signal)
                return 0;
            if (p == &tag_listen)
                accept_all(s, lfd);
            else if (p == &tag_timer) {
                if (read(tfd, &junk, sizeof junk) < 0)
                    armed = 0; /* already read or rearmed: arm again to be sure */
                armed = 0;
            } else
                llmm_sim_conn_event(p, ev[i].events);
        }
    }
}

/* The signal descriptor for SIGINT and SIGTERM (blocked for delivery); -1 on failure. */
static int signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0)
        return -1;
    signal(SIGPIPE, SIG_IGN);
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

static int setup(llmm_sim_server *s, const llmm_sim_config *cfg, FILE *err)
{
    llmm_sim_engine_cb cb = {.ctx = s, .token = llmm_sim_on_token,
                             .release = llmm_sim_on_release};
    char msg[512];
    *s = (llmm_sim_server){.cfg = *cfg, .epfd = -1};
    llmm_admit_init(&s->guard, cfg->limits.per_address, cfg->limits.max_connections,
                        cfg->limits.request_s);
    llmm_cli_rng_seed(&s->rng, cfg->p.seed);
    llmm_cli_rng_seed(&s->fault_rng, cfg->p.seed ^ 0x6a09e667f3bcc909ull);
    if (llmm_sim_engine_init(&s->engine, &cfg->p, &cb) != 0)
        return fprintf(err, "llmm sim: out of memory\n"), -1;
    if (cfg->tls_cert &&
        !(s->tls_ctx = llmm_sim_tls_context(cfg->tls_cert, cfg->tls_key, msg, sizeof msg)))
        return fprintf(err, "llmm sim: %s\n", msg), -1;
    if (cfg->log_path && !(s->log = fopen(cfg->log_path, "w")))
        return fprintf(err, "llmm sim: %s: %s\n", cfg->log_path, strerror(errno)), -1;
    s->epfd = epoll_create1(EPOLL_CLOEXEC);
    return s->epfd < 0 ? fprintf(err, "llmm sim: epoll: %s\n", strerror(errno)), -1 : 0;
}

/* Everything the server holds, requests in flight included (written to the log as cut). */
static void teardown(llmm_sim_server *s)
{
    llmm_sim_engine *e = &s->engine;
    uint64_t now = llmm_sim_now_ns();
    s->stopping = 1;
    while (s->conns)
        llmm_sim_conn_close(s->conns);
    while (e->nrun)
        llmm_sim_on_release(s, e->run[--e->nrun], now);
    while (e->wait_head) {
        llmm_sim_seq *q = e->wait_head;
        e->wait_head = q->next;
        llmm_sim_on_release(s, q, now);
    }
    llmm_sim_engine_free(e);
    llmm_admit_free(&s->guard);
    llmm_sim_tls_context_free(s->tls_ctx);
    if (s->log)
        fclose(s->log);
    if (s->epfd >= 0)
        close(s->epfd);
}

int llmm_sim_serve(const llmm_sim_config *cfg, FILE *out, FILE *err)
{
    llmm_sim_server s;
    int lfd = -1, tfd = -1, sfd = -1, status = 1;
    raise_nofile();
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); /* wake-ups to the microsecond */
    if (setup(&s, cfg, err) == 0 && (lfd = listen_on(cfg->host, cfg->port, err)) >= 0) {
        s.listen_fd = lfd;
        tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        sfd = signals();
        if (tfd < 0 || sfd < 0 || watch(s.epfd, lfd, &tag_listen) != 0 ||
            watch(s.epfd, tfd, &tag_timer) != 0 || watch(s.epfd, sfd, &tag_signal) != 0) {
            fprintf(err, "llmm sim: cannot set up the event loop: %s\n", strerror(errno));
        } else {
            say_listening(lfd, cfg, out);
            status = loop(&s, lfd, tfd);
        }
    }
    teardown(&s);
    if (lfd >= 0)
        close(lfd);
    if (tfd >= 0)
        close(tfd);
    if (sfd >= 0)
        close(sfd);
    return status;
}
