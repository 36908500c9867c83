/* admit.c: the admission policy of the project's HTTP endpoints (admit.h). */
#define _GNU_SOURCE /* accept4, memmem */
#include "admit.h"

#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void llmm_admit_init(llmm_admit *g, uint32_t per_address, uint32_t total, double request_s)
{
    *g = (llmm_admit){.per_address = per_address, .total = total,
                      .request_ns = (uint64_t)(request_s * 1e9)};
}

void llmm_admit_free(llmm_admit *g)
{
    free(g->slot);
    g->slot = NULL;
    g->cap = g->used = 0;
}

int llmm_admit_accept(int lfd, struct sockaddr_storage *sa)
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

void llmm_admit_refuse(int fd, int http)
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

static void key_of(const struct sockaddr_storage *sa, llmm_admit_addr *a)
{
    /* byte copies from the storage, not reads through a cast pointer (strict aliasing) */
    const unsigned char *p = (const unsigned char *)sa;
    memset(a, 0, sizeof *a);
    a->family = (uint8_t)sa->ss_family;
    if (sa->ss_family == AF_INET)
        memcpy(a->bytes, p + offsetof(struct sockaddr_in, sin_addr), 4);
    else if (sa->ss_family == AF_INET6)
        memcpy(a->bytes, p + offsetof(struct sockaddr_in6, sin6_addr), 16);
}

static size_t hash(const llmm_admit_addr *a)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    const uint8_t *p = (const uint8_t *)a;
    for (size_t i = 0; i < sizeof *a; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return (size_t)(h ^ (h >> 29));
}

/* The slot of a, or the free slot where it would go (the table exists). */
static llmm_admit_slot *find(const llmm_admit *g, const llmm_admit_addr *a)
{
    size_t i = hash(a) & (g->cap - 1);
    while (g->slot[i].count && memcmp(&g->slot[i].addr, a, sizeof *a) != 0)
        i = (i + 1) & (g->cap - 1);
    return &g->slot[i];
}

