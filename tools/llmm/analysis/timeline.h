/* timeline.h: the watched metric of every request with a send time, in the order it became
 * known, for the time-ordered sections (spikes, collapses) and the P99-over-time chart. */
#ifndef LLMM_CLI_TIMELINE_H
#define LLMM_CLI_TIMELINE_H

#include "analysis/trace.h"

typedef struct llmm_cli_obs {
    double t, v; /* when the value became known (seconds on the time line), the value */
} llmm_cli_obs;

/* The watched metric (LLMM_CLI_M_TTFT, _TPOT or _E2E) of every request with a send time,
 * sorted by time; *out is malloc'ed (NULL when *n is 0). When *n is 0 and why_not is not NULL,
 * *why_not says why. */
int llmm_cli_timeline(const llmm_cli_trace *t, int metric, llmm_cli_obs **out, size_t *n,
                      const char **why_not, llmm_cli_error *err);
/* Seconds on the time line to the detectors' nanoseconds (negative → 0). */
uint64_t llmm_cli_ns(double seconds);

#endif /* LLMM_CLI_TIMELINE_H */
