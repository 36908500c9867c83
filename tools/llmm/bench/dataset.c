/* dataset.c: ShareGPT and JSON Lines prompts (dataset.h), read with the tool's streaming
 * tokenizer: only the keys that matter are decoded. */
#include "bench/dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "input/jreader.h"

enum { R_LIST = 1, R_ENTRY, R_CONV, R_TURN };
enum { K_CONV = 1, K_PROMPT, K_OUTLEN, K_VALUE };

typedef struct reader {
    llmm_cli_json tok;
    llmm_bench_prompts *out;
    size_t cap;
    int64_t out_len;  /* fixed output length, 0: from the data */
    int sharegpt;     /* the entry came from a conversation list */
    char *prompt;     /* the entry's prompt (decoded) */
    size_t nprompt;
    int64_t completion_words, entry_out, turns;
    int nomem;
} reader;

static int64_t words(const char *s, size_t n)
{
    int64_t w = 0;
    int in = 0;
    for (size_t i = 0; i < n; i++) {
        int space = s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r';
        w += !space && !in;
        in = !space;
    }
    return w;
}

char *llmm_bench_json_string(const char *s, size_t n)
{
    char *b = malloc(n * 6 + 3), *p = b;
    if (!b)
        return NULL;
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c < 0x20) {
            p += sprintf(p, "\\u%04x", c);
        } else {
            *p++ = (char)c;
        }
    }
    *p++ = '"';
    *p = '\0';
    return b;
}

static void entry_begin(reader *r)
{
    free(r->prompt);
    r->prompt = NULL;
    r->nprompt = 0;
    r->completion_words = r->entry_out = -1;
    r->turns = 0;
    r->sharegpt = 0;
}

/* The entry ended: keep it as a prompt when it is usable. */
static int entry_end(reader *r)
{
    llmm_bench_prompt *p;
    int64_t in, outl;
    if (!r->prompt)
        return 1;
    in = words(r->prompt, r->nprompt);
    outl = r->out_len > 0 ? r->out_len : r->sharegpt ? r->completion_words
                           : r->entry_out > 0 ? r->entry_out : 64;
    if (r->sharegpt && (r->turns < 2 || in < 4 || in > 1024 || outl < 4 || in + outl > 2048))
        return 1;
    if (in < 1 || outl < 1)
        return 1;
    if (r->out->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        llmm_bench_prompt *v = realloc(r->out->v, cap * sizeof *v);
        if (!v)
            return r->nomem = 1, 0;
        r->out->v = v;
        r->cap = cap;
    }
    p = &r->out->v[r->out->n];
    p->json = llmm_bench_json_string(r->prompt, r->nprompt);
    if (!p->json)
        return r->nomem = 1, 0;
    p->in_len = in;
    p->out_len = outl;
    p->estimated = 1; /* words, not the server's tokens */
    r->out->n++;
    return 1;
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    static const char *const entry[] = {"conversations", "conversation", "prompt",
                                        "output_len", "max_tokens"};
    static const int entry_id[] = {K_CONV, K_CONV, K_PROMPT | LLMM_CLI_JSON_TEXT, K_OUTLEN,
                                   K_OUTLEN};
    static const char *const turn[] = {"value", "content"};
    int i;
    (void)self;
    if (f->type == R_ENTRY) {
        i = llmm_cli_key_find(k, len, entry, 5);
        return i < 0 ? LLMM_CLI_JSON_SKIP : entry_id[i];
    }
    if (f->type == R_TURN && llmm_cli_key_find(k, len, turn, 2) >= 0)
        return K_VALUE | LLMM_CLI_JSON_TEXT;
    return LLMM_CLI_JSON_SKIP;
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    reader *r = self;
    if (!parent || parent->type == R_LIST) {
        if (map)
            entry_begin(r);
        return map ? R_ENTRY : !parent ? R_LIST : LLMM_CLI_JSON_SKIP;
    }
    if (parent->type == R_ENTRY && parent->key == K_CONV && !map) {
        r->sharegpt = 1;
        return R_CONV;
    }
    if (parent->type == R_CONV && map) {
        r->turns++;
        return R_TURN;
    }
    return LLMM_CLI_JSON_SKIP;
}

static int keep_prompt(reader *r, const char *s, size_t n)
{
    free(r->prompt);
    r->prompt = malloc(n + 1);
    if (!r->prompt)
        return r->nomem = 1, 0;
    memcpy(r->prompt, s, n);
    r->prompt[n] = '\0';
    r->nprompt = n;
    return 1;
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    reader *r = self;
    int64_t n;
    if (!f)
        return 1;
    if (f->type == R_ENTRY && f->key == K_PROMPT && v->kind == K_STRING)
        return keep_prompt(r, v->text, v->len);
    if (f->type == R_ENTRY && f->key == K_OUTLEN && llmm_cli_json_int(v, &n))
        r->entry_out = n;
    if (f->type == R_TURN && f->key == K_VALUE && v->kind == K_STRING) {
        size_t turn = f[-1].idx;
        if (turn == 0)
            return keep_prompt(r, v->text, v->len);
        if (turn == 1)
            r->completion_words = words(v->text, v->len);
    }
    return 1;
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    return f->type == R_ENTRY ? entry_end(self) : 1;
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

int llmm_bench_dataset_parse(const char *buf, size_t len, const char *name, int64_t out_len,
                             llmm_bench_prompts *out, llmm_cli_error *err)
{
    reader *r = calloc(1, sizeof *r);
    int st, rc = LLMM_CLI_OK;
    if (!r)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    out->v = NULL;
    out->n = 0;
    r->out = out;
    r->out_len = out_len;
    llmm_cli_json_init(&r->tok, &handler, r, 1);
    st = llmm_cli_json_feed(&r->tok, buf, len);
    if (st == LLMM_CLI_JSON_OK)
        st = llmm_cli_json_finish(&r->tok);
    if (r->nomem || st == LLMM_CLI_JSON_NOMEM) {
        rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    } else if (st != LLMM_CLI_JSON_OK) {
        uint64_t line, col;
        llmm_cli_json_where(&r->tok, &line, &col);
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu:%llu: %s", name,
                           (unsigned long long)line, (unsigned long long)col, r->tok.msg);
    } else if (out->n == 0) {
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE,
                           "%s: no usable prompt (ShareGPT conversations of at least two "
                           "turns, or JSON Lines with a \"prompt\")",
                           name);
    }
    if (rc != LLMM_CLI_OK)
        llmm_bench_prompts_free(out);
    free(r->prompt);
    llmm_cli_json_free(&r->tok);
    free(r);
    return rc;
}

int llmm_bench_dataset_read(const char *path, int64_t out_len, llmm_bench_prompts *out,
                            llmm_cli_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    int rc = llmm_cli_read_all(path, 0, LLMM_BENCH_DATASET_MAX, &buf, &len, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_bench_dataset_parse(buf ? buf : "", len, path, out_len, out, err);
    free(buf);
    return rc;
}
