/* stream_floor.c: the least work any streaming client can do, to measure what the kernel alone
 * costs per streamed chunk (issue 26, bench/client_compare.py).
 *
 * It opens STREAMS plain-HTTP connections, sends on each the request `llmm bench` and
 * bench/py_stream_client.py send (/v1/completions, a token-ID prompt, "stream": true,
 * "ignore_eos", usage requested) with "Connection: close", and then only reads: one epoll
 * loop, one recv() per readiness event, until every server has closed its connection. It parses
 * no HTTP, no JSON and takes no timestamps; it counts the SSE events ("data: " at the start of
 * a line) so that the caller can check that it read what the server wrote. Whatever a real
 * client adds on top (HTTP framing, libcurl, JSON, sketches) is the difference between its CPU
 * time per chunk and this program's.
 *
 * usage: stream_floor URL STREAMS TOKENS [INPUT_LEN [READ_BYTES]]
 *   URL is http://HOST:PORT (no TLS, no path: the request goes to /v1/completions);
 *   INPUT_LEN defaults to 16, READ_BYTES (the most one recv() takes) to 65536: the test sets it
 *   small so that events are split across reads.
 * Prints one JSON object: streams, completed, events, bytes, reads, waits, user_s, sys_s.
 * Exit status 0 when every stream completed, 1 otherwise, 2 on a usage error. Linux only. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* Per connection: how many bytes of "\ndata: " the previous read ended with, so that an event
 * whose start is split across two reads is still counted once. */
typedef struct {
    int fd;
    int matched;
} conn;

static const char pat[] = "\ndata: ";
enum { PAT_LEN = sizeof pat - 1 };

/* Count "\ndata: " in buf[0..n), continuing a match of c->matched bytes from the last read. */
static long count_events(conn *c, const char *buf, size_t n)
{
    long k = 0;
    size_t i = 0;
    /* Finish a match begun in the previous read, byte by byte (at most PAT_LEN - 1 bytes). */
    while (c->matched > 0 && i < n) {
        if (buf[i] == pat[c->matched]) {
            i++;
            if (++c->matched == PAT_LEN) {
                k++;
                c->matched = 0;
            }
        } else {
            c->matched = 0; /* no proper prefix of the pattern recurs inside it */
        }
    }
    const char *p = buf + i, *end = buf + n;
    while (p < end) {
        const char *q = memmem(p, (size_t)(end - p), pat, PAT_LEN);
        if (!q)
            break;
        k++;
        p = q + PAT_LEN;
    }
    /* The longest proper prefix of the pattern the buffer ends with. */
    for (int m = PAT_LEN - 1; m > 0; m--)
        if ((size_t)(end - p) >= (size_t)m && memcmp(end - m, pat, (size_t)m) == 0) {
            c->matched = m;
            break;
        }
    return k;
}

static int parse_url(const char *url, char *host, size_t hcap, char *port, size_t pcap)
{
    if (strncmp(url, "http://", 7) != 0)
        return -1;
    const char *h = url + 7, *colon = strrchr(h, ':'), *slash = strchr(h, '/');
    if (!colon || colon == h || (slash && slash < colon))
        return -1;
    size_t hl = (size_t)(colon - h), pl = slash ? (size_t)(slash - colon - 1) : strlen(colon + 1);
    if (hl >= hcap || pl == 0 || pl >= pcap)
        return -1;
    memcpy(host, h, hl);
    host[hl] = 0;
    memcpy(port, colon + 1, pl);
    port[pl] = 0;
    return 0;
}

