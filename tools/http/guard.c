/* guard.c: an HTTP endpoint that slow clients cannot starve (guard.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "guard.h"

#define WATCH_MS 250   /* how often the watchdog looks */
#define SPARE_FDS 64   /* descriptors beyond the connections: the listener, epoll, files */
#define GONE_SLACK 64  /* connections that gave way and libmicrohttpd has not closed yet */

/* One open connection. */
typedef struct conn {
    llmm_admit_entry e;   /* its place under the policy (admit.h) */
    unsigned calls;       /* access-handler calls of the current request */
} conn;

struct llmm_http_server {
    struct MHD_Daemon *d;
    MHD_AccessHandlerCallback handler;
    void *cls;
    llmm_http_limits lim;
    pthread_mutex_t lock; /* the policy and every conn's fields */
    llmm_admit admit;
    pthread_t watchdog;
    pthread_cond_t wake;
    int stopping;
    _Atomic uint64_t late;
    int64_t logged_ms;    /* the last message libmicrohttpd printed */
    uint64_t quiet;       /* messages held back since */
};

void llmm_http_limits_default(llmm_http_limits *l)
{
    l->per_address = LLMM_HTTP_PER_ADDRESS;
    l->total = LLMM_HTTP_TOTAL;
    l->idle_s = LLMM_HTTP_IDLE_S;
    l->request_s = LLMM_HTTP_REQUEST_S;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t now_ns(void)
{
    return (uint64_t)now_ms() * 1000000u;
}

static conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

/* ---- connections and requests --------------------------------------------------------------- */

/* A connection opens (counted under the policy, after the connection waiting longest has
 * given way if it must; or shut down at once, refused) or closes. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode what)
{
    llmm_http_server *s = cls;
    conn *e = *socket_context;
    if (what == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *i =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *a =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        struct sockaddr_storage sa;
        int refused;
        e = calloc(1, sizeof *e);
        if (!e || !i || !a) { /* unguarded, yet still bounded by the idle timeout */
            free(e);
            return;
        }
        memset(&sa, 0, sizeof sa);
        memcpy(&sa, a->client_addr, a->client_addr->sa_family == AF_INET6
                                        ? sizeof(struct sockaddr_in6)
                                        : sizeof(struct sockaddr_in));
        e->e.owner = e;
        pthread_mutex_lock(&s->lock);
        refused = llmm_admit_enter(&s->admit, &e->e, &sa, i->connect_fd, now_ns());
        pthread_mutex_unlock(&s->lock);
        if (refused) /* no connection could give way: libmicrohttpd sees the end */
            shutdown(i->connect_fd, SHUT_RDWR);
        *socket_context = e;
        return;
    }
    if (!e) /* MHD_CONNECTION_NOTIFY_CLOSED of an unguarded one */
        return;
    /* libmicrohttpd closes the socket after this returns: the watchdog, which shuts sockets
     * down only under the lock, never touches a descriptor that is reused */
    pthread_mutex_lock(&s->lock);
    llmm_admit_leave(&s->admit, &e->e);
    pthread_mutex_unlock(&s->lock);
    free(e);
    *socket_context = NULL;
}

/* A request with a body is complete when the handler is called with no more upload data. */
static int has_body(struct MHD_Connection *c)
{
    const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
    return (len && strcmp(len, "0") != 0) ||
           MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding") != NULL;
}

static enum MHD_Result guarded(void *cls, struct MHD_Connection *c, const char *url,
                               const char *method, const char *version, const char *upload,
                               size_t *upload_size, void **state)
{
    llmm_http_server *s = cls;
    conn *e = conn_of(c);
    if (e) {
        int first, body = 0;
        pthread_mutex_lock(&s->lock);
        first = e->calls++ == 0;
        pthread_mutex_unlock(&s->lock);
        if (first)
            body = has_body(c);
        if (first ? !body : *upload_size == 0) {
            pthread_mutex_lock(&s->lock);
            llmm_admit_served(&s->admit, &e->e); /* the whole request is in */
            pthread_mutex_unlock(&s->lock);
        }
    }
    return s->handler(s->cls, c, url, method, version, upload, upload_size, state);
}

/* The response went out: the connection waits for its next request, with the deadline. */
static void on_completed(void *cls, struct MHD_Connection *c, void **state,
                         enum MHD_RequestTerminationCode why)
{
    llmm_http_server *s = cls;
    conn *e = conn_of(c);
    (void)state;
    (void)why;
    if (!e)
        return;
    pthread_mutex_lock(&s->lock);
    e->calls = 0;
    llmm_admit_wait(&s->admit, &e->e, now_ns());
    pthread_mutex_unlock(&s->lock);
}

