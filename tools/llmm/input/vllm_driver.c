/* vllm_driver.c: the vLLM reader's calls (input.h): feeding the parser of vllm.c through
 * YAJL, error positions, the flags of the second pass. */
#include <stdlib.h>
#include <string.h>

#include "input/vllm.h"

static int vllm_create(const llmm_cli_reader *rd, const char *name, const llmm_cli_sink *sink,
                       const uint8_t *replay_failed, size_t replay_n, void **out,
                       llmm_cli_error *err)
{
    llmm_cli_vllm *p = calloc(1, sizeof *p);
    (void)rd;
    *out = NULL;
    if (!p)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    p->name = name;
    if (sink)
        p->sink = *sink;
    p->replay = replay_failed;
    p->replay_n = replay_n;
    p->line = 1;
    if (replay_failed) { /* the second pass delivers ITLs and nothing else */
        p->sink.record = NULL;
        p->sink.run_end = NULL;
        p->sink.note = NULL;
    }
    p->events = &llmm_cli_vllm_events;
    p->h = yajl_alloc(&llmm_cli_json_callbacks, NULL, p);
    if (!p->h) {
        free(p);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    }
    yajl_config(p->h, yajl_allow_multiple_values, 1);
    *out = p;
    return LLMM_CLI_OK;
}

/* Line and column of byte `consumed` of the current chunk (chunk may be NULL at the end). */
static void position(const llmm_cli_vllm *p, size_t consumed, uint64_t *line, uint64_t *col)
{
    uint64_t l = p->line, start = p->line_start;
    for (size_t i = 0; p->chunk && i < consumed; i++) {
        if (p->chunk[i] == '\n') {
            l++;
            start = p->chunk_offset + i + 1;
        }
    }
    *line = l;
    *col = p->chunk_offset + consumed - start + 1;
}

static int report(llmm_cli_vllm *p, yajl_status st, size_t consumed, llmm_cli_error *err)
{
    uint64_t line, col;
    position(p, consumed, &line, &col);
    if (st == yajl_status_client_canceled) {
        return llmm_cli_fail(err, p->cb.code, "%s:%llu:%llu: %s", p->name,
                             (unsigned long long)line, (unsigned long long)col, p->cb.msg);
    } else {
        char msg[256];
        llmm_cli_json_error(p->h, msg, sizeof msg);
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu:%llu: %s", p->name,
                             (unsigned long long)line, (unsigned long long)col, msg);
    }
}

static int vllm_feed(void *v, const char *buf, size_t len, llmm_cli_error *err)
{
    llmm_cli_vllm *p = v;
    yajl_status st;
    p->chunk = buf;
    st = yajl_parse(p->h, (const unsigned char *)buf, len);
    if (st != yajl_status_ok) {
        size_t consumed = yajl_get_bytes_consumed(p->h);
        return report(p, st, consumed > len ? len : consumed, err);
    }
    for (const char *nl = memchr(buf, '\n', len); nl; nl = memchr(nl + 1, '\n', len - (size_t)(nl + 1 - buf))) {
        p->line++;
        p->line_start = p->chunk_offset + (size_t)(nl - buf) + 1;
    }
    p->chunk_offset += len;
    p->chunk = NULL;
    return LLMM_CLI_OK;
}

static int vllm_finish(void *v, llmm_cli_input_info *info, llmm_cli_error *err)
{
    llmm_cli_vllm *p = v;
    yajl_status st;
    p->chunk = NULL;
    st = yajl_complete_parse(p->h);
    if (!p->saw_value && !p->replay)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty input: no vLLM result document",
                             p->name);
    if (st != yajl_status_ok)
        return report(p, st, 0, err);
    if (p->replay)
        return LLMM_CLI_OK;
    if (p->info.runs == 0)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty input: no vLLM result document",
                             p->name);
    if (info)
        *info = p->info;
    return LLMM_CLI_OK;
}

static const uint8_t *vllm_replay(const void *v, size_t *n)
{
    const llmm_cli_vllm *p = v;
    *n = p->nfailed;
    return p->needs_replay ? p->failed : NULL;
}

static void vllm_destroy(void *v)
{
    llmm_cli_vllm *p = v;
    if (!p)
        return;
    yajl_free(p->h);
    free(p->req);
    free(p->failed);
    free(p);
}

const llmm_cli_reader llmm_cli_reader_vllm = {
    LLMM_CLI_FORMAT_VLLM, "vllm", {".json", NULL, NULL}, NULL, vllm_create, vllm_feed,
    vllm_finish, vllm_replay, vllm_destroy};
