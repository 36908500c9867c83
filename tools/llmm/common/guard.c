/* guard.c: connection limits and request deadlines (guard.h). */
#define _GNU_SOURCE /* accept4 */
#include "common/guard.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void llmm_cli_guard_init(llmm_cli_guard *g, uint32_t per_address, uint32_t total,
                         double request_s)
{
    *g = (llmm_cli_guard){.per_address = per_address, .total = total,
                          .request_ns = (uint64_t)(request_s * 1e9)};
}

void llmm_cli_guard_free(llmm_cli_guard *g)
{
    free(g->slot);
    g->slot = NULL;
    g->cap = g->used = 0;
}

int llmm_cli_guard_accept(int lfd, struct sockaddr_storage *sa)
{
    for (;;) {
        socklen_t len = sizeof *sa;
        int fd = accept4(lfd, (struct sockaddr *)sa, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0)
            return fd;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
            return -2;
        if (errno != ECONNABORTED && errno != EINTR && errno != EPROTO)
            return -1; /* EAGAIN: none left */
    }
}

void llmm_cli_guard_refuse(int fd, int http)
{
    static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n"
                               "Content-Type: text/plain\r\nContent-Length: 20\r\n\r\n"
                               "too many connections";
    char scratch[4096];
    while (recv(fd, scratch, sizeof scratch, MSG_DONTWAIT) > 0)
        ;
    if (http)
        send(fd, busy, sizeof busy - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
    shutdown(fd, SHUT_WR);
    close(fd);
}

/* ---- the counts per address ---------------------------------------------------------------- */

static void key_of(const struct sockaddr_storage *sa, llmm_cli_addr *a)
{
    memset(a, 0, sizeof *a);
    a->family = (uint8_t)sa->ss_family;
    if (sa->ss_family == AF_INET)
        memcpy(a->bytes, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
    else if (sa->ss_family == AF_INET6)
        memcpy(a->bytes, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
}

static size_t hash(const llmm_cli_addr *a)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    const uint8_t *p = (const uint8_t *)a;
    for (size_t i = 0; i < sizeof *a; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return (size_t)(h ^ (h >> 29));
}

/* The slot of a, or the free slot where it would go. */
static llmm_cli_guard_slot *find(const llmm_cli_guard *g, const llmm_cli_addr *a)
{
    size_t i = hash(a) & (g->cap - 1);
    while (g->slot[i].count && memcmp(&g->slot[i].addr, a, sizeof *a) != 0)
        i = (i + 1) & (g->cap - 1);
    return &g->slot[i];
}

/* Room for one more address (the table at most half full); 0, or -1 out of memory. */
static int room(llmm_cli_guard *g)
{
    llmm_cli_guard_slot *old = g->slot;
    size_t n = g->cap;
    if (g->slot && 2 * (g->used + 1) <= g->cap)
        return 0;
    g->slot = calloc(n ? 2 * n : 64, sizeof *g->slot);
    if (!g->slot) {
        g->slot = old;
        return -1;
    }
    g->cap = n ? 2 * n : 64;
    for (size_t i = 0; i < n; i++)
        if (old[i].count)
            *find(g, &old[i].addr) = old[i];
    free(old);
    return 0;
}

/* Empty slot s, moving back the entries after it that probed past it. */
static void remove_slot(llmm_cli_guard *g, llmm_cli_guard_slot *s)
{
    size_t hole = (size_t)(s - g->slot), i = hole, mask = g->cap - 1;
    g->slot[hole].count = 0;
    for (;;) {
        size_t home;
        i = (i + 1) & mask;
        if (!g->slot[i].count)
            return;
        home = hash(&g->slot[i].addr) & mask;
        if (((i - home) & mask) >= ((i - hole) & mask)) { /* its home is at or before the hole */
            g->slot[hole] = g->slot[i];
            g->slot[i].count = 0;
            hole = i;
        }
    }
}

/* ---- the list of connections waiting --------------------------------------------------------- */

static void unlink_entry(llmm_cli_guard *g, llmm_cli_guard_entry *e)
{
    if (!e->due_ns)
        return;
    if (e->prev)
        e->prev->next = e->next;
    else
        g->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        g->tail = e->prev;
    e->prev = e->next = NULL;
    e->due_ns = 0;
}

void llmm_cli_guard_wait(llmm_cli_guard *g, llmm_cli_guard_entry *e, uint64_t now_ns)
{
    if (e->due_ns)
        return;
    e->due_ns = now_ns + g->request_ns;
    e->prev = g->tail;
    e->next = NULL;
    if (g->tail)
        g->tail->next = e;
    else
        g->head = e;
    g->tail = e;
}

void llmm_cli_guard_served(llmm_cli_guard *g, llmm_cli_guard_entry *e)
{
    unlink_entry(g, e);
}

llmm_cli_guard_entry *llmm_cli_guard_expired(llmm_cli_guard *g, uint64_t now_ns)
{
    if (!g->head || g->head->due_ns > now_ns)
        return NULL;
    g->expired++;
    return g->head;
}

uint64_t llmm_cli_guard_next(const llmm_cli_guard *g)
{
    return g->head ? g->head->due_ns : 0;
}

/* ---- entering and leaving ---------------------------------------------------------------------- */

int llmm_cli_guard_enter(llmm_cli_guard *g, llmm_cli_guard_entry *e,
                         const struct sockaddr_storage *sa, uint64_t now_ns)
{
    llmm_cli_guard_slot *s = NULL;
    int why = 0;
    key_of(sa, &e->addr);
    e->due_ns = 0;
    if (g->open >= g->total)
        why = LLMM_CLI_GUARD_TOTAL;
    else if (room(g) != 0)
        why = LLMM_CLI_GUARD_NOMEM;
    else if ((s = find(g, &e->addr))->count >= g->per_address)
        why = LLMM_CLI_GUARD_PER_ADDRESS;
    if (why) {
        g->refused++;
        return why;
    }
    if (!s->count++) {
        s->addr = e->addr;
        g->used++;
    }
    g->open++;
    llmm_cli_guard_wait(g, e, now_ns);
    return 0;
}

void llmm_cli_guard_leave(llmm_cli_guard *g, llmm_cli_guard_entry *e)
{
    llmm_cli_guard_slot *s = find(g, &e->addr);
    unlink_entry(g, e);
    g->open--;
    if (--s->count == 0) {
        remove_slot(g, s);
        g->used--;
    }
}
