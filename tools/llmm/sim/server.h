/* server.h: `llmm sim`'s server: one thread, one epoll loop (server.c) over the listening
 * socket, a timerfd on the engine's next step end or the earliest request deadline, a signalfd
 * for SIGINT/SIGTERM, and the connections (conn.c: HTTP/1.1 keep-alive, optional TLS, the
 * routes and the streams) within the limits of tools/http/admit.h. */
#ifndef LLMM_CLI_SIM_SERVER_H
#define LLMM_CLI_SIM_SERVER_H

#include <stdint.h>
#include <stdio.h>

#include "admit.h"
#include "sim/engine.h"
#include "sim/http.h"
#include "sim/request.h"

typedef struct llmm_sim_config {
    llmm_sim_params p;
    const char *host;     /* address to bind */
    unsigned port;        /* 0: any free port */
    const char *model;    /* the served model's name */
    const char *tls_cert, *tls_key; /* both or neither */
    const char *log_path; /* JSON Lines, one per request; NULL: none */
    llmm_sim_limits limits;
} llmm_sim_config;

/* Serve until SIGINT or SIGTERM; prints "llmm sim: listening on URL" to out once listening.
 * Messages go to err. Returns the exit status (0 after a signal, 1 when it cannot start). */
int llmm_sim_serve(const llmm_sim_config *cfg, FILE *out, FILE *err);

/* ---- internal to server.c and conn.c ---------------------------------------------------- */

typedef struct llmm_sim_server llmm_sim_server;
typedef struct llmm_sim_conn llmm_sim_conn;

/* A request in flight. seq first: the engine's callbacks get it back as the request. */
typedef struct llmm_sim_req {
    llmm_sim_seq seq;
    llmm_sim_conn *conn;  /* NULL once its connection is gone */
    uint64_t num;         /* its number: the id cmpl-NUM / chatcmpl-NUM */
    llmm_sim_endpoint ep;
    llmm_sim_body body;
    char request_id[256]; /* the x-request-id header, JSON-escaped ("" when none) */
    char traceparent[128]; /* the traceparent header, JSON-escaped ("" when none) */
    long long created;
    uint32_t max_tokens;  /* the request's, else the default */
    int keep_alive;
    int unframed;         /* an HTTP/1.0 stream (respond.h) */
    int status;           /* the HTTP status sent */
    uint32_t error_at;    /* the in-stream error fault: the token it replaces (0: none) */
    int stream_failed;    /* the in-stream error was sent */
    uint64_t arrival_ns, first_ns, last_ns;
    uint64_t first_due_ns, last_due_ns; /* the model's times of those chunks (step ends) */
} llmm_sim_req;

struct llmm_sim_conn {
    int fd;
    void *tls;            /* the TLS session, NULL for plain HTTP */
    llmm_sim_buf in, out;
    llmm_sim_req *req;    /* the request being answered, NULL between requests */
    int close_after;      /* close once out is sent */
    int continued;        /* "100 Continue" sent for the request being read */
    int close_on_next;    /* the idle-close fault: the next request is met with a close */
    llmm_admit_entry guard; /* its address and its request's deadline */
    llmm_sim_server *srv;
    llmm_sim_conn *prev, *next; /* the server's list of connections */
};

struct llmm_sim_server {
    llmm_sim_config cfg;
    llmm_sim_engine engine;
    llmm_cli_rng rng;
    llmm_cli_rng fault_rng; /* the connection and stream faults' draws */
    int epfd;
    int listen_fd;
    int accept_paused;    /* out of descriptors: the listening socket rests until one closes */
    void *tls_ctx;
    FILE *log;
    int log_dirty;
    uint64_t next_num;
    llmm_sim_conn *conns; /* every open connection */
    llmm_admit guard; /* the connection limits */
    int stopping;         /* tearing down: requests still in flight are cut */
};

uint64_t llmm_sim_now_ns(void);
/* A new connection on the accepted socket fd (non-blocking) from sa; -1 when it cannot be
 * kept (the caller closes fd). A connection the limits refuse is closed here (503 on plain
 * HTTP), and 0 returned. */
int llmm_sim_conn_open(llmm_sim_server *s, int fd, const struct sockaddr_storage *sa);
/* The readiness event of connection c: read, answer, write; it may close and free c. */
void llmm_sim_conn_event(llmm_sim_conn *c, uint32_t events);
/* Watch the listening socket again after accepting was paused (a descriptor was freed). */
void llmm_sim_resume_accept(llmm_sim_server *s);
/* Close and free c (its request, if any, is cancelled). */
void llmm_sim_conn_close(llmm_sim_conn *c);
/* The engine's callbacks. */
int llmm_sim_on_token(void *ctx, llmm_sim_seq *seq, uint64_t t_ns);
void llmm_sim_on_release(void *ctx, llmm_sim_seq *seq, uint64_t t_ns);

#endif /* LLMM_CLI_SIM_SERVER_H */
