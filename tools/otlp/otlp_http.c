/* otlp_http.c: OTLP/HTTP POST with gzip, timeouts and retries (otlp_http.h).
 *
 * Retry rules (OTLP/HTTP, "Failures"): 429, 502, 503 and 504 are retryable, as are a refused
 * connection and a timeout; the client waits the `Retry-After` the server sent, if any
 * (libcurl parses both forms: delay-seconds and HTTP-date, CURLINFO_RETRY_AFTER), else an
 * exponential backoff: initial · 2^k, capped, times a jitter in [0.5, 1). Every other status
 * is final. Retry-After is read here (delay-seconds, or an HTTP-date through curl_getdate())
 * rather than through CURLINFO_RETRY_AFTER, which reads an absent header as 0. A Retry-After longer than retry_after_max_ms gives up rather than hold the caller. */
#define _POSIX_C_SOURCE 200809L
#include "otlp_http.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

void llmm_push_config_default(llmm_push_config *c)
{
    memset(c, 0, sizeof *c);
    c->gzip = 1;
    c->timeout_ms = 10000;
    c->max_attempts = 5;
    c->backoff_initial_ms = 500;
    c->backoff_max_ms = 8000;
    c->retry_after_max_ms = 30000;
}

int llmm_push_gzip(const uint8_t *in, size_t n, uint8_t **out, size_t *out_n)
{
    z_stream z;
    uLong cap;
    memset(&z, 0, sizeof z);
    /* windowBits 15 + 16: a gzip wrapper (RFC 1952) rather than zlib's */
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    cap = deflateBound(&z, (uLong)n) + 32;
    if (!(*out = malloc(cap))) {
        deflateEnd(&z);
        return -1;
    }
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    z.next_out = *out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
        deflateEnd(&z);
        free(*out);
        *out = NULL;
        return -1;
    }
    *out_n = z.total_out;
    deflateEnd(&z);
    return 0;
}

static int retryable(long status)
{
    return status == 429 || status == 502 || status == 503 || status == 504;
}

static void sleep_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* A jitter factor in [0.5, 1): splitmix64 of the attempt and the clock, no global state. */
static double jitter(int attempt)
{
    struct timespec ts;
    uint64_t x;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    x = (uint64_t)ts.tv_nsec ^ ((uint64_t)attempt << 32);
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return 0.5 + 0.5 * (double)(x >> 11) / 9007199254740992.0;
}

static size_t discard(char *p, size_t size, size_t n, void *user)
{
    (void)p;
    (void)user;
    return size * n;
}

/* Retry-After of a header line, in seconds: -1 when absent or unreadable, 0 for a date in
 * the past. */
static long retry_after_of(const char *v, size_t n)
{
    char text[128];
    size_t i = 0, k;
    long secs = 0;
    time_t when;
    while (i < n && (v[i] == ' ' || v[i] == '\t'))
        i++;
    while (n > i && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' '))
        n--;
    if (i == n || n - i >= sizeof text)
        return -1;
    for (k = i; k < n && v[k] >= '0' && v[k] <= '9'; k++)
        if ((secs = secs * 10 + (v[k] - '0')) > 86400L * 365)
            return -1;
    if (k == n)
        return secs; /* delay-seconds */
    memcpy(text, v + i, n - i);
    text[n - i] = '\0';
    if ((when = curl_getdate(text, NULL)) == (time_t)-1)
        return -1;
    return when > time(NULL) ? (long)(when - time(NULL)) : 0;
}

static size_t header_line(char *p, size_t size, size_t n, void *user)
{
    static const char name[] = "retry-after:";
    size_t len = size * n, i;
    long *ra = user;
    if (len < sizeof name - 1)
        return len;
    for (i = 0; i < sizeof name - 1; i++)
        if ((p[i] | 0x20) != name[i])
            return len;
    *ra = retry_after_of(p + i, len - i);
    return len;
}

/* One attempt: the HTTP status (0 when there was no answer) and the Retry-After in seconds
 * (-1: none). */
