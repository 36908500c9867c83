/* json.c: what the JSON readers share (json.h). */
#include <stdio.h>
#include <string.h>

#include "input/json.h"

const char *llmm_cli_json_kind_name(int kind)
{
    static const char *const n[] = {"null", "a boolean", "a number", "a string"};
    return n[kind];
}

void llmm_cli_json_error(yajl_handle h, char *msg, size_t cap)
{
    unsigned char *m = yajl_get_error(h, 0, NULL, 0);
    snprintf(msg, cap, "invalid JSON");
    if (m) {
        snprintf(msg, cap, "%.*s", (int)strcspn((const char *)m, "\n"), (const char *)m);
        yajl_free_error(h, m);
    }
}

/* ---- YAJL's events to the reader's three -------------------------------------------------- */

#define EVENTS(ctx) (*(const llmm_cli_json_events *const *)(ctx))

static int on_null(void *ctx)
{
    return EVENTS(ctx)->scalar(ctx, K_NULL, 0, NULL, 0);
}

static int on_boolean(void *ctx, int b)
{
    return EVENTS(ctx)->scalar(ctx, K_BOOL, b != 0, NULL, 0);
}

static int on_number(void *ctx, const char *s, size_t len)
{
    return EVENTS(ctx)->scalar(ctx, K_NUMBER, 0, s, len);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
    return EVENTS(ctx)->scalar(ctx, K_STRING, 0, (const char *)s, len);
}

static int on_map_key(void *ctx, const unsigned char *key, size_t len)
{
    return EVENTS(ctx)->key(ctx, (const char *)key, len);
}

static int on_start_map(void *ctx)
{
    return EVENTS(ctx)->container(ctx, 1, 1);
}

static int on_end_map(void *ctx)
{
    return EVENTS(ctx)->container(ctx, 0, 1);
}

static int on_start_array(void *ctx)
{
    return EVENTS(ctx)->container(ctx, 1, 0);
}

static int on_end_array(void *ctx)
{
    return EVENTS(ctx)->container(ctx, 0, 0);
}

const yajl_callbacks llmm_cli_json_callbacks = {
    on_null, on_boolean, NULL, NULL, on_number, on_string, on_start_map, on_map_key,
    on_end_map, on_start_array, on_end_array};

/* ---- one JSONL line -------------------------------------------------------------------------- */

size_t llmm_cli_json_line_start(const char *line, size_t len, uint64_t lineno)
{
    size_t i = 0;
    if (lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i;
}

int llmm_cli_json_parse_line(void *self, const llmm_cli_cb_error *cb, const char *name,
                             const char *line, size_t i, size_t len, uint64_t lineno,
                             llmm_cli_error *err)
{
    yajl_handle h = yajl_alloc(&llmm_cli_json_callbacks, NULL, self);
    yajl_status st;
    if (!h)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    st = yajl_parse(h, (const unsigned char *)line + i, len - i);
    if (st == yajl_status_ok)
        st = yajl_complete_parse(h);
    if (st != yajl_status_ok) {
        size_t at = i + yajl_get_bytes_consumed(h);
        int code = LLMM_CLI_EPARSE;
        char msg[sizeof cb->msg];
        if (st == yajl_status_client_canceled) {
            code = cb->code;
            snprintf(msg, sizeof msg, "%s", cb->msg);
        } else {
            llmm_cli_json_error(h, msg, sizeof msg);
        }
        yajl_free(h);
        return llmm_cli_fail(err, code, "%s:%llu:%zu: %s", name, (unsigned long long)lineno,
                             (at > len ? len : at) + 1, msg);
    }
    yajl_free(h);
    return LLMM_CLI_OK;
}
