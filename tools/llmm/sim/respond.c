/* respond.c: HTTP responses and stream events (respond.h). */
#include <stdio.h>
#include <string.h>

#include "sim/respond.h"

static const char *const words[] = {" The", " simulated", " engine", " writes", " one",
                                    " word",  " per",       " step",   " for",    " each",
                                    " running", " sequence."};

const char *llmm_sim_token_text(uint32_t k)
{
    return words[(k - 1) % (sizeof words / sizeof words[0])];
}

int llmm_sim_put_response(llmm_sim_buf *b, int status, int keep_alive, const char *type,
                          const char *body, size_t n)
{
    if (llmm_sim_buf_printf(b,
                            "HTTP/1.1 %d %s\r\nServer: llmm-sim\r\nContent-Type: %s\r\n"
                            "Content-Length: %zu\r\n%s\r\n",
                            status, llmm_sim_http_reason(status), type, n,
                            keep_alive ? "" : "Connection: close\r\n") != 0)
        return -1;
    return llmm_sim_buf_put(b, body, n);
}

int llmm_sim_put_error(llmm_sim_buf *b, int status, int keep_alive, const char *message)
{
    char body[1024], esc[600];
    const char *type = status == 429   ? "RateLimitError"
                       : status >= 500 ? "InternalServerError"
                       : status == 404 ? "NotFoundError"
                                       : "BadRequestError";
    int n;
    if (llmm_sim_json_escape(message, esc, sizeof esc) != 0)
        strcpy(esc, "error");
    n = snprintf(body, sizeof body,
                 "{\"error\":{\"message\":\"%s\",\"type\":\"%s\",\"param\":null,\"code\":%d}}",
                 esc, type, status);
    return llmm_sim_put_response(b, status, keep_alive, "application/json", body, (size_t)n);
}

int llmm_sim_put_stream_head(llmm_sim_buf *b, int keep_alive, int unframed)
{
    return llmm_sim_buf_printf(b,
                               "HTTP/1.1 200 OK\r\nServer: llmm-sim\r\n"
                               "Content-Type: text/event-stream; charset=utf-8\r\n"
                               "Cache-Control: no-cache\r\n%s\r\n",
                               unframed     ? "Connection: close\r\n"
                               : keep_alive ? "Transfer-Encoding: chunked\r\n"
                                            : "Transfer-Encoding: chunked\r\n"
                                              "Connection: close\r\n");
}

/* One event holding json[0, n), as one HTTP chunk unless the stream is unframed. */
static int event(llmm_sim_buf *b, const llmm_sim_reply *r, const char *json, size_t n)
{
    int rc = r->unframed ? llmm_sim_buf_put(b, "data: ", 6)
                         : llmm_sim_buf_printf(b, "%zx\r\ndata: ", n + 8);
    if (rc == 0)
        rc = llmm_sim_buf_put(b, json, n);
    return rc == 0 ? llmm_sim_buf_put(b, "\n\n\r\n", r->unframed ? 2 : 4) : -1;
}

/* The fields every chunk (whole: the whole response) starts with, into s; its length. */
static size_t start(char *s, size_t cap, const llmm_sim_reply *r, int whole)
{
    int chat = r->ep == LLMM_SIM_CHAT;
    int n = snprintf(s, cap,
                     "{\"id\":\"%s-%llu\",\"object\":\"%s\",\"created\":%lld,\"model\":\"%s\",",
                     chat ? "chatcmpl" : "cmpl", (unsigned long long)r->num,
                     !chat ? "text_completion"
                     : whole ? "chat.completion"
                             : "chat.completion.chunk",
                     r->created, r->model);
    return n < 0 || (size_t)n >= cap ? cap : (size_t)n;
}

static const char *finish(const llmm_sim_reply *r, int last)
{
    return !last ? "null" : r->length_limited ? "\"length\"" : "\"stop\"";
}

#define CHUNK_MAX 2048

int llmm_sim_put_token(llmm_sim_buf *b, const llmm_sim_reply *r, uint32_t k, int garble)
{
    char s[CHUNK_MAX];
    size_t n0 = start(s, sizeof s, r, 0), n;
    int last = k == r->output_tokens && !r->empty_finish;
    if (n0 >= sizeof s)
        return -1;
    if (r->ep == LLMM_SIM_CHAT && k == 1) {
        n = n0 + (size_t)snprintf(s + n0, sizeof s - n0,
                                  "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                                  "\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}");
        if (event(b, r, s, n) != 0)
            return -1;
    }
    if (r->ep == LLMM_SIM_CHAT)
        n = n0 + (size_t)snprintf(s + n0, sizeof s - n0,
                                  "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"},"
                                  "\"logprobs\":null,\"finish_reason\":%s}]}",
                                  llmm_sim_token_text(k), finish(r, last));
    else
        n = n0 + (size_t)snprintf(s + n0, sizeof s - n0,
                                  "\"choices\":[{\"index\":0,\"text\":\"%s\",\"logprobs\":null,"
                                  "\"finish_reason\":%s,\"stop_reason\":null}]}",
                                  llmm_sim_token_text(k), finish(r, last));
    if (event(b, r, s, garble ? n / 2 : n) != 0)
        return -1;
    if (k < r->output_tokens || !r->empty_finish)
        return 0;
    n = n0 + (size_t)snprintf(s + n0, sizeof s - n0,
                              r->ep == LLMM_SIM_CHAT
                                  ? "\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,"
                                    "\"finish_reason\":%s}]}"
                                  : "\"choices\":[{\"index\":0,\"text\":\"\",\"logprobs\":null,"
                                    "\"finish_reason\":%s,\"stop_reason\":null}]}",
                              r->length_limited ? "\"length\"" : "\"stop\"");
    return event(b, r, s, n);
}

