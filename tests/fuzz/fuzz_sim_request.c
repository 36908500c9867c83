/* libFuzzer target: what `llmm sim` reads from a client (tools/llmm/sim): the HTTP request-head
 * parser and the JSON body, on arbitrary bytes.
 *
 * Input: byte 0 picks the endpoint (bit 0: chat), byte 1 where the head is cut for a second
 * parse; the rest is the request, in an exactly sized heap buffer without a terminating NUL
 * (any overread is a sanitizer report). Checked:
 *   - the parser's answer does not depend on how much follows the head: parsing any prefix
 *     gives "more" before the head ends and the same head (length and fields) after;
 *   - a complete head lies inside the buffer, with a NUL-terminated method and path, a
 *     Content-Length within the limit;
 *   - the body (the bytes after the head, NUL-terminated) either parses with a prompt of at
 *     least one token and a model escaped for JSON (no raw quote, backslash pair or control
 *     byte), and the usage and token events written from it are whole HTTP chunks, or is
 *     refused with a message;
 *   - no leak (LeakSanitizer) on any path. */
#include "fuzz_common.h"

#include "sim/http.h"
#include "sim/request.h"
#include "sim/respond.h"

static void check_model(const char *m)
{
    for (size_t i = 0; m[i]; i++) {
        CHECK((unsigned char)m[i] >= 0x20);
        if (m[i] == '\\') {
            CHECK(m[i + 1] != '\0');
            i++;
        } else {
            CHECK(m[i] != '"');
        }
    }
}

static void check_body(const uint8_t *p, size_t n, llmm_sim_endpoint ep)
{
    char *json = malloc(n + 1), err[256] = "";
    llmm_sim_body b;
    CHECK(json != NULL);
    memcpy(json, p, n);
    json[n] = '\0';
    if (llmm_sim_body_parse(json, ep, "m", &b, err, sizeof err) == 0) {
        llmm_sim_reply r = {.ep = ep, .num = 1, .created = 0, .model = b.model,
                            .prompt_tokens = b.prompt_tokens, .output_tokens = 2};
        llmm_sim_buf out = {0};
        CHECK(b.prompt_tokens >= 1);
        CHECK(b.max_tokens <= LLMM_SIM_MAX_TOKENS_LIMIT);
        check_model(b.model);
        CHECK(llmm_sim_put_token(&out, &r, 1, 0) == 0);
        CHECK(llmm_sim_put_usage(&out, &r) == 0);
        CHECK(out.len > 0 && out.data[out.len - 1] == '\n');
        llmm_sim_buf_free(&out);
    } else {
        CHECK(err[0] != '\0');
    }
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_input in = {data, size};
    llmm_sim_endpoint ep = (fz_u8(&in) & 1) ? LLMM_SIM_CHAT : LLMM_SIM_COMPLETIONS;
    size_t cut = fz_u8(&in), n = in.n;
    char *buf = malloc(n ? n : 1);
    llmm_sim_http_req a, b;
    long k, k2;
    CHECK(buf != NULL);
    memcpy(buf, in.p, n);
    k = llmm_sim_http_parse(buf, n, &a);
    cut = n ? cut * n / 255 : 0;
    k2 = llmm_sim_http_parse(buf, cut, &b);
    if (k > 0) {
        CHECK((size_t)k <= n && (size_t)k == a.head_len);
        CHECK(memchr(a.method, '\0', sizeof a.method) && memchr(a.path, '\0', sizeof a.path));
        CHECK(a.content_length <= LLMM_SIM_BODY_MAX);
        if (cut >= (size_t)k) {
            CHECK(k2 == k && b.content_length == a.content_length &&
                  b.keep_alive == a.keep_alive && strcmp(a.path, b.path) == 0);
        } else {
            CHECK(k2 == LLMM_SIM_HTTP_MORE);
        }
        check_body((const uint8_t *)buf + k, n - (size_t)k, ep);
    } else if (k == LLMM_SIM_HTTP_MORE) {
        CHECK(k2 == LLMM_SIM_HTTP_MORE);
    }
    free(buf);
    return 0;
}
