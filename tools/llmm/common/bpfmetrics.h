/* bpfmetrics.h: `llmm host --bpf --metrics-port P`: the kernel events' counts and the
 * run-queue waits' sketch since the start, on a Prometheus /metrics endpoint (doc/bpf.md),
 * for servers that never link the library. Served by tools/http (libmicrohttpd, the
 * project's admission policy) from its own thread; the exposition shows the state as of the
 * last sample line written. */
#ifndef LLMM_CLI_BPFMETRICS_H
#define LLMM_CLI_BPFMETRICS_H

#include "common/bpfsig.h"
#include "common/error.h"

typedef struct llmm_cli_bpfmetrics llmm_cli_bpfmetrics;

/* Serve sig's totals on addr:port (addr a numeric IPv4 or IPv6 address). LLMM_CLI_OK, or
 * LLMM_CLI_EUSAGE (a bad address) / LLMM_CLI_EIO with a message. */
int llmm_cli_bpfmetrics_start(const char *addr, int port, const llmm_cli_bpfsig *sig,
                              llmm_cli_bpfmetrics **out, llmm_cli_error *err);
/* Around every change of sig (a line written): the endpoint does not read it meanwhile.
 * NULL m: nothing. */
void llmm_cli_bpfmetrics_lock(llmm_cli_bpfmetrics *m);
void llmm_cli_bpfmetrics_unlock(llmm_cli_bpfmetrics *m);
/* Stop serving; NULL is a no-op. */
void llmm_cli_bpfmetrics_stop(llmm_cli_bpfmetrics *m);

#endif /* LLMM_CLI_BPFMETRICS_H */
