/* metrics.h: `llmm bench --metrics-port`: the client-side sketches of the level running, as
 * a Prometheus /metrics endpoint served from the event loop (metrics.c). */
#ifndef LLMM_BENCH_METRICS_H
#define LLMM_BENCH_METRICS_H

#include "bench/client.h"

#define LLMM_BENCH_METRICS_CONNS 8

typedef struct llmm_bench_metrics {
    int fd;                /* listening socket, -1: none */
    int port;              /* the port bound (0 asks the system) */
    int conn[LLMM_BENCH_METRICS_CONNS]; /* scrapes being read, -1: free */
    char buf[LLMM_BENCH_METRICS_CONNS][2048];
    size_t nbuf[LLMM_BENCH_METRICS_CONNS];
    llmm_prom_writer *w;
    uint64_t scrapes;
} llmm_bench_metrics;

/* Listen on every interface at port (0: any free one; m->port tells which). LLMM_CLI_OK, or
 * LLMM_CLI_EIO with a message. */
int llmm_bench_metrics_open(llmm_bench_metrics *m, int port, llmm_cli_error *err);
void llmm_bench_metrics_close(llmm_bench_metrics *m);
/* A level ends (its epoll set goes): scrapes still being read are dropped. */
void llmm_bench_metrics_detach(llmm_bench_metrics *m);
/* Is fd one of m's sockets? */
int llmm_bench_metrics_owns(const llmm_bench_metrics *m, int fd);
/* What the exposition shows of the level running. */
typedef struct llmm_bench_live {
    const llmm_bench_result *r;
    const char *level;        /* "c8" */
    uint64_t in_flight;
} llmm_bench_live;
/* fd is readable: accept a scrape, or read one and answer it with live's state. ep is the
 * epoll set the connections join. */
void llmm_bench_metrics_event(llmm_bench_metrics *m, int ep, int fd, const llmm_bench_live *live);

#endif /* LLMM_BENCH_METRICS_H */
