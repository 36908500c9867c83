/* preflight.c: one real request before the run starts (client.h): the first prompt, one
 * output token, through the same handle setup, stream reading and outcome as every request. */
#include <string.h>

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
        llmm_bench_req_start(&q, t, &one, LLMM_BENCH_PREFLIGHT_ID) != 0) {
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
