/* spikes.h: the latency-spikes section (spikes.c). */
#ifndef LLMM_CLI_SPIKES_H
#define LLMM_CLI_SPIKES_H

#include <stddef.h>
#include <stdint.h>

typedef struct llmm_cli_spike_row {
    double t0, t1;         /* seconds on the merged time line */
    uint64_t samples, classified, level1, level2;
    double base_threshold; /* P99 in force at the row's last classified sample; NaN if none */
    double max;
} llmm_cli_spike_row;

typedef struct llmm_cli_spike_pt {
    double t, v; /* seconds on the merged time line, the value */
    int level;   /* 1 or 2 */
} llmm_cli_spike_pt;

/* Spikes kept for the chart (the first ones). */
#define LLMM_CLI_SPIKE_PTS_MAX 100000

typedef struct llmm_cli_spikes {
    /* options */
    double interval;        /* seconds per row; 0 = automatic */
    uint64_t warmup;        /* 0 = the library's default */
    /* result */
    int metric;             /* the watched metric */
    int available;
    const char *why_not;
    uint64_t samples, classified, level1, level2;
    double rate;
    double interval_used;
    uint64_t warmup_used, slots, slot_ns;
    double base_q, severe_q, factor;
    llmm_cli_spike_row *rows;
    size_t nrows;
    llmm_cli_spike_pt *pts; /* every spike, in time order (at most LLMM_CLI_SPIKE_PTS_MAX) */
    size_t npts, cappts;
    /* attribution to events */
    int attributed;         /* the inputs had events */
    double lookback;        /* seconds */
    uint64_t with_event, without_event;
    int32_t cause_type[16];
    uint64_t cause_count[16];
    size_t ncause;
} llmm_cli_spikes;

void llmm_cli_spikes_free(llmm_cli_spikes *sp);

#endif /* LLMM_CLI_SPIKES_H */