int main(int argc, char **argv)
{
    char host[256], port[16];
    if (argc < 4 || argc > 6 || parse_url(argv[1], host, sizeof host, port, sizeof port) != 0) {
        fprintf(stderr,
                "usage: stream_floor http://HOST:PORT STREAMS TOKENS [INPUT_LEN [READ_BYTES]]\n");
        return 2;
    }
    long streams = strtol(argv[2], NULL, 10), tokens = strtol(argv[3], NULL, 10);
    long input = argc >= 5 ? strtol(argv[4], NULL, 10) : 16;
    long rbytes = argc == 6 ? strtol(argv[5], NULL, 10) : 1 << 16;
    if (streams < 1 || streams > 1000000 || tokens < 1 || input < 1 || input > 100000 ||
        rbytes < 1 || rbytes > 1 << 16) {
        fprintf(stderr, "stream_floor: STREAMS, TOKENS, INPUT_LEN and READ_BYTES must be "
                        "positive (READ_BYTES at most 65536)\n");
        return 2;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
    int gai = getaddrinfo(host, port, &hints, &ai);
    if (gai != 0) {
        fprintf(stderr, "stream_floor: %s: %s\n", host, gai_strerror(gai));
        return 1;
    }
    /* The request, built once: the prompt is the token IDs 1..INPUT_LEN. */
    size_t bcap = (size_t)input * 8 + 512;
    char *body = malloc(bcap), *req = malloc(bcap + 512);
    conn *cs = calloc((size_t)streams, sizeof *cs);
    if (!body || !req || !cs) {
        fprintf(stderr, "stream_floor: out of memory\n");
        return 1;
    }
    size_t bl = (size_t)snprintf(body, bcap, "{\"model\":\"llmm-sim\",\"prompt\":[");
    for (long i = 1; i <= input; i++)
        bl += (size_t)snprintf(body + bl, bcap - bl, "%s%ld", i > 1 ? "," : "", i);
    bl += (size_t)snprintf(body + bl, bcap - bl,
                           "],\"max_tokens\":%ld,\"stream\":true,\"ignore_eos\":true,"
                           "\"stream_options\":{\"include_usage\":true}}",
                           tokens);
    int rl = snprintf(req, bcap + 512,
                      "POST /v1/completions HTTP/1.1\r\nHost: %s:%s\r\n"
                      "Content-Type: application/json\r\nContent-Length: %zu\r\n"
                      "Connection: close\r\n\r\n%s",
                      host, port, bl, body);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) {
        perror("stream_floor: epoll_create1");
        return 1;
    }
    for (long i = 0; i < streams; i++) {
        int s = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
        if (s < 0 || connect(s, ai->ai_addr, ai->ai_addrlen) != 0) {
            fprintf(stderr, "stream_floor: connection %ld: %s\n", i + 1, strerror(errno));
            return 1;
        }
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (write(s, req, (size_t)rl) != rl) {
            fprintf(stderr, "stream_floor: sending request %ld failed\n", i + 1);
            return 1;
        }
        fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
        cs[i].fd = s;
        struct epoll_event e = {.events = EPOLLIN, .data.ptr = &cs[i]};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, s, &e) != 0) {
            perror("stream_floor: epoll_ctl");
            return 1;
        }
    }
    freeaddrinfo(ai);
    static char buf[1 << 16];
    long open = streams, completed = 0, events = 0, reads = 0, waits = 0, bytes = 0;
    struct epoll_event ev[256];
    while (open > 0) {
        int k = epoll_wait(ep, ev, 256, 60000);
        waits++;
        if (k == 0) {
            fprintf(stderr, "stream_floor: nothing read for 60 s\n");
            break;
        }
        if (k < 0) {
            if (errno == EINTR)
                continue;
            perror("stream_floor: epoll_wait");
            break;
        }
        for (int i = 0; i < k; i++) {
            conn *c = ev[i].data.ptr;
            ssize_t r = recv(c->fd, buf, (size_t)rbytes, 0);
            reads++;
            if (r > 0) {
                bytes += r;
                events += count_events(c, buf, (size_t)r);
                continue;
            }
            if (r < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            completed += r == 0; /* the server closed after the response: Connection: close */
            close(c->fd);
            open--;
        }
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("{\"streams\":%ld,\"completed\":%ld,\"events\":%ld,\"bytes\":%ld,\"reads\":%ld,"
           "\"waits\":%ld,\"user_s\":%.6f,\"sys_s\":%.6f}\n",
           streams, completed, events, bytes, reads, waits,
           (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6,
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6);
    free(cs);
    free(req);
    free(body);
    return completed == streams ? 0 : 1;
}
