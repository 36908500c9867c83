/* respond.h: the answers every /metrics endpoint of the project gives on libmicrohttpd
 * (examples/metrics_server, `llmm host --bpf --metrics-port`): a buffer copied into a
 * response, and the refusals of anything but a GET or HEAD of /metrics. Header-only: each
 * endpoint builds it with its own flags. */
#ifndef LLMM_HTTP_RESPOND_H
#define LLMM_HTTP_RESPOND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <microhttpd.h>

#include <llmmetrics/export.h>

/* Answer code with len bytes of data (copied) of Content-Type type; a 405 says what is
 * allowed. */
static inline enum MHD_Result llmm_http_respond(struct MHD_Connection *c, unsigned code,
                                                const char *type, const void *data, size_t len)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)(uintptr_t)data, MHD_RESPMEM_MUST_COPY);
    enum MHD_Result ret;
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, "Allow", "GET, HEAD");
    ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

/* 0 for a GET or HEAD of /metrics (HEAD: libmicrohttpd sends the headers of the same
 * response); otherwise the refusal is answered here, *ret is its result, and 1. */
static inline int llmm_http_refuse_but_metrics(struct MHD_Connection *c, const char *url,
                                               const char *method, enum MHD_Result *ret)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        *ret = llmm_http_respond(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
                                 "GET or HEAD only\n", 17);
    else if (strcmp(url, "/metrics") != 0)
        *ret = llmm_http_respond(c, MHD_HTTP_NOT_FOUND, "text/plain", "try /metrics\n", 13);
    else
        return 0;
    return 1;
}

/* Answer a scrape whose exposition was built into w with status st: the exposition (type
 * ctype, as negotiated) when st is LLMM_OK, else a 500 naming st. */
static inline enum MHD_Result llmm_http_respond_exposition(struct MHD_Connection *c,
                                                           llmm_status st, llmm_prom_writer *w,
                                                           const char *ctype)
{
    const uint8_t *data;
    size_t len;
    if (st == LLMM_OK)
        st = llmm_prom_writer_data(w, &data, &len);
    if (st == LLMM_OK)
        return llmm_http_respond(c, MHD_HTTP_OK, ctype, data, len);
    return llmm_http_respond(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", llmm_strerror(st),
                             strlen(llmm_strerror(st)));
}

#endif /* LLMM_HTTP_RESPOND_H */
