/* chunk.c: one event's JSON chunk read with the tool's streaming tokenizer (chunk.h); only
 * the keys that matter are looked at, the rest skipped unread. */
#include "bench/chunk.h"

#include <string.h>

#include "input/oai_chunk.h"

enum { R_ROOT = LLMM_CLI_OAI_ROOT, R_CHOICE = LLMM_CLI_OAI_CHOICE, R_DELTA = LLMM_CLI_OAI_DELTA,
       R_USAGE = LLMM_CLI_OAI_USAGE };
enum {
    K_CHOICES = LLMM_CLI_OAI_K_CHOICES,
    K_USAGE = LLMM_CLI_OAI_K_USAGE,
    K_DELTA = LLMM_CLI_OAI_K_DELTA,
    K_TEXT = LLMM_CLI_OAI_K_FIRST_FREE,
    K_CONTENT,
    K_TOOLS,
    K_FINISH
};

/* The key k (len bytes) is the string literal lit: a length test, then one fixed-size compare
 * the compiler expands inline (this runs for every key of every chunk). */
#define KEY_IS(k, len, lit) ((len) == sizeof(lit) - 1 && memcmp((k), (lit), sizeof(lit) - 1) == 0)

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    llmm_bench_chunk *c = self;
    switch (f->type) {
    case R_ROOT:
        if (KEY_IS(k, len, "choices"))
            return K_CHOICES;
        if (KEY_IS(k, len, "usage"))
            return K_USAGE;
        if (KEY_IS(k, len, "error"))
            c->error = 1;
        return LLMM_CLI_JSON_SKIP;
    case R_CHOICE:
        if (KEY_IS(k, len, "text"))
            return K_TEXT;
        if (KEY_IS(k, len, "finish_reason"))
            return K_FINISH;
        return KEY_IS(k, len, "delta") ? K_DELTA : LLMM_CLI_JSON_SKIP;
    case R_DELTA:
        if (llmm_cli_oai_delta_text(k, len))
            return K_CONTENT;
        if (KEY_IS(k, len, "tool_calls"))
            c->output = 1;
        return LLMM_CLI_JSON_SKIP;
    case R_USAGE:
        return llmm_cli_oai_usage_key(k, len);
    default:
        return LLMM_CLI_JSON_SKIP;
    }
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    llmm_bench_chunk *c = self;
    if (!parent)
        c->object = map;
    return llmm_cli_oai_open(parent, map);
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    llmm_bench_chunk *c = self;
    if (!f)
        return 1;
    if (f->type == R_CHOICE && f->key == K_TEXT && v->kind == K_STRING)
        c->text = 1 + (v->len > 0);
    else if (f->type == R_CHOICE && f->key == K_FINISH && v->kind == K_STRING)
        c->finish = 1;
    else if (f->type == R_DELTA && f->key == K_CONTENT && v->kind == K_STRING && v->len > 0)
        c->output = 1;
    else if (f->type == R_USAGE)
        llmm_cli_oai_usage_scalar(f, v, &c->completion_tokens, &c->prompt_tokens);
    return 1;
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, NULL};

int llmm_bench_chunk_parse(llmm_cli_json *j, const char *data, size_t len, llmm_bench_chunk *c)
{
    int st;
    memset(c, 0, sizeof *c);
    c->completion_tokens = c->prompt_tokens = -1;
    if (len == 6 && memcmp(data, "[DONE]", 6) == 0) {
        c->done = 1;
        return LLMM_BENCH_CHUNK_OK;
    }
    llmm_cli_json_init(j, &handler, c, 0);
    st = llmm_cli_json_feed(j, data, len);
    if (st == LLMM_CLI_JSON_OK)
        st = llmm_cli_json_finish(j);
    if (st == LLMM_CLI_JSON_NOMEM)
        return LLMM_BENCH_CHUNK_NOMEM;
    if (st != LLMM_CLI_JSON_OK || j->values != 1 || !c->object)
        return LLMM_BENCH_CHUNK_MALFORMED;
    /* completions: text is output, even "" (a special token), unless the chunk is an empty
     * one that only ends the stream (llama.cpp's last chunk) */
    if (c->text == 2 || (c->text == 1 && !c->finish))
        c->output = 1;
    return LLMM_BENCH_CHUNK_OK;
}
