/* preflight.c: before the run starts (client.h): one real request (the first prompt, one
 * output token, through the same handle setup, stream reading and outcome as every request),
 * and the model the server lists first when --model is not given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "bench/request.h"

/* The first line of the server's words, within the message kept. */
static int first_line(const char *msg)
{
    size_t n = strcspn(msg, "\r\n");
    return (int)n;
}

int llmm_bench_preflight(const llmm_bench_target *t, const llmm_bench_prompt *p,
                         llmm_cli_error *err)
{
    llmm_cli_json tok;
    llmm_bench_req q;
    llmm_bench_prompt one = *p;
    int reason;
    memset(&tok, 0, sizeof tok);
    one.out_len = 1;
    if (llmm_bench_req_init(&q, &tok) != 0 ||
        llmm_bench_req_start(&q, t, &one, LLMM_BENCH_PREFLIGHT_ID, NULL) != 0) {
        llmm_bench_req_free(&q);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    curl_easy_setopt(q.easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    reason = llmm_bench_req_outcome(&q, curl_easy_perform(q.easy));
    llmm_cli_json_free(&tok);
    if (reason == LLMM_BENCH_OK || q.nomem) {
        int nomem = q.nomem;
        llmm_bench_req_free(&q);
        return nomem ? llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory") : LLMM_CLI_OK;
    }
    if (reason == LLMM_BENCH_HTTP)
        llmm_cli_fail(err, LLMM_CLI_EIO, "the first request to %s failed: HTTP %d: %.*s", t->url,
                      q.http_status, first_line(q.msg), q.msg);
    else
        llmm_cli_fail(err, LLMM_CLI_EIO, "the first request to %s failed (%s)%s%.*s", t->url,
                      llmm_bench_reason_name(reason), q.nmsg ? ": " : "", first_line(q.msg), q.msg);
    llmm_bench_req_free(&q);
    return LLMM_CLI_EIO;
}

/* ---- the default model ------------------------------------------------------------------- */

typedef struct body_buf {
    char b[1 << 16];
    size_t n;
    int full;
} body_buf;

static size_t keep_body(char *buf, size_t size, size_t n, void *ctx)
{
    body_buf *k = ctx;
    size_t len = size * n;
    if (len > sizeof k->b - 1 - k->n) {
        k->full = 1;
        return 0;
    }
    memcpy(k->b + k->n, buf, len);
    k->n += len;
    return len;
}

/* The models URL beside the endpoint url: its /completions or /chat/completions replaced by
 * /models, the query kept. 0, or -1. */
static int models_url(const char *url, char *out, size_t cap)
{
    const char *q = strchr(url, '?');
    size_t n = q ? (size_t)(q - url) : strlen(url);
    static const char *const ends[] = {"/chat/completions", "/completions"};
    for (int i = 0; i < 2; i++) {
        size_t k = strlen(ends[i]);
        if (n >= k && memcmp(url + n - k, ends[i], k) == 0) {
            int w = snprintf(out, cap, "%.*s/models%s", (int)(n - k), url, q ? q : "");
            return w < 0 || (size_t)w >= cap ? -1 : 0;
        }
    }
    return -1;
}

/* A model name that goes into the request body as it is: printable ASCII, no quote or
 * backslash (what --model accepts). */
static int plain(const char *s)
{
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7e || *s == '"' || *s == '\\')
            return 0;
    return 1;
}

int llmm_bench_first_model(const llmm_bench_target *t, char *out, size_t cap)
{
    const char *data_path[] = {"data", NULL}, *id_path[] = {"id", NULL};
    const char *name = NULL;
    char url[4096];
    body_buf *k;
    CURL *e;
    struct curl_slist *h = NULL;
    long status = 0;
    int rc = -1;
    yajl_val doc, data, id;
    if (models_url(t->url, url, sizeof url) != 0 || !(k = calloc(1, sizeof *k)))
        return -1;
    e = curl_easy_init();
    if (t->api_key) {
        char auth[1024];
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", t->api_key);
        h = curl_slist_append(NULL, auth);
        memset(auth, 0, sizeof auth);
    }
    for (size_t i = 0; i < t->nheaders; i++)
        h = curl_slist_append(h, t->headers[i]);
    if (e) {
        curl_easy_setopt(e, CURLOPT_URL, url);
        curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, keep_body);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, k);
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 10000L);
        llmm_bench_easy_common(e, t);
        if (curl_easy_perform(e) == CURLE_OK)
            curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_cleanup(e);
    }
    curl_slist_free_all(h);
    k->b[k->n] = '\0';
    doc = status == 200 && !k->full ? yajl_tree_parse(k->b, NULL, 0) : NULL;
    data = doc && YAJL_IS_OBJECT(doc) ? yajl_tree_get(doc, data_path, yajl_t_array) : NULL;
    id = data && data->u.array.len > 0
             ? yajl_tree_get(data->u.array.values[0], id_path, yajl_t_string)
             : NULL;
    if (id)
        name = YAJL_GET_STRING(id);
    if (name && plain(name) && strlen(name) < cap) {
        memcpy(out, name, strlen(name) + 1);
        rc = 0;
    }
    yajl_tree_free(doc);
    free(k);
    return rc;
}
