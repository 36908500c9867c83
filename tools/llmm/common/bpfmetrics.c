/* bpfmetrics.c: the /metrics endpoint of `llmm host --bpf` (bpfmetrics.h). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bpfmetrics.h"
#include "../../http/guard.h" /* tools/http/, not common/guard.h */
#include "respond.h"

struct llmm_cli_bpfmetrics {
    pthread_mutex_t lock; /* sig, writer */
    const llmm_cli_bpfsig *sig;
    llmm_prom_writer *w;
    llmm_http_server *http;
};

static llmm_status counter(llmm_prom_writer *w, const char *name, const char *help, uint64_t v)
{
    llmm_status st = llmm_prom_writer_family(w, name, help, LLMM_PROM_COUNTER, NULL, 0);
    return st == LLMM_OK ? llmm_prom_writer_value(w, NULL, (double)v) : st;
}

static llmm_status expose(llmm_cli_bpfmetrics *m, llmm_prom_format fmt)
{
    const llmm_cli_bpfsig *s = m->sig;
    llmm_prom_writer *w = m->w;
    llmm_status st = llmm_prom_writer_reset(w, fmt);
    if (st == LLMM_OK)
        st = counter(w, "llm_kernel_tcp_retransmit_segments_total",
                     "TCP segments retransmitted on the targets' connections, as "
                     "tcpi_total_retrans counts them (net.tcp.retrans, SYN-ACKs included).",
                     s->retrans_segs + s->synacks);
    if (st == LLMM_OK)
        st = counter(w, "llm_kernel_major_faults_total",
                     "Major page faults of the targets' threads (mem.major_fault).", s->faults);
    if (st == LLMM_OK)
        st = counter(w, "llm_kernel_sched_jitter_events_total",
                     "Run-queue waits of the targets' threads at or above --runq-above "
                     "(sched.jitter).",
                     s->jitters);
    if (st == LLMM_OK)
        st = counter(w, "llm_kernel_lost_events_total",
                     "Kernel events the collector could not list: the ring buffer full, or past "
                     "--max-events in a line.",
                     s->lost_written + s->unlisted);
    if (st == LLMM_OK)
        st = llmm_prom_writer_family(w, "llm_kernel_runqueue_wait_seconds",
                                     "Every run-queue wait of the targets' threads, as the "
                                     "scheduler counts run delay.",
                                     LLMM_PROM_HISTOGRAM, NULL, 0);
    if (st == LLMM_OK)
        st = llmm_prom_writer_sketch(w, NULL, s->runq_all, 1.0);
    return st;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **state)
{
    llmm_cli_bpfmetrics *m = cls;
    const char *ctype = NULL;
    llmm_prom_format fmt;
    llmm_status st;
    enum MHD_Result ret;
    (void)version;
    (void)upload;
    (void)upload_size;
    (void)state;
    if (llmm_http_refuse_but_metrics(c, url, method, &ret))
        return ret;
    llmm_prom_negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept"), &fmt,
                        &ctype);
    pthread_mutex_lock(&m->lock);
    st = expose(m, fmt);
    ret = llmm_http_respond_exposition(c, st, m->w, ctype);
    pthread_mutex_unlock(&m->lock);
    return ret;
}

int llmm_cli_bpfmetrics_start(const char *addr, int port, const llmm_cli_bpfsig *sig,
                              llmm_cli_bpfmetrics **out, llmm_cli_error *err)
{
    struct sockaddr_storage sa;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&sa;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&sa;
    llmm_http_limits limits;
    llmm_cli_bpfmetrics *m;
    memset(&sa, 0, sizeof sa);
    if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
    } else {
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--metrics-address '%s': not a numeric IPv4 or IPv6 address", addr);
    }
    m = calloc(1, sizeof *m);
    if (!m || llmm_prom_writer_new(NULL, LLMM_PROM_TEXT, &m->w) != LLMM_OK) {
        free(m);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&m->lock, NULL);
    m->sig = sig;
    llmm_http_limits_default(&limits);
    m->http = llmm_http_start((struct sockaddr *)&sa, &limits, handle, m);
    if (!m->http) {
        llmm_cli_bpfmetrics_stop(m);
        return llmm_cli_fail(err, LLMM_CLI_EIO, "--metrics-port: cannot serve on %s port %d",
                             addr, port);
    }
    *out = m;
    return LLMM_CLI_OK;
}

void llmm_cli_bpfmetrics_lock(llmm_cli_bpfmetrics *m)
{
    if (m)
        pthread_mutex_lock(&m->lock);
}

void llmm_cli_bpfmetrics_unlock(llmm_cli_bpfmetrics *m)
{
    if (m)
        pthread_mutex_unlock(&m->lock);
}

void llmm_cli_bpfmetrics_stop(llmm_cli_bpfmetrics *m)
{
    if (!m)
        return;
    if (m->http)
        llmm_http_stop(m->http);
    llmm_prom_writer_free(m->w);
    pthread_mutex_destroy(&m->lock);
    free(m);
}
