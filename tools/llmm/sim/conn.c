/* conn.c: one connection of `llmm sim` (server.h): reading requests, the routes, the streams
 * the engine's callbacks write, and the log line of each request. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "sim/respond.h"
#include "sim/server.h"
#include "sim/tls.h"

/* ---- bytes in and out -------------------------------------------------------------------- */

/* tls.h's convention for plain sockets too. */
static long c_recv(llmm_sim_conn *c, void *buf, size_t n)
{
    ssize_t k;
    if (c->tls)
        return llmm_sim_tls_recv(c->tls, buf, n);
    k = recv(c->fd, buf, n, 0);
    if (k >= 0)
        return (long)k;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? -1 : -2;
}

static long c_send(llmm_sim_conn *c, const void *buf, size_t n)
{
    ssize_t k;
    if (c->tls)
        return llmm_sim_tls_send(c->tls, buf, n);
    k = send(c->fd, buf, n, MSG_NOSIGNAL);
    if (k >= 0)
        return (long)k;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? -1 : -2;
}

/* Send what is pending: 0 (all sent, or the rest waits for the socket), 1 when the connection
 * must now be closed (an error, or sent all with close_after). */
static int flush(llmm_sim_conn *c)
{
    while (c->out.len > c->out.off) {
        long k = c_send(c, c->out.data + c->out.off, c->out.len - c->out.off);
        if (k == -1)
            return 0;
        if (k <= 0)
            return 1;
        llmm_sim_buf_consume(&c->out, (size_t)k);
    }
    return c->close_after;
}

/* ---- the log ----------------------------------------------------------------------------- */

static const char *const fault_names[] = {"none", "error", "error", "stall", "drop",
                                          "malformed"};

static void log_ns(FILE *f, const char *key, uint64_t ns)
{
    if (ns)
        fprintf(f, ",\"%s\":%llu", key, (unsigned long long)ns);
    else
        fprintf(f, ",\"%s\":null", key);
}

/* The request's line in --log. */
static void log_request(llmm_sim_server *s, const llmm_sim_req *r, const char *outcome)
{
    FILE *f = s->log;
    if (!f)
        return;
    fprintf(f,
            "{\"id\":\"%s-%llu\",\"request_id\":\"%s\",\"traceparent\":\"%s\","
            "\"endpoint\":\"%s\",\"stream\":%s,"
            "\"status\":%d,\"outcome\":\"%s\",\"fault\":\"%s\",\"prompt_tokens\":%llu,"
            "\"output_tokens\":%u,\"planned_tokens\":%u",
            r->ep == LLMM_SIM_CHAT ? "chatcmpl" : "cmpl", (unsigned long long)r->num,
            r->request_id, r->traceparent, r->ep == LLMM_SIM_CHAT ? "chat" : "completions",
            r->body.stream ? "true" : "false", r->status, outcome,
            fault_names[r->seq.plan.fault], (unsigned long long)r->body.prompt_tokens,
            r->seq.emitted, r->seq.plan.output_tokens);
    log_ns(f, "arrival_ns", r->arrival_ns);
    log_ns(f, "first_chunk_ns", r->first_ns);
    log_ns(f, "last_chunk_ns", r->last_ns);
    log_ns(f, "first_chunk_due_ns", r->first_due_ns);
    log_ns(f, "last_chunk_due_ns", r->last_due_ns);
    fputs("}\n", f);
    s->log_dirty = 1;
}

/* ---- requests ---------------------------------------------------------------------------- */

static void reply_of(const llmm_sim_req *r, llmm_sim_reply *p)
{
    *p = (llmm_sim_reply){
        .ep = r->ep,
        .num = r->num,
        .created = r->created,
        .model = r->body.model,
        .prompt_tokens = r->body.prompt_tokens,
        .output_tokens = r->seq.plan.output_tokens,
        .length_limited = r->seq.plan.output_tokens == r->max_tokens,
        .unframed = r->unframed,
        .empty_finish = r->conn && r->conn->srv->cfg.p.empty_finish_chunk,
    };
}

/* An error answered at once (no engine): its log line too. */
static void answer_error(llmm_sim_conn *c, llmm_sim_req *r, int status, const char *msg)
{
    r->status = status;
    if (llmm_sim_put_error(&c->out, status, r->keep_alive, msg) != 0)
        c->close_after = 1;
    r->first_ns = r->last_ns = llmm_sim_now_ns();
    if (!r->keep_alive)
        c->close_after = 1;
    log_request(c->srv, r, "error");
    free(r);
}

