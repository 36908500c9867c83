/* guard.h: the connection limits of the tool's HTTP servers (`llmm sim`, `llmm bench
 * --metrics-port`), in one place (guard.c), so that no client can starve the others:
 *
 *   - at most `per_address` connections at once from one client address, `total` in all: a
 *     connection past either is refused (the caller closes it as soon as it is accepted);
 *   - a deadline for a complete request: a connection waiting for a request (from its
 *     accept, TLS handshake included, or from the end of its previous response when kept
 *     alive) must have one complete, head and body, within `request_ns`, however it trickles
 *     its bytes; while a request is being answered there is none (a stream may last minutes).
 *
 * Deadlines all have the same length, so the connections waiting are a list in deadline order
 * (appended at the tail): the next to expire is always the head. The counts per address are an
 * open-addressing table that grows with the number of distinct addresses connected. */
#ifndef LLMM_CLI_GUARD_H
#define LLMM_CLI_GUARD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* A client address as the table keys it: the family, then the IPv4 or IPv6 bytes. */
typedef struct llmm_cli_addr {
    uint8_t family, bytes[16];
} llmm_cli_addr;

/* What a connection carries for the guard (embedded in the caller's connection record). */
typedef struct llmm_cli_guard_entry {
    void *owner;                         /* the caller's connection */
    llmm_cli_addr addr;
    uint64_t due_ns;                     /* its request's deadline; 0: none (being answered) */
    struct llmm_cli_guard_entry *prev, *next; /* the list of connections waiting */
} llmm_cli_guard_entry;

typedef struct llmm_cli_guard_slot {
    llmm_cli_addr addr;
    uint32_t count;                      /* 0: the slot is free */
} llmm_cli_guard_slot;

typedef struct llmm_cli_guard {
    uint32_t per_address, total, open;
    uint64_t request_ns;
    llmm_cli_guard_slot *slot;           /* cap slots, a power of two */
    size_t cap, used;                    /* used: addresses with a connection */
    llmm_cli_guard_entry *head, *tail;   /* waiting, earliest deadline first */
    uint64_t refused, expired;           /* counters, for the messages of the caller */
} llmm_cli_guard;

/* The results of llmm_cli_guard_enter besides 0. */
enum { LLMM_CLI_GUARD_PER_ADDRESS = 1, LLMM_CLI_GUARD_TOTAL = 2, LLMM_CLI_GUARD_NOMEM = 3 };

/* Limits: per_address and total >= 1, request_s > 0 seconds. The table is allocated on
 * first use; llmm_cli_guard_free releases it. */
void llmm_cli_guard_init(llmm_cli_guard *g, uint32_t per_address, uint32_t total,
                         double request_s);
void llmm_cli_guard_free(llmm_cli_guard *g);

/* Accept the next connection on the non-blocking listening socket lfd (non-blocking and
 * close-on-exec itself), its peer's address in *sa: the descriptor, -1 when none is waiting,
 * or -2 when the process is out of descriptors (the caller stops watching lfd until one of
 * its connections closes, or it would be woken again at once). */
int llmm_cli_guard_accept(int lfd, struct sockaddr_storage *sa);

/* Close a refused connection as cleanly as can be: what it has sent so far is read and dropped
 * (closing on unread bytes would reset it), and a plain-HTTP one (`http`) is answered 503
 * with "Connection: close" first; its socket is then closed. */
void llmm_cli_guard_refuse(int fd, int http);

/* A connection from sa, accepted at now_ns: counted and waiting for its request (0), or
 * refused with the limit it would exceed (nothing recorded). e->owner is the caller's. */
int llmm_cli_guard_enter(llmm_cli_guard *g, llmm_cli_guard_entry *e,
                         const struct sockaddr_storage *sa, uint64_t now_ns);
/* The connection closes: no longer counted. */
void llmm_cli_guard_leave(llmm_cli_guard *g, llmm_cli_guard_entry *e);
/* Its request is complete: no deadline while it is answered. */
void llmm_cli_guard_served(llmm_cli_guard *g, llmm_cli_guard_entry *e);
/* It waits for its next request, due request_ns after now_ns (no change if it waits already). */
void llmm_cli_guard_wait(llmm_cli_guard *g, llmm_cli_guard_entry *e, uint64_t now_ns);
/* The connection whose deadline has passed by now_ns, earliest first; NULL when none. The
 * caller closes it (and calls llmm_cli_guard_leave). */
llmm_cli_guard_entry *llmm_cli_guard_expired(llmm_cli_guard *g, uint64_t now_ns);
/* The earliest deadline of the connections waiting; 0 when none waits. */
uint64_t llmm_cli_guard_next(const llmm_cli_guard *g);

#endif /* LLMM_CLI_GUARD_H */
