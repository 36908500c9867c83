/* vllm_driver.c: feeding the vLLM parser (parse_vllm.c) through YAJL, error positions, and
 * the whole-buffer entry point with its second pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vllm.h"

int llmm_cli_vllm_new(const char *name, const llmm_cli_sink *sink, const uint8_t *replay_failed,
                      size_t replay_n, llmm_cli_vllm **out, llmm_cli_error *err)
{
    llmm_cli_vllm *p = calloc(1, sizeof *p);
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
    p->h = yajl_alloc(&llmm_cli_vllm_callbacks, NULL, p);
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
        return llmm_cli_fail(err, p->cb_code, "%s:%llu:%llu: %s", p->name,
                             (unsigned long long)line, (unsigned long long)col, p->cb_msg);
    } else {
        unsigned char *m = yajl_get_error(p->h, 0, NULL, 0);
        char msg[256] = "invalid JSON";
        if (m) {
            size_t n = strcspn((const char *)m, "\n");
            snprintf(msg, sizeof msg, "%.*s", (int)n, (const char *)m);
            yajl_free_error(p->h, m);
        }
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%llu:%llu: %s", p->name,
                             (unsigned long long)line, (unsigned long long)col, msg);
    }
}

int llmm_cli_vllm_feed(llmm_cli_vllm *p, const char *buf, size_t len, llmm_cli_error *err)
{
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

int llmm_cli_vllm_finish(llmm_cli_vllm *p, llmm_cli_error *err)
{
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
    return LLMM_CLI_OK;
}

int llmm_cli_vllm_needs_replay(const llmm_cli_vllm *p)
{
    return p->needs_replay;
}

const uint8_t *llmm_cli_vllm_failed_flags(const llmm_cli_vllm *p, size_t *n)
{
    *n = p->nfailed;
    return p->failed;
}

void llmm_cli_vllm_info(const llmm_cli_vllm *p, llmm_cli_input_info *info)
{
    *info = p->info;
}

void llmm_cli_vllm_free(llmm_cli_vllm *p)
{
    if (!p)
        return;
    yajl_free(p->h);
    free(p->req);
    free(p->failed);
    free(p);
}

static int parse_pass(const char *buf, size_t len, const char *name, const llmm_cli_sink *sink,
                      const uint8_t *replay, size_t replay_n, llmm_cli_vllm **out,
                      llmm_cli_error *err)
{
    int rc = llmm_cli_vllm_new(name, sink, replay, replay_n, out, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_vllm_feed(*out, buf, len, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_vllm_finish(*out, err);
    return rc;
}

int llmm_cli_parse_vllm(const char *buf, size_t len, const char *name, const llmm_cli_sink *sink,
                        llmm_cli_input_info *info, llmm_cli_error *err)
{
    llmm_cli_vllm *p = NULL, *q = NULL;
    int rc = parse_pass(buf, len, name, sink, NULL, 0, &p, err);
    if (rc == LLMM_CLI_OK && llmm_cli_vllm_needs_replay(p)) {
        size_t n;
        const uint8_t *flags = llmm_cli_vllm_failed_flags(p, &n);
        if (sink && sink->itl_reset) {
            rc = sink->itl_reset(sink->user);
            if (rc != LLMM_CLI_OK) /* a code only from the sink: the message, as input.c's */
                rc = llmm_cli_fail(err, rc, "%s: out of memory", name);
        }
        if (rc == LLMM_CLI_OK)
            rc = parse_pass(buf, len, name, sink, flags, n, &q, err);
        p->info.replayed = 1;
    }
    if (rc == LLMM_CLI_OK && info)
        llmm_cli_vllm_info(p, info);
    llmm_cli_vllm_free(q);
    llmm_cli_vllm_free(p);
    return rc;
}
