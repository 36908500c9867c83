/* metrics.h: `llmm bench --metrics-port`: the client-side sketches of the level running, as
 * a Prometheus /metrics endpoint served from the event loop (metrics.c). */
#ifndef LLMM_BENCH_METRICS_H
#define LLMM_BENCH_METRICS_H

#include "bench/client.h"
#include "admit.h"

/* The limits of the endpoint (tools/http/admit.h; doc/bench.md): Prometheus opens one connection
 * per target, the whole endpoint shares the load generator's descriptors. */
#define LLMM_BENCH_METRICS_PER_ADDRESS 16u /* waiting for a request */
#define LLMM_BENCH_METRICS_TOTAL 1024u
#define LLMM_BENCH_METRICS_REQUEST_S 10.0

typedef struct llmm_bench_scrape llmm_bench_scrape; /* one connection (metrics_conn.c) */

typedef struct llmm_bench_metrics {
    int fd;                /* listening socket, -1: none */
    int ep;                /* its own epoll set (the listener, the scrapes); the loop's set
                            * watches it */
    int port;              /* the port bound (0 asks the system) */
    int accept_paused;     /* out of descriptors: the listener rests until a scrape closes */
    llmm_admit guard;  /* the limits; its list of connections waiting holds every scrape */
    llmm_prom_writer *w;
    uint64_t scrapes;
} llmm_bench_metrics;

/* Listen on the numeric IPv4 or IPv6 address addr at port (0: any free one; m->port tells
 * which). LLMM_CLI_OK, LLMM_CLI_EUSAGE for an address that is not one, or LLMM_CLI_EIO, with a
 * message. */
int llmm_bench_metrics_open(llmm_bench_metrics *m, const char *addr, int port,
                            llmm_cli_error *err);
void llmm_bench_metrics_close(llmm_bench_metrics *m);
/* Is fd the descriptor the loop watches for m (its epoll set)? */
int llmm_bench_metrics_owns(const llmm_bench_metrics *m, int fd);
/* What the exposition shows of the level running. */
typedef struct llmm_bench_live {
    const llmm_bench_result *r;
    const char *level;        /* "c8" */
    uint64_t in_flight;
} llmm_bench_live;
/* m's descriptor is readable: accept scrapes, read them, answer the complete ones with live's
 * state; close those whose request is late. */
void llmm_bench_metrics_event(llmm_bench_metrics *m, const llmm_bench_live *live);
/* Close the scrapes whose request is late (called at every turn of the loop). */
void llmm_bench_metrics_expire(llmm_bench_metrics *m);

/* ---- internal to metrics.c and metrics_conn.c ------------------------------------------ */

/* The exposition of live, in m's writer. */
void llmm_bench_metrics_expose(llmm_bench_metrics *m, const llmm_bench_live *live,
                               const uint8_t **data, size_t *len);
/* Watch the listener (again); 0, or -1. */
int llmm_bench_metrics_listen(llmm_bench_metrics *m);
/* Close every scrape. */
void llmm_bench_metrics_drop_all(llmm_bench_metrics *m);

#endif /* LLMM_BENCH_METRICS_H */