static const char *fault_message(llmm_sim_fault f)
{
    return f == LLMM_SIM_FAULT_ERROR_429 ? "simulated rate limit (--error-rate)"
                                         : "simulated server error (--error-rate)";
}

/* POST /v1/completions or /v1/chat/completions with its NUL-terminated body. */
static void completion(llmm_sim_conn *c, const llmm_sim_http_req *h, llmm_sim_endpoint ep,
                       const char *body)
{
    llmm_sim_server *s = c->srv;
    llmm_sim_req *r = calloc(1, sizeof *r);
    char why[256];
    if (!r) {
        c->close_after = 1;
        return;
    }
    r->arrival_ns = llmm_sim_now_ns();
    r->num = ++s->next_num;
    r->ep = ep;
    r->created = (long long)time(NULL);
    r->keep_alive = h->keep_alive;
    if (llmm_sim_json_escape(h->request_id, r->request_id, sizeof r->request_id) != 0)
        r->request_id[0] = '\0';
    if (llmm_sim_json_escape(h->traceparent, r->traceparent, sizeof r->traceparent) != 0)
        r->traceparent[0] = '\0';
    if (llmm_sim_body_parse(body, ep, s->cfg.model, &r->body, why, sizeof why) != 0) {
        answer_error(c, r, 400, why);
        return;
    }
    if (s->cfg.p.vocab_size && r->body.max_token_id >= (int64_t)s->cfg.p.vocab_size) {
        snprintf(why, sizeof why, "token id %lld is out of vocabulary (size %llu)",
                 (long long)r->body.max_token_id, (unsigned long long)s->cfg.p.vocab_size);
        answer_error(c, r, 400, why);
        return;
    }
    if (s->cfg.p.max_prompt_tokens && r->body.prompt_tokens > s->cfg.p.max_prompt_tokens)
        r->body.prompt_tokens = s->cfg.p.max_prompt_tokens; /* truncated, as a context limit */
    llmm_sim_plan_request(&s->cfg.p, &s->rng, r->body.max_tokens, r->body.ignore_eos,
                          &r->seq.plan);
    if (r->seq.plan.fault == LLMM_SIM_FAULT_ERROR_500 ||
        r->seq.plan.fault == LLMM_SIM_FAULT_ERROR_429) {
        int st = r->seq.plan.fault == LLMM_SIM_FAULT_ERROR_429 ? 429 : 500;
        answer_error(c, r, s->cfg.p.error_status ? (int)s->cfg.p.error_status : st,
                     fault_message(r->seq.plan.fault));
        return;
    }
    if (llmm_cli_rng_uniform(&s->fault_rng) < s->cfg.p.stream_error_rate && r->body.stream)
        r->error_at = s->cfg.p.stream_error_after + 1 < r->seq.plan.output_tokens
                          ? s->cfg.p.stream_error_after + 1
                          : r->seq.plan.output_tokens;
    r->max_tokens = r->body.max_tokens ? r->body.max_tokens : s->cfg.p.default_max_tokens;
    r->seq.prompt_tokens = r->body.prompt_tokens;
    r->seq.reserve = r->body.prompt_tokens + r->max_tokens;
    if (!llmm_sim_engine_fits(&s->engine, r->seq.reserve)) {
        answer_error(c, r, 400, "prompt tokens + max_tokens exceed the KV capacity");
        return;
    }
    r->status = 200;
    if (r->body.stream && h->http10) { /* no chunked encoding: the close ends the stream */
        r->unframed = 1;
        r->keep_alive = 0;
    }
    if (r->body.stream && llmm_sim_put_stream_head(&c->out, r->keep_alive, r->unframed) != 0)
        c->close_after = 1;
    r->conn = c;
    c->req = r;
    llmm_sim_engine_submit(&s->engine, &r->seq, r->arrival_ns);
}

static void models(llmm_sim_conn *c, int keep_alive)
{
    llmm_sim_buf b = {0};
    char esc[512];
    if (llmm_sim_json_escape(c->srv->cfg.model, esc, sizeof esc) != 0)
        strcpy(esc, "llmm-sim");
    if (llmm_sim_buf_printf(&b,
                            "{\"object\":\"list\",\"data\":[{\"id\":\"%s\",\"object\":\"model\","
                            "\"created\":%lld,\"owned_by\":\"llmm-sim\",\"root\":\"%s\","
                            "\"parent\":null}]}",
                            esc, (long long)time(NULL), esc) != 0 ||
        llmm_sim_put_response(&c->out, 200, keep_alive, "application/json", b.data, b.len) != 0)
        c->close_after = 1;
    llmm_sim_buf_free(&b);
}