static size_t usage(char *s, size_t cap, const llmm_sim_reply *r)
{
    int n = snprintf(s, cap,
                     "\"usage\":{\"prompt_tokens\":%llu,\"total_tokens\":%llu,"
                     "\"completion_tokens\":%u}}",
                     (unsigned long long)r->prompt_tokens,
                     (unsigned long long)(r->prompt_tokens + r->output_tokens), r->output_tokens);
    return n < 0 || (size_t)n >= cap ? cap : (size_t)n;
}

int llmm_sim_put_usage(llmm_sim_buf *b, const llmm_sim_reply *r)
{
    char s[CHUNK_MAX];
    size_t n = start(s, sizeof s, r, 0);
    if (n + 16 >= sizeof s)
        return -1;
    memcpy(s + n, "\"choices\":[],", 13);
    n += 13;
    n += usage(s + n, sizeof s - n, r);
    return n >= sizeof s ? -1 : event(b, r, s, n);
}

int llmm_sim_put_done(llmm_sim_buf *b, const llmm_sim_reply *r)
{
    static const char done[] = "e\r\ndata: [DONE]\n\n\r\n0\r\n\r\n";
    if (r->unframed) /* "data: [DONE]\n\n" alone */
        return llmm_sim_buf_put(b, done + 3, 14);
    return llmm_sim_buf_put(b, done, sizeof done - 1);
}

int llmm_sim_put_stream_error(llmm_sim_buf *b, const llmm_sim_reply *r, int dialect,
                              const char *message)
{
    char esc[600], ev[1024];
    int n;
    if (llmm_sim_json_escape(message, esc, sizeof esc) != 0)
        strcpy(esc, "error");
    if (dialect == LLMM_SIM_ERR_FIELD) /* llama.cpp: the error object in a field of its own */
        n = snprintf(ev, sizeof ev,
                     "error: {\"code\":500,\"message\":\"%s\",\"type\":\"server_error\"}\n\n", esc);
    else
        n = snprintf(ev, sizeof ev,
                     "%sdata: {\"error\":{\"message\":\"%s\",\"type\":\"InternalServerError\","
                     "\"param\":null,\"code\":500}}\n\n",
                     dialect == LLMM_SIM_ERR_EVENT ? "event: error\n" : "", esc);
    if (n < 0 || (size_t)n >= sizeof ev)
        return -1;
    if (r->unframed)
        return llmm_sim_buf_put(b, ev, (size_t)n);
    return llmm_sim_buf_printf(b, "%x\r\n%s\r\n0\r\n\r\n", n, ev);
}

int llmm_sim_put_full(llmm_sim_buf *b, const llmm_sim_reply *r, int keep_alive, int garble)
{
    llmm_sim_buf body = {0};
    char s[CHUNK_MAX];
    int chat = r->ep == LLMM_SIM_CHAT, rc = 0;
    size_t n = start(s, sizeof s, r, 1);
    rc |= n >= sizeof s || llmm_sim_buf_put(&body, s, n) != 0;
    rc |= llmm_sim_buf_printf(&body, chat ? "\"choices\":[{\"index\":0,\"message\":{\"role\":"
                                            "\"assistant\",\"content\":\""
                                          : "\"choices\":[{\"index\":0,\"text\":\"") != 0;
    for (uint32_t k = 1; k <= r->output_tokens && !rc; k++) {
        const char *w = llmm_sim_token_text(k);
        rc |= llmm_sim_buf_put(&body, w, strlen(w)) != 0;
    }
    rc |= llmm_sim_buf_printf(&body, "\"%s,\"logprobs\":null,\"finish_reason\":%s}],",
                              chat ? "}" : "", finish(r, 1)) != 0;
    n = usage(s, sizeof s, r);
    rc |= n >= sizeof s || llmm_sim_buf_put(&body, s, n) != 0;
    if (!rc)
        rc = llmm_sim_put_response(b, 200, keep_alive, "application/json", body.data,
                                   garble ? body.len / 2 : body.len);
    llmm_sim_buf_free(&body);
    return rc ? -1 : 0;
}
