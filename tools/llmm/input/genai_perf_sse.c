/* genai_perf_sse.c: which responses of a request carried generated text (genai_perf.h).
 *
 * The bytes are server-sent events (lines `field: value`, an event ends at a blank line;
 * `data` lines join with '\n', a line starting with ':' is a comment, other fields are
 * ignored) whose data is a JSON chunk of the OpenAI API, or `[DONE]`. A chunk carries text when
 * choices[0].delta.content (chat), choices[0].text (completions) or their reasoning
 * counterparts are non-empty, or choices[0].text is "" in a chunk without a finish_reason (a
 * special token; `llmm bench`'s rule, bench/chunk.h); a role-only first chunk, an empty delta,
 * an empty text with a finish_reason (llama.cpp's last chunk), a usage chunk and [DONE] carry
 * none. An `event:` naming an error marks an error event (no text). A usage
 * object gives the server's token counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "input/genai_perf.h"
#include "input/jreader.h"
#include "input/oai_chunk.h"

enum { R_ROOT = LLMM_CLI_OAI_ROOT, R_CHOICE = LLMM_CLI_OAI_CHOICE, R_DELTA = LLMM_CLI_OAI_DELTA,
       R_USAGE = LLMM_CLI_OAI_USAGE };
enum {
    K_CHOICES = LLMM_CLI_OAI_K_CHOICES,
    K_USAGE = LLMM_CLI_OAI_K_USAGE,
    K_DELTA = LLMM_CLI_OAI_K_DELTA,
    K_ERROR = LLMM_CLI_OAI_K_FIRST_FREE,
    K_DATA,
    K_TEXT,
    K_FINISH
};

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    static const char *const root[] = {"choices", "usage", "error", "data"};
    static const int root_id[] = {K_CHOICES, K_USAGE, K_ERROR, K_DATA};
    static const char *const choice[] = {"delta", "message", "text", "finish_reason"};
    static const int choice_id[] = {K_DELTA, K_DELTA, K_TEXT, K_FINISH};
    llmm_cli_gp_stream *s = self;
    int id;
    switch (f->type) {
    case R_ROOT:
        id = llmm_cli_key_id(k, len, root, root_id, 4);
        if (id == K_ERROR)
            s->ev_err_obj = 1;
        if (id == K_DATA)
            s->ev_other = 1;
        return id == K_ERROR || id == K_DATA ? LLMM_CLI_JSON_SKIP : id;
    case R_CHOICE:
        return llmm_cli_key_id(k, len, choice, choice_id, 4);
    case R_DELTA:
        return llmm_cli_oai_delta_text(k, len) ? K_TEXT : LLMM_CLI_JSON_SKIP;
    case R_USAGE:
        return llmm_cli_oai_usage_key(k, len);
    default:
        return LLMM_CLI_JSON_SKIP;
    }
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    (void)self;
    return llmm_cli_oai_open(parent, map);
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    llmm_cli_gp_stream *s = self;
    if (!f)
        return 1;
    if (f->key == K_TEXT && v->kind == K_STRING && v->len > 0 &&
        (f->type == R_CHOICE || f->type == R_DELTA))
        s->ev_content = 1;
    else if (f->key == K_TEXT && v->kind == K_STRING && f->type == R_CHOICE)
        s->ev_empty_text = 1;
    else if (f->key == K_FINISH && v->kind == K_STRING && f->type == R_CHOICE)
        s->ev_finish = 1;
    if (f->type == R_USAGE)
        llmm_cli_oai_usage_scalar(f, v, &s->out_tokens, &s->in_tokens);
    return 1;
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, NULL};

void llmm_cli_gp_stream_begin(llmm_cli_gp_stream *s)
{
    s->nline = s->ndata = s->ncontent = 0;
    s->in_event = s->ev_error = 0;
    s->inplace = NULL;
    s->out_tokens = s->in_tokens = -1;
    s->error_events = 0;
    s->other_body = 0;
}

void llmm_cli_gp_stream_free(llmm_cli_gp_stream *s)
{
    llmm_cli_json_free(&s->inner);
    free(s->line);
    free(s->data);
    free(s->content);
}

static int mark(llmm_cli_gp_stream *s, size_t resp)
{
    if (resp >= s->ncontent) {
        if (llmm_cli_grow(&s->content, &s->capcontent, resp + 1, 1, 64) != 0)
            return LLMM_CLI_ENOMEM;
        memset(s->content + s->ncontent, 0, resp + 1 - s->ncontent);
        s->ncontent = resp + 1;
    }
    return LLMM_CLI_OK;
}

/* The data of one event (or a whole JSON body), begun in response resp. */
static int event(llmm_cli_gp_stream *s, size_t resp, const char *data, size_t len)
{
    int st;
    if (mark(s, resp) != LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    if (len == 6 && memcmp(data, "[DONE]", 6) == 0)
        return LLMM_CLI_OK;
    s->ev_content = s->ev_other = s->ev_err_obj = 0;
    s->ev_empty_text = s->ev_finish = 0;
    llmm_cli_json_init(&s->inner, &handler, s, 0);
    st = llmm_cli_json_feed(&s->inner, data, len);
    if (st == LLMM_CLI_JSON_OK)
        st = llmm_cli_json_finish(&s->inner);
    if (st == LLMM_CLI_JSON_NOMEM)
        return LLMM_CLI_ENOMEM;
    if (st != LLMM_CLI_JSON_OK || s->inner.values == 0) {
        uint64_t line, col;
        llmm_cli_json_where(&s->inner, &line, &col);
        snprintf(s->msg, sizeof s->msg, "an event's data is not JSON (%llu:%llu: %.100s)",
                 (unsigned long long)line, (unsigned long long)col,
                 s->inner.values ? s->inner.msg : "empty");
        return LLMM_CLI_EPARSE;
    }
    if (s->ev_err_obj)
        s->error_events++;
    else if (s->ev_content || (s->ev_empty_text && !s->ev_finish))
        s->content[resp] = 1;
    s->other_body |= s->ev_other;
    return LLMM_CLI_OK;
}

static int append(char **buf, size_t *n, size_t *cap, const char *s, size_t len);

static int dispatch(llmm_cli_gp_stream *s)
{
    int rc = LLMM_CLI_OK;
    if (s->in_event) {
        if (s->ev_error)
            s->error_events++;
        else if (s->inplace)
            rc = event(s, s->ev_resp, s->inplace, s->ninplace);
        else if (s->ndata > 0)
            rc = event(s, s->ev_resp, s->data, s->ndata);
    }
    s->in_event = s->ev_error = 0;
    s->ndata = 0;
    s->inplace = NULL;
    return rc;
}

/* The in-place data line goes into the event's buffer (before more data, or before the
 * response holding it is gone). */
static int keep_inplace(llmm_cli_gp_stream *s)
{
    int rc = LLMM_CLI_OK;
    if (s->inplace)
        rc = append(&s->data, &s->ndata, &s->capdata, s->inplace, s->ninplace);
    s->inplace = NULL;
    return rc;
}

static int append(char **buf, size_t *n, size_t *cap, const char *s, size_t len)
{
    if (len == 0)
        return LLMM_CLI_OK;
    if (*n + len > *cap && llmm_cli_grow(buf, cap, *n + len, 1, 256) != 0)
        return LLMM_CLI_ENOMEM;
    memcpy(*buf + *n, s, len);
    *n += len;
    return LLMM_CLI_OK;
}

/* One line of the event stream (without its '\n'), begun in response resp; in_place: it lies
 * in the response being read, so a lone data line may be parsed where it is. */
static int line(llmm_cli_gp_stream *s, size_t resp, const char *l, size_t len, int in_place)
{
    const char *colon, *val;
    size_t flen, vlen;
    if (len > 0 && l[len - 1] == '\r')
        len--;
    if (len == 0)
        return dispatch(s);
    if (l[0] == ':')
        return LLMM_CLI_OK;
    colon = memchr(l, ':', len);
    flen = colon ? (size_t)(colon - l) : len;
    val = colon ? colon + 1 : l + len;
    vlen = (size_t)(l + len - val);
    if (vlen > 0 && val[0] == ' ')
        val++, vlen--;
    if (!s->in_event) {
        s->in_event = 1;
        s->ev_resp = resp;
    }
    if (flen == 4 && memcmp(l, "data", 4) == 0) {
        if (in_place && s->ndata == 0 && !s->inplace) {
            s->inplace = val;
            s->ninplace = vlen;
            return LLMM_CLI_OK;
        }
        if (keep_inplace(s) != LLMM_CLI_OK ||
            (s->ndata > 0 && append(&s->data, &s->ndata, &s->capdata, "\n", 1) != LLMM_CLI_OK))
            return LLMM_CLI_ENOMEM;
        return append(&s->data, &s->ndata, &s->capdata, val, vlen);
    }
    if (flen == 5 && memcmp(l, "event", 5) == 0) {
        for (size_t i = 0; i + 5 <= vlen; i++)
            if (memcmp(val + i, "error", 5) == 0)
                s->ev_error = 1;
    }
    return LLMM_CLI_OK;
}

int llmm_cli_gp_stream_response(llmm_cli_gp_stream *s, size_t resp, const char *text, size_t len)
{
    size_t i = 0;
    int rc = mark(s, resp);
    while (rc == LLMM_CLI_OK && i < len && !s->in_event && s->nline == 0 &&
           (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
        i++;
    if (rc == LLMM_CLI_OK && i < len && text[i] == '{' && !s->in_event && s->nline == 0)
        return event(s, resp, text + i, len - i); /* a whole JSON body */
    while (rc == LLMM_CLI_OK && i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t seg = nl ? (size_t)(nl - (text + i)) : len - i;
        if (s->nline == 0)
            s->line_resp = resp;
        if (!nl) {
            rc = append(&s->line, &s->nline, &s->capline, text + i, seg);
            break;
        }
        if (s->nline > 0) {
            rc = append(&s->line, &s->nline, &s->capline, text + i, seg);
            if (rc == LLMM_CLI_OK)
                rc = line(s, s->line_resp, s->line, s->nline, 0);
            s->nline = 0;
        } else {
            rc = line(s, resp, text + i, seg, 1);
        }
        i += seg + 1;
    }
    return rc == LLMM_CLI_OK ? keep_inplace(s) : rc;
}

int llmm_cli_gp_stream_end(llmm_cli_gp_stream *s)
{
    int rc = LLMM_CLI_OK;
    if (s->nline > 0) {
        rc = line(s, s->line_resp, s->line, s->nline, 0);
        s->nline = 0;
    }
    return rc == LLMM_CLI_OK ? dispatch(s) : rc;
}
