/* admit.h: the admission policy of every HTTP endpoint the project serves (the examples'
 * libmicrohttpd server through guard.h, `llmm sim`, `llmm bench --metrics-port`), written
 * once (admit.c) so that the servers cannot drift apart. doc/exporting.md, "Slow and idle
 * clients", documents it for users:
 *
 *   - a connection whose request is complete is always served: while it is answered (a
 *     stream may last minutes) it holds no place under the per-address limit and never
 *     gives way;
 *   - at most `per_address` connections from one client address may wait for a request at
 *     once (from their accept, TLS handshake included, or from the end of their previous
 *     response when kept alive), `total` connections in all may be open;
 *   - when a new connection would pass either limit, the connection waiting longest (from
 *     the same address for the per-address limit, from any for the total) gives way to it:
 *     its socket is shut down and its server closes it as it sees the end. A waiting
 *     connection whose socket already holds a complete request head (accepted, not yet read)
 *     is passed over: the scraper that connects among a thousand slow clients of its own
 *     address is not the one to go. Only when no connection can give way is the new one
 *     refused (a 503 for plain HTTP);
 *   - a waiting connection must have its whole request, head and body, within `request_ns`
 *     however it trickles its bytes; llmm_admit_expired names the ones that have not.
 *
 * Deadlines all have the same length, so the connections waiting are a list in deadline order
 * (appended at the tail): the oldest, and the next to expire, is the head. The counts per
 * address are an open-addressing table that grows with the number of distinct addresses
 * waiting. Not thread-safe: a server with threads (guard.c) calls it under its own lock. */
#ifndef LLMM_HTTP_ADMIT_H
#define LLMM_HTTP_ADMIT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* A client address as the table keys it: the family, then the IPv4 or IPv6 bytes. */
typedef struct llmm_admit_addr {
    uint8_t family, bytes[16];
} llmm_admit_addr;

/* Where a connection stands. */
enum {
    LLMM_ADMIT_OUT = 0,   /* not entered, or left */
    LLMM_ADMIT_WAITING,   /* waiting for its request: counted per address, has a deadline */
    LLMM_ADMIT_ANSWERING, /* its request is complete and being answered */
    LLMM_ADMIT_GONE       /* gave way: shut down, no longer counted, its server closes it */
};

/* What a connection carries for the policy (embedded in the caller's connection record). */
typedef struct llmm_admit_entry {
    void *owner;                          /* the caller's connection */
    int fd;                               /* its socket; -1: none to peek or shut down */
    int state;                            /* LLMM_ADMIT_OUT ... LLMM_ADMIT_GONE */
    llmm_admit_addr addr;
    uint64_t due_ns;                      /* waiting: its request's deadline */
    struct llmm_admit_entry *prev, *next; /* the list of its state (waiting or gone) */
} llmm_admit_entry;

typedef struct llmm_admit_slot {
    llmm_admit_addr addr;
    uint32_t count; /* connections of addr waiting; 0: the slot is free */
} llmm_admit_slot;

typedef struct llmm_admit {
    uint32_t per_address, total, open; /* open: entered, not gone and not left */
    uint64_t request_ns;
    llmm_admit_slot *slot;             /* cap slots, a power of two */
    size_t cap, used;                  /* used: addresses with a connection waiting */
    llmm_admit_entry *head, *tail;     /* waiting, earliest deadline first */
    llmm_admit_entry *gone;            /* gave way, not yet left */
    uint64_t refused, evicted, expired; /* counters, for the messages of the caller */
} llmm_admit;

/* The results of llmm_admit_enter besides 0. */
enum { LLMM_ADMIT_PER_ADDRESS = 1, LLMM_ADMIT_TOTAL = 2, LLMM_ADMIT_NOMEM = 3 };

/* Limits: per_address and total >= 1, request_s > 0 seconds. The table is allocated on
 * first use; llmm_admit_free releases it. */
void llmm_admit_init(llmm_admit *g, uint32_t per_address, uint32_t total, double request_s);
void llmm_admit_free(llmm_admit *g);

/* Accept the next connection on the non-blocking listening socket lfd (non-blocking and
 * close-on-exec itself), its peer's address in *sa: the descriptor, -1 when none is waiting,
 * or -2 when the process is out of descriptors (the caller stops watching lfd until one of
 * its connections closes, or it would be woken again at once). */
int llmm_admit_accept(int lfd, struct sockaddr_storage *sa);

/* Close a refused connection as cleanly as can be: what it has sent so far is read and dropped
 * (closing on unread bytes would reset it), and a plain-HTTP one (`http`) is answered 503
 * with "Connection: close" first; its socket is then closed. */
void llmm_admit_refuse(int fd, int http);

/* A connection on socket fd (-1: none) from sa, accepted at now_ns: counted and waiting for
 * its request (0), after the longest-waiting connection past a limit has given way if
 * needed; or refused with the limit no connection could make room under (nothing
 * recorded). e->owner is the caller's. */
int llmm_admit_enter(llmm_admit *g, llmm_admit_entry *e, const struct sockaddr_storage *sa,
                     int fd, uint64_t now_ns);
/* The connection closes: no longer counted (whatever its state). */
void llmm_admit_leave(llmm_admit *g, llmm_admit_entry *e);
/* Its request is complete: no deadline and no place under the per-address limit while it
 * is answered (no change unless it waits). */
void llmm_admit_served(llmm_admit *g, llmm_admit_entry *e);
/* Its response is done and it waits for its next request, due request_ns after now_ns; the
 * longest-waiting other connection of its address gives way if that passes the limit (no
 * change unless it is being answered). */
void llmm_admit_wait(llmm_admit *g, llmm_admit_entry *e, uint64_t now_ns);
/* A waiting connection gives way: its socket is shut down (both ways, so that its server
 * sees the end), it is no longer counted and stays on the list of the gone until it leaves. */
void llmm_admit_evict(llmm_admit *g, llmm_admit_entry *e);
/* The waiting connection whose deadline has passed by now_ns, earliest first; NULL when
 * none. The caller closes it (llmm_admit_leave) or lets it give way (llmm_admit_evict). */
llmm_admit_entry *llmm_admit_expired(llmm_admit *g, uint64_t now_ns);
/* The earliest deadline of the connections waiting; 0 when none waits. */
uint64_t llmm_admit_next(const llmm_admit *g);
/* A connection that waits or has given way and not yet left (to close them all); NULL when
 * none. */
llmm_admit_entry *llmm_admit_any(const llmm_admit *g);

#endif /* LLMM_HTTP_ADMIT_H */
