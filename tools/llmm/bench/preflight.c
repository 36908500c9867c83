/* preflight.c: is the server there before the run starts (client.h)? */
#include <string.h>

#include "bench/request.h"

static size_t discard(char *buf, size_t size, size_t n, void *ctx)
{
    (void)buf;
    (void)ctx;
    return size * n;
}

int llmm_bench_preflight(const llmm_bench_target *t, llmm_cli_error *err)
{
    CURL *e = curl_easy_init();
    char msg[CURL_ERROR_SIZE] = "";
    CURLcode res;
    if (!e)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    curl_easy_setopt(e, CURLOPT_URL, t->url);
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, msg);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, 10000L);
    llmm_bench_easy_common(e, t);
    res = curl_easy_perform(e);
    curl_easy_cleanup(e);
    if (res == CURLE_OK || res == CURLE_GOT_NOTHING || res == CURLE_OPERATION_TIMEDOUT)
        return LLMM_CLI_OK; /* it answered, or at least accepted the connection */
    return llmm_cli_fail(err, LLMM_CLI_EIO, "cannot reach %s: %s", t->url,
                         msg[0] ? msg : curl_easy_strerror(res));
}
