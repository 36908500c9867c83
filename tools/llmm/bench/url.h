/* url.h: the endpoint `llmm bench --url` posts to (url.c). Needs no libcurl.
 *
 * The rule (doc/bench.md): a path ending in /completions is used as given (chat when it ends
 * in /chat/completions); a path ending in /v1 (the OpenAI base URL every OpenAI client takes)
 * gets /completions, or /chat/completions with --chat; any other path, the empty one
 * included, gets /v1/completions or /v1/chat/completions. Slashes ending the path are dropped
 * first; a query string (from the first '?') is kept at the end. */
#ifndef LLMM_BENCH_URL_H
#define LLMM_BENCH_URL_H

#include <stddef.h>

/* The endpoint of url for --chat (chat) into buf[0, cap): 0, or -1 when it does not fit.
 * *is_chat receives whether the endpoint is the chat one. */
int llmm_bench_endpoint(const char *url, int chat, char *buf, size_t cap, int *is_chat);

#endif /* LLMM_BENCH_URL_H */
