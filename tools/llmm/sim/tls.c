/* tls.c: HTTPS through OpenSSL (tls.h). */
#include <stdio.h>

#include "sim/tls.h"

#ifdef LLMM_SIM_TLS
#include <openssl/err.h>
#include <openssl/ssl.h>

int llmm_sim_tls_available(void)
{
    return 1;
}

void *llmm_sim_tls_context(const char *cert, const char *key, char *err, size_t cap)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) {
        snprintf(err, cap, "cannot create a TLS context");
        return NULL;
    }
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1) {
        char e[256];
        ERR_error_string_n(ERR_get_error(), e, sizeof e);
        snprintf(err, cap, "cannot use %s and %s: %s", cert, key, e);
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

void llmm_sim_tls_context_free(void *ctx)
{
    SSL_CTX_free(ctx);
}

void *llmm_sim_tls_session(void *ctx, int fd)
{
    SSL *s = SSL_new(ctx);
    if (s && SSL_set_fd(s, fd) != 1) {
        SSL_free(s);
        return NULL;
    }
    if (s)
        SSL_set_accept_state(s);
    return s;
}

void llmm_sim_tls_session_free(void *s)
{
    SSL_free(s);
}

/* The convention of tls.h for an SSL_read/SSL_write result. */
static long result(SSL *s, int r)
{
    int e;
    if (r > 0)
        return r;
    e = SSL_get_error(s, r);
    ERR_clear_error();
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
        return -1;
    return e == SSL_ERROR_ZERO_RETURN ? 0 : -2;
}

long llmm_sim_tls_recv(void *s, void *buf, size_t n)
{
    return result(s, SSL_read(s, buf, n > 1u << 30 ? 1 << 30 : (int)n));
}

long llmm_sim_tls_send(void *s, const void *buf, size_t n)
{
    return result(s, SSL_write(s, buf, n > 1u << 30 ? 1 << 30 : (int)n));
}

#else /* no OpenSSL */

int llmm_sim_tls_available(void)
{
    return 0;
}

void *llmm_sim_tls_context(const char *cert, const char *key, char *err, size_t cap)
{
    (void)cert, (void)key;
    snprintf(err, cap, "this llmm was built without TLS (OpenSSL's libssl-dev missing)");
    return NULL;
}

void llmm_sim_tls_context_free(void *ctx)
{
    (void)ctx;
}

void *llmm_sim_tls_session(void *ctx, int fd)
{
    (void)ctx, (void)fd;
    return NULL;
}

void llmm_sim_tls_session_free(void *s)
{
    (void)s;
}

long llmm_sim_tls_recv(void *s, void *buf, size_t n)
{
    (void)s, (void)buf, (void)n;
    return -2;
}

long llmm_sim_tls_send(void *s, const void *buf, size_t n)
{
    (void)s, (void)buf, (void)n;
    return -2;
}
#endif
