/* url.c: the endpoint of `llmm bench --url` (url.h). */
#include "bench/url.h"

#include <stdio.h>
#include <string.h>

/* Does s[0, n) end with the string lit? */
static int ends_with(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && memcmp(s + n - k, lit, k) == 0;
}

int llmm_bench_endpoint(const char *url, int chat, char *buf, size_t cap, int *is_chat)
{
    const char *query = strchr(url, '?'), *scheme = strstr(url, "://"), *path;
    size_t n = query ? (size_t)(query - url) : strlen(url), start;
    const char *add;
    int w;
    if (!query)
        query = "";
    /* the path starts at the first '/' after the authority */
    path = scheme && (size_t)(scheme - url) < n ? scheme + 3 : url;
    start = (size_t)(path - url);
    while (start < n && url[start] != '/')
        start++;
    while (n > start && url[n - 1] == '/')
        n--;
    if (ends_with(url + start, n - start, "/completions")) {
        add = "";
        chat = ends_with(url + start, n - start, "/chat/completions");
    } else if (ends_with(url + start, n - start, "/v1")) {
        add = chat ? "/chat/completions" : "/completions";
    } else {
        add = chat ? "/v1/chat/completions" : "/v1/completions";
    }
    *is_chat = chat;
    w = snprintf(buf, cap, "%.*s%s%s", (int)n, url, add, query);
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}
