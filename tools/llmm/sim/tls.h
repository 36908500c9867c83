/* tls.h: HTTPS for the simulator through OpenSSL (tls.c), when the build found it
 * (LLMM_SIM_TLS); without it every call fails and llmm_sim_tls_available() says so. The
 * transfer calls follow one convention: > 0 bytes moved, 0 the peer closed, -1 would block
 * (try again on the next readiness event), -2 a connection error. */
#ifndef LLMM_CLI_SIM_TLS_H
#define LLMM_CLI_SIM_TLS_H

#include <stddef.h>

int llmm_sim_tls_available(void);
/* A server context from a PEM certificate (chain) and key; NULL with a message in err. */
void *llmm_sim_tls_context(const char *cert, const char *key, char *err, size_t cap);
void llmm_sim_tls_context_free(void *ctx);
/* A server-side session on the accepted, non-blocking socket fd; NULL on failure. */
void *llmm_sim_tls_session(void *ctx, int fd);
void llmm_sim_tls_session_free(void *s);
long llmm_sim_tls_recv(void *s, void *buf, size_t n);
long llmm_sim_tls_send(void *s, const void *buf, size_t n);

#endif /* LLMM_CLI_SIM_TLS_H */