/* Room for one more address (the table at most half full); 0, or -1 out of memory. */
static int room(llmm_admit *g)
{
    llmm_admit_slot *old = g->slot;
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
static void remove_slot(llmm_admit *g, llmm_admit_slot *s)
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

/* One more connection of a waiting; 0, or -1 out of memory (nothing changed). */
static int count_in(llmm_admit *g, const llmm_admit_addr *a)
{
    llmm_admit_slot *s;
    if (room(g) != 0)
        return -1;
    s = find(g, a);
    if (!s->count++) {
        s->addr = *a;
        g->used++;
    }
    return 0;
}

static void count_out(llmm_admit *g, const llmm_admit_addr *a)
{
    llmm_admit_slot *s = find(g, a);
    if (--s->count == 0) {
        remove_slot(g, s);
        g->used--;
    }
}

static uint32_t waiting_of(const llmm_admit *g, const llmm_admit_addr *a)
{
    return g->slot ? find(g, a)->count : 0;
}

/* ---- the lists -------------------------------------------------------------------------------- */

/* Take e off a list: the waiting (tail: its tail) or the gone (tail NULL). */
static void list_unlink(llmm_admit_entry **head, llmm_admit_entry **tail, llmm_admit_entry *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        *head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else if (tail)
        *tail = e->prev;
    e->prev = e->next = NULL;
}

static void unlink_waiting(llmm_admit *g, llmm_admit_entry *e)
{
    list_unlink(&g->head, &g->tail, e);
}

static void append_waiting(llmm_admit *g, llmm_admit_entry *e, uint64_t now_ns)
{
    e->state = LLMM_ADMIT_WAITING;
    e->due_ns = now_ns + g->request_ns;
    e->prev = g->tail;
    e->next = NULL;
    if (g->tail)
        g->tail->next = e;
    else
        g->head = e;
    g->tail = e;
}

/* Does fd's socket hold a complete request head not yet read by its server? */
static int head_waits(int fd)
{
    char peek[4096];
    ssize_t n;
    if (fd < 0)
        return 0;
    n = recv(fd, peek, sizeof peek, MSG_PEEK | MSG_DONTWAIT);
    return n > 0 && memmem(peek, (size_t)n, "\r\n\r\n", 4) != NULL;
}

/* The connection waiting longest (from a when a is not NULL) that can give way: none whose
 * complete request head waits in its socket, and never `keep`. */
static llmm_admit_entry *oldest(const llmm_admit *g, const llmm_admit_addr *a,
                                const llmm_admit_entry *keep)
{
    for (llmm_admit_entry *e = g->head; e; e = e->next)
        if (e != keep && (!a || memcmp(&e->addr, a, sizeof *a) == 0) && !head_waits(e->fd))
            return e;
    return NULL;
}

/* ---- the policy ------------------------------------------------------------------------------- */

void llmm_admit_evict(llmm_admit *g, llmm_admit_entry *e)
{
    if (e->state != LLMM_ADMIT_WAITING)
        return;
    if (e->fd >= 0)
        shutdown(e->fd, SHUT_RDWR); /* its server sees the end and closes it */
    unlink_waiting(g, e);
    count_out(g, &e->addr);
    g->open--;
    g->evicted++;
    e->state = LLMM_ADMIT_GONE;
    e->next = g->gone;
    if (g->gone)
        g->gone->prev = e;
    g->gone = e;
}

int llmm_admit_enter(llmm_admit *g, llmm_admit_entry *e, const struct sockaddr_storage *sa,
                     int fd, uint64_t now_ns)
{
    llmm_admit_entry *v = NULL;
    int why = 0;
    key_of(sa, &e->addr);
    e->fd = fd;
    e->state = LLMM_ADMIT_OUT;
    if (room(g) != 0)
        why = LLMM_ADMIT_NOMEM;
    else if (waiting_of(g, &e->addr) >= g->per_address)
        why = (v = oldest(g, &e->addr, NULL)) ? 0 : LLMM_ADMIT_PER_ADDRESS;
    else if (g->open >= g->total)
        why = (v = oldest(g, NULL, NULL)) ? 0 : LLMM_ADMIT_TOTAL;
    if (why) {
        g->refused++;
        return why;
    }
    if (v)
        llmm_admit_evict(g, v); /* frees a place under both limits */
    (void)count_in(g, &e->addr); /* room() above made space for one address */
    g->open++;
    append_waiting(g, e, now_ns);
    return 0;
}

void llmm_admit_leave(llmm_admit *g, llmm_admit_entry *e)
{
    if (e->state == LLMM_ADMIT_WAITING) {
        unlink_waiting(g, e);
        count_out(g, &e->addr);
    }
    if (e->state == LLMM_ADMIT_GONE)
        list_unlink(&g->gone, NULL, e);
    else if (e->state != LLMM_ADMIT_OUT)
        g->open--;
    e->state = LLMM_ADMIT_OUT;
}

void llmm_admit_served(llmm_admit *g, llmm_admit_entry *e)
{
    if (e->state != LLMM_ADMIT_WAITING)
        return;
    unlink_waiting(g, e);
    count_out(g, &e->addr);
    e->state = LLMM_ADMIT_ANSWERING;
}

void llmm_admit_wait(llmm_admit *g, llmm_admit_entry *e, uint64_t now_ns)
{
    llmm_admit_entry *v;
    if (e->state != LLMM_ADMIT_ANSWERING)
        return;
    if (count_in(g, &e->addr) != 0) { /* out of memory: it cannot wait counted, so it goes */
        if (e->fd >= 0)
            shutdown(e->fd, SHUT_RDWR); /* its server sees the end and it leaves */
        return;
    }
    append_waiting(g, e, now_ns);
    if (waiting_of(g, &e->addr) > g->per_address && (v = oldest(g, &e->addr, e)))
        llmm_admit_evict(g, v);
}

llmm_admit_entry *llmm_admit_expired(llmm_admit *g, uint64_t now_ns)
{
    if (!g->head || g->head->due_ns > now_ns)
        return NULL;
    g->expired++;
    return g->head;
}

uint64_t llmm_admit_next(const llmm_admit *g)
{
    return g->head ? g->head->due_ns : 0;
}

llmm_admit_entry *llmm_admit_any(const llmm_admit *g)
{
    return g->head ? g->head : g->gone;
}
