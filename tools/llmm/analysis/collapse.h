/* collapse.h: the collapses-around-weight-switches section (collapse.c). */
#ifndef LLMM_CLI_COLLAPSE_H
#define LLMM_CLI_COLLAPSE_H

#include <stddef.h>
#include <stdint.h>

typedef struct llmm_cli_collapse_switch {
    double t;
    uint64_t latencies, flagged;
} llmm_cli_collapse_switch;

typedef struct llmm_cli_collapse_flag {
    double t, v, threshold, mean;
} llmm_cli_collapse_flag;

#define LLMM_CLI_COLLAPSE_LIST 20

typedef struct llmm_cli_collapse {
    int available;
    const char *why_not;
    int metric;
    double window;                /* seconds after a switch (LLMM_COLLAPSE_SWITCH_NS) */
    uint64_t w;
    double k, floor;
    uint64_t samples, collapsed, switches;
    llmm_cli_collapse_switch *sw; /* one per weight switch */
    size_t nsw;
    llmm_cli_collapse_flag flags[LLMM_CLI_COLLAPSE_LIST]; /* the first flagged samples */
    size_t nflags;
} llmm_cli_collapse;

void llmm_cli_collapse_free(llmm_cli_collapse *c);

#endif /* LLMM_CLI_COLLAPSE_H */