/* One complete request: its route. */
static void route(llmm_sim_conn *c, const llmm_sim_http_req *h, const char *body)
{
    static const char *const paths[] = {"/health", "/v1/models", "/v1/completions",
                                        "/v1/chat/completions"};
    int i = 3;
    while (i >= 0 && strcmp(h->path, paths[i]) != 0)
        i--;
    if (i < 0)
        llmm_sim_put_error(&c->out, 404, h->keep_alive, "no such route");
    else if (strcmp(h->method, i < 2 ? "GET" : "POST") != 0)
        llmm_sim_put_error(&c->out, 405, h->keep_alive, "method not allowed");
    else if (i == 0)
        llmm_sim_put_response(&c->out, 200, h->keep_alive, "text/plain", "", 0);
    else if (i == 1)
        models(c, h->keep_alive);
    else
        completion(c, h, i == 2 ? LLMM_SIM_COMPLETIONS : LLMM_SIM_CHAT, body);
    if (!h->keep_alive && !c->req)
        c->close_after = 1;
}

/* Answer the requests complete in c->in, one at a time (a pipelined one waits for the
 * response before it). */
static void answer_complete(llmm_sim_conn *c)
{
    while (!c->req && !c->close_after) {
        llmm_sim_http_req h;
        size_t avail = c->in.len - c->in.off;
        char *head = c->in.data + c->in.off, *body;
        long k = avail ? llmm_sim_http_parse(head, avail, &h) : LLMM_SIM_HTTP_MORE;
        if (k == LLMM_SIM_HTTP_MORE)
            return;
        if (k < 0) {
            llmm_sim_put_error(&c->out, (int)-k, 0, "cannot read the request");
            c->close_after = 1;
            return;
        }
        if (avail - (size_t)k < h.content_length) {
            if (h.expect_continue && !c->continued)
                llmm_sim_buf_printf(&c->out, "HTTP/1.1 100 Continue\r\n\r\n");
            c->continued = 1;
            return;
        }
        c->continued = 0;
        if (c->close_on_next) { /* the idle close this request crossed: not a byte back */
            c->close_after = 1;
            return;
        }
        body = malloc(h.content_length + 1);
        if (!body) {
            c->close_after = 1;
            return;
        }
        memcpy(body, head + k, h.content_length);
        body[h.content_length] = '\0';
        llmm_sim_buf_consume(&c->in, (size_t)k + h.content_length);
        llmm_admit_served(&c->srv->guard, &c->guard);
        route(c, &h, body);
        free(body);
    }
}

/* Answer what is complete; with no request left in hand, the next one's deadline runs. */
static void process(llmm_sim_conn *c)
{
    answer_complete(c);
    if (!c->req)
        llmm_admit_wait(&c->srv->guard, &c->guard, llmm_sim_now_ns());
}

/* ---- the engine's callbacks -------------------------------------------------------------- */

/* Close the connection of r at once, as a crash would (the drop fault). */
static void drop(llmm_sim_req *r)
{
    llmm_sim_conn *c = r->conn;
    c->req = NULL;
    r->conn = NULL;
    shutdown(c->fd, SHUT_RDWR);
    llmm_sim_conn_close(c);
}

int llmm_sim_on_token(void *ctx, llmm_sim_seq *seq, uint64_t t_ns)
{
    llmm_sim_req *r = (llmm_sim_req *)seq;
    llmm_sim_conn *c = r->conn;
    llmm_sim_reply p;
    uint32_t k = seq->emitted;
    int bad = seq->plan.fault == LLMM_SIM_FAULT_MALFORMED && k == seq->plan.fault_at, rc = 0;
    (void)ctx;
    if (!c)
        return 1;
    reply_of(r, &p);
    if (r->error_at && k == r->error_at) { /* the in-stream error fault ends the stream */
        r->stream_failed = 1;
        seq->emitted = k - 1; /* the error took this token's place */
        rc = llmm_sim_put_stream_error(&c->out, &p, c->srv->cfg.p.stream_error_dialect,
                                       "simulated in-stream error (--stream-error-rate)");
        if (rc != 0 || flush(c) != 0)
            drop(r);
        return 1;
    }
    if (r->body.stream) {
        rc |= llmm_sim_put_token(&c->out, &p, k, bad);
        if (k == p.output_tokens && r->body.include_usage)
            rc |= llmm_sim_put_usage(&c->out, &p);
        if (k == p.output_tokens)
            rc |= llmm_sim_put_done(&c->out, &p);
    } else if (k == p.output_tokens) {
        rc |= llmm_sim_put_full(&c->out, &p, r->keep_alive, bad);
    }
    if (r->body.stream || k == p.output_tokens) {
        r->last_ns = llmm_sim_now_ns();
        r->last_due_ns = t_ns;
        if (!r->first_ns) {
            r->first_ns = r->last_ns;
            r->first_due_ns = t_ns;
        }
    }
    if (rc != 0 || flush(c) != 0) {
        drop(r);
        return 1;
    }
    if (seq->plan.fault == LLMM_SIM_FAULT_DROP && k == seq->plan.fault_at &&
        k < p.output_tokens) {
        drop(r);
        return 1;
    }
    return 0;
}