/* libmicrohttpd's messages (one per refused connection under a flood): at most one a
 * second, then how many were held back. */
static void logger(void *cls, const char *fmt, va_list ap)
{
    llmm_http_server *s = cls;
    int64_t now = now_ms();
    pthread_mutex_lock(&s->lock);
    if (s->logged_ms && now - s->logged_ms < 1000) {
        s->quiet++;
        pthread_mutex_unlock(&s->lock);
        return;
    }
    if (s->quiet)
        fprintf(stderr, "http: (%llu more messages)\n", (unsigned long long)s->quiet);
    s->quiet = 0;
    s->logged_ms = now;
    fputs("http: ", stderr);
    vfprintf(stderr, fmt, ap);
    pthread_mutex_unlock(&s->lock);
}

/* ---- the watchdog --------------------------------------------------------------------------- */

static void *watch(void *arg)
{
    llmm_http_server *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->stopping) {
        struct timespec until;
        llmm_admit_entry *e;
        while ((e = llmm_admit_expired(&s->admit, now_ns()))) {
            llmm_admit_evict(&s->admit, e); /* libmicrohttpd sees the end and closes it */
            atomic_fetch_add(&s->late, 1);
        }
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += WATCH_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->wake, &s->lock, &until);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* ---- start and stop ------------------------------------------------------------------------- */

/* Room for `want` connections in the open-files limit; returns how many fit. */
static unsigned make_room(unsigned want)
{
    struct rlimit r;
    rlim_t need = (rlim_t)want + SPARE_FDS;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0)
        return want;
    if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur < need) {
        r.rlim_cur = r.rlim_max == RLIM_INFINITY || r.rlim_max >= need ? need : r.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &r);
        (void)getrlimit(RLIMIT_NOFILE, &r);
    }
    if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur < need) {
        unsigned fit = r.rlim_cur > 2 * SPARE_FDS ? (unsigned)(r.rlim_cur - SPARE_FDS) : SPARE_FDS;
        fprintf(stderr, "http: open-files limit %llu: at most %u connections (not %u)\n",
                (unsigned long long)r.rlim_cur, fit, want);
        return fit;
    }
    return want;
}

static int start_watchdog(llmm_http_server *s)
{
    pthread_condattr_t a;
    int ok = pthread_condattr_init(&a) == 0 &&
             pthread_condattr_setclock(&a, CLOCK_MONOTONIC) == 0 &&
             pthread_cond_init(&s->wake, &a) == 0;
    pthread_condattr_destroy(&a);
    if (!ok)
        return -1;
    if (pthread_create(&s->watchdog, NULL, watch, s) != 0) {
        pthread_cond_destroy(&s->wake);
        return -1;
    }
    return 0;
}

llmm_http_server *llmm_http_start(const struct sockaddr *addr, const llmm_http_limits *limits,
                                  MHD_AccessHandlerCallback handler, void *cls)
{
    llmm_http_server *s = calloc(1, sizeof *s);
    unsigned fit;
    if (!s || pthread_mutex_init(&s->lock, NULL) != 0) {
        fprintf(stderr, "http: out of memory\n");
        free(s);
        return NULL;
    }
    s->handler = handler;
    s->cls = cls;
    s->lim = *limits;
    fit = make_room(limits->total + GONE_SLACK);
    s->lim.total = fit > 2 * GONE_SLACK ? fit - GONE_SLACK : fit / 2;
    llmm_admit_init(&s->admit, s->lim.per_address, s->lim.total, (double)s->lim.request_s);
    atomic_init(&s->late, 0);
    if (start_watchdog(s) != 0) {
        fprintf(stderr, "http: cannot start the watchdog thread\n");
        pthread_mutex_destroy(&s->lock);
        llmm_admit_free(&s->admit);
        free(s);
        return NULL;
    }
    s->d = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL,
                            guarded, s, MHD_OPTION_EXTERNAL_LOGGER, logger, s,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_CONNECTION_LIMIT, s->lim.total + GONE_SLACK,
                            MHD_OPTION_CONNECTION_TIMEOUT, s->lim.idle_s,
                            MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
                            MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_END);
    if (!s->d) {
        llmm_http_stop(s);
        return NULL;
    }
    return s;
}

uint64_t llmm_http_late_closed(const llmm_http_server *s)
{
    return atomic_load(&s->late);
}

void llmm_http_stop(llmm_http_server *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->watchdog, NULL);
    pthread_cond_destroy(&s->wake);
    if (s->d)
        MHD_stop_daemon(s->d); /* every connection's CLOSED notice frees its entry */
    llmm_admit_free(&s->admit);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