static long attempt(CURL *e, const char *url, struct curl_slist *headers, const uint8_t *body,
                    size_t n, long timeout_ms, long *retry_after_s, char *err, size_t errcap)
{
    char cerr[CURL_ERROR_SIZE] = "";
    long status = 0;
    CURLcode rc;
    curl_easy_reset(e);
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, (const char *)body);
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, cerr);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, header_line);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, retry_after_s);
    *retry_after_s = -1;
    rc = curl_easy_perform(e);
    if (rc != CURLE_OK) {
        snprintf(err, errcap, "%s", cerr[0] ? cerr : curl_easy_strerror(rc));
        *retry_after_s = -1;
        return 0;
    }
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
    snprintf(err, errcap, "HTTP %ld", status);
    return status;
}

int llmm_push_post(const llmm_push_config *c, const char *path, const uint8_t *body, size_t n,
                   llmm_push_result *r)
{
    struct curl_slist *headers = NULL;
    uint8_t *gz = NULL;
    char url[2048];
    size_t base;
    CURL *e;
    long backoff = c->backoff_initial_ms > 0 ? c->backoff_initial_ms : 1;
    int k, ok = -1;

    memset(r, 0, sizeof *r);
    if (!c->endpoint || !c->endpoint[0] || c->max_attempts < 1) {
        snprintf(r->error, sizeof r->error, "no endpoint");
        return -1;
    }
    base = strlen(c->endpoint);
    while (base && c->endpoint[base - 1] == '/')
        base--;
    if (snprintf(url, sizeof url, "%.*s%s", (int)base, c->endpoint, path) >= (int)sizeof url) {
        snprintf(r->error, sizeof r->error, "endpoint too long");
        return -1;
    }
    if (c->gzip) {
        if (llmm_push_gzip(body, n, &gz, &n) != 0) {
            snprintf(r->error, sizeof r->error, "gzip failed");
            return -1;
        }
        body = gz;
        headers = curl_slist_append(headers, "Content-Encoding: gzip");
    }
    headers = curl_slist_append(headers, c->json ? "Content-Type: application/json"
                                                 : "Content-Type: application/x-protobuf");
    for (size_t i = 0; headers && i < c->nheaders; i++)
        headers = curl_slist_append(headers, c->headers[i]);
    r->body_bytes = n;
    if (!headers || !(e = curl_easy_init())) {
        snprintf(r->error, sizeof r->error, "out of memory");
        curl_slist_free_all(headers);
        free(gz);
        return -1;
    }
    for (k = 0; k < c->max_attempts; k++) {
        long ra, wait;
        r->attempts++;
        r->http_status =
            attempt(e, url, headers, body, n, c->timeout_ms, &ra, r->error, sizeof r->error);
        if (r->http_status >= 200 && r->http_status < 300) {
            r->error[0] = '\0';
            ok = 0;
            break;
        }
        if (r->http_status && !retryable(r->http_status))
            break; /* final: 400, 401, 413, ... */
        if (k + 1 == c->max_attempts)
            break;
        if (ra >= 0) {
            wait = ra * 1000;
            if (wait > c->retry_after_max_ms) {
                snprintf(r->error, sizeof r->error, "HTTP %ld, Retry-After %ld s is too long",
                         r->http_status, ra);
                break;
            }
            r->retry_after++;
        } else {
            wait = (long)((double)backoff * jitter(k));
            backoff = backoff * 2 > c->backoff_max_ms ? c->backoff_max_ms : backoff * 2;
        }
        if (r->waits < LLMM_PUSH_MAX_WAITS)
            r->waited_ms[r->waits++] = wait;
        sleep_ms(wait);
    }
    if (ok != 0 && r->attempts == c->max_attempts && r->http_status && retryable(r->http_status)) {
        char last[sizeof r->error];
        memcpy(last, r->error, sizeof last);
        snprintf(r->error, sizeof r->error, "%.200s after %d attempts", last, r->attempts);
    }
    curl_easy_cleanup(e);
    curl_slist_free_all(headers);
    free(gz);
    return ok;
}