void llmm_sim_on_release(void *ctx, llmm_sim_seq *seq, uint64_t t_ns)
{
    llmm_sim_server *s = ctx;
    llmm_sim_req *r = (llmm_sim_req *)seq;
    llmm_sim_conn *c = r->conn;
    int done = seq->emitted >= seq->plan.output_tokens, keep_alive = r->keep_alive;
    (void)t_ns;
    const char *outcome = done ? "ok" : s->stopping ? "shutdown" : "client_closed";
    if (!done && seq->plan.fault == LLMM_SIM_FAULT_DROP && seq->emitted == seq->plan.fault_at)
        outcome = "dropped";
    if (r->stream_failed)
        outcome = "stream_error";
    log_request(s, r, outcome);
    free(r);
    if (!c)
        return;
    c->req = NULL;
    if (!keep_alive || s->cfg.p.close_after_stream)
        c->close_after = 1; /* close_after_stream: although the head said keep-alive */
    else if (llmm_cli_rng_uniform(&s->fault_rng) < s->cfg.p.idle_close_rate)
        c->close_on_next = 1;
    process(c);
    if (flush(c) != 0)
        llmm_sim_conn_close(c);
}

/* ---- the connection ---------------------------------------------------------------------- */

int llmm_sim_conn_open(llmm_sim_server *s, int fd, const struct sockaddr_storage *sa)
{
    llmm_sim_conn *c = calloc(1, sizeof *c);
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET};
    if (!c)
        return -1;
    c->fd = fd;
    c->srv = s;
    c->guard.owner = c;
    ev.data.ptr = c;
    if (llmm_admit_enter(&s->guard, &c->guard, sa, fd, llmm_sim_now_ns()) != 0) {
        llmm_admit_refuse(fd, !s->tls_ctx);
        free(c);
        return 0;
    }
    if ((s->tls_ctx && !(c->tls = llmm_sim_tls_session(s->tls_ctx, fd))) ||
        epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
        llmm_admit_leave(&s->guard, &c->guard);
        llmm_sim_tls_session_free(c->tls);
        free(c);
        return -1;
    }
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    return 0;
}

void llmm_sim_conn_close(llmm_sim_conn *c)
{
    if (c->req) { /* the engine lets it go at its next step */
        c->req->seq.cancelled = 1;
        c->req->conn = NULL;
    }
    llmm_admit_leave(&c->srv->guard, &c->guard);
    llmm_sim_tls_session_free(c->tls);
    close(c->fd);
    llmm_sim_buf_free(&c->in);
    llmm_sim_buf_free(&c->out);
    if (c->prev)
        c->prev->next = c->next;
    else
        c->srv->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    llmm_sim_resume_accept(c->srv);
    free(c);
}

/* Read what has arrived; 0, or 1 when the peer is gone. */
static int read_in(llmm_sim_conn *c)
{
    for (;;) {
        long k;
        if (llmm_sim_buf_reserve(&c->in, 4096) != 0)
            return 1;
        k = c_recv(c, c->in.data + c->in.len, c->in.cap - c->in.len);
        if (k == -1)
            return 0;
        if (k <= 0)
            return 1;
        c->in.len += (size_t)k;
        if (c->in.len - c->in.off > LLMM_SIM_HEAD_MAX + LLMM_SIM_BODY_MAX)
            return 1;
    }
}

void llmm_sim_conn_event(llmm_sim_conn *c, uint32_t events)
{
    int gone = (events & EPOLLERR) != 0;
    if (!gone && (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLOUT)))
        gone = read_in(c);
    if (!gone)
        process(c);
    if (gone || flush(c) != 0)
        llmm_sim_conn_close(c);
}
