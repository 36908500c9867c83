/* guard.h: the protections every HTTP endpoint of the project runs with, on libmicrohttpd.
 *
 * A metrics endpoint must answer its scraper while anyone else is connected, however slowly.
 * llmm_http_start() starts a libmicrohttpd daemon that
 *
 *   - waits on epoll from one internal thread (MHD_USE_EPOLL_INTERNAL_THREAD): no select()
 *     and its FD_SETSIZE ceiling of 1024 descriptors;
 *   - admits connections by the project's one admission policy (admit.h): a complete
 *     request is always served; at most `per_address` connections from one client address
 *     may wait for a request at once and `total` be open in all (after raising the
 *     process's open-files limit to hold them, lowering `total` to fit when the hard limit is
 *     lower, with a note on stderr); past either, the connection waiting longest gives way
 *     to the new one, which is refused only when none can;
 *   - closes a connection that stays silent `idle_s` seconds (libmicrohttpd's timeout, which
 *     restarts at every byte);
 *   - closes a connection whose request has not arrived complete `request_s` seconds after
 *     the connection opened, or after its previous response was sent (so that a client that
 *     sends a header byte every few seconds, which the idle timeout never catches, holds its
 *     connection for request_s at most). A watchdog thread checks every 250 ms and shuts
 *     such a connection's socket down; libmicrohttpd then closes it.
 *
 * The handler is the application's; HEAD requests reach it like GET and libmicrohttpd sends
 * the headers of its response without the body. doc/exporting.md documents the defaults. */
#ifndef LLMM_HTTP_GUARD_H
#define LLMM_HTTP_GUARD_H

#include <stdint.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "admit.h"

typedef struct llmm_http_limits {
    unsigned per_address; /* connections waiting for a request at once from one address
                           * (default 16) */
    unsigned total;       /* connections at once in all (default 4096) */
    unsigned idle_s;      /* seconds of silence before a connection is closed (default 10) */
    unsigned request_s;   /* seconds for a whole request to arrive (default 10) */
} llmm_http_limits;

#define LLMM_HTTP_PER_ADDRESS 16
#define LLMM_HTTP_TOTAL 4096
#define LLMM_HTTP_IDLE_S 10
#define LLMM_HTTP_REQUEST_S 10

void llmm_http_limits_default(llmm_http_limits *l);

typedef struct llmm_http_server llmm_http_server;

/* Serve handler(cls, ...) on addr (its port included) within the limits. NULL on failure,
 * after a message on stderr naming what failed. */
llmm_http_server *llmm_http_start(const struct sockaddr *addr, const llmm_http_limits *limits,
                                  MHD_AccessHandlerCallback handler, void *cls);
/* Connections the watchdog has closed for a request that did not arrive in time. */
uint64_t llmm_http_late_closed(const llmm_http_server *s);
/* Stop serving and release everything. */
void llmm_http_stop(llmm_http_server *s);

#endif /* LLMM_HTTP_GUARD_H */
