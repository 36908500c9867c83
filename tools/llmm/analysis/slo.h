/* slo.h: the SLO verdict section (slo.c). */
#ifndef LLMM_CLI_SLO_H
#define LLMM_CLI_SLO_H

#include <stddef.h>
#include <stdint.h>

typedef struct llmm_cli_slo_check {
    int metric;       /* LLMM_CLI_M_TTFT, _TPOT or _E2E */
    double bound;     /* seconds */
    double latency;   /* the quantile checked; +Inf with no success */
    int32_t latency_ok;
} llmm_cli_slo_check;

typedef struct llmm_cli_slo {
    int enabled;
    double quantile, err_max, error_rate;
    int32_t errors_ok, satisfied;
    llmm_cli_slo_check checks[3];
    size_t nchecks;
} llmm_cli_slo;

#endif /* LLMM_CLI_SLO_H */
