/* slo.h: the SLO verdict section (slo.c). */
#ifndef LLMM_CLI_SLO_H
#define LLMM_CLI_SLO_H

#include <stddef.h>
#include <stdint.h>

typedef struct llmm_cli_slo_check {
    int metric;       /* LLMM_CLI_M_TTFT, _TPOT or _E2E */
    double bound;     /* seconds */
    double latency;   /* the quantile checked; +Inf with no success, NaN not judged */
    int32_t latency_ok;
    int32_t judged; /* 0: the inputs hold no such quantile (statistics only): not judged */
    /* the tool's figure the latency is (a run with statistics only that states this very
     * quantile), "" when it is ours */
    char figure[64];
    const char *rule; /* that tool's percentile rule, NULL for ours */
} llmm_cli_slo_check;

typedef struct llmm_cli_slo {
    int enabled;
    double quantile, err_max, error_rate;
    int32_t errors_ok, satisfied;
    int32_t errors_judged; /* 0: a run states no counts, the error rate is unknown */
    const char *errors_why; /* why not judged: "failures not stated", "request counts not
                               stated"; NULL when judged */
    int32_t by_tool, by_us; /* latency checks judged on a tool's stated quantile, on ours */
    int32_t unjudged;      /* checks not judged; the verdict is "met" only when 0 */
    llmm_cli_slo_check checks[3];
    size_t nchecks;
} llmm_cli_slo;

#endif /* LLMM_CLI_SLO_H */
