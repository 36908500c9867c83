/* The collapse detector's layout, shared by collapse.c (the latency rule), collapse_confirm.c
 * (the confirmation signals of the latest switch) and collapse_options.c. */
#ifndef LLMM_DETECT_COLLAPSE_INTERNAL_H
#define LLMM_DETECT_COLLAPSE_INTERNAL_H

#include "detect_internal.h"

/* What the detector knows about the latest switch. */
typedef struct llmm__switch {
    uint64_t at_ns;
    uint64_t latencies; /* latencies matched to it */
    uint64_t flagged;   /* of those, collapsed */
    double tps_before;  /* last TPS reading given before the mark */
    double tps_after;   /* lowest TPS reading matched to it */
    double membw;       /* lowest memory-bandwidth reading matched to it */
    int32_t marked;     /* a switch exists */
    int32_t has_before;
    int32_t has_after;
    int32_t has_membw;
} llmm__switch;

struct llmm_collapse {
    llmm_ctx *ctx;
    double *ring;     /* the last `count` latencies; when full, ring[head] is the oldest */
    uint32_t window;  /* W */
    uint32_t head;    /* next entry to write */
    uint32_t count;   /* latencies held, <= W */
    double ref;       /* subtracted from every latency before it enters the sums */
    double sum;       /* sum of (x - ref) over the ring */
    double sum2;      /* sum of (x - ref)^2 over the ring */
    uint64_t last_ns; /* latest time stamp accepted by any call */
    /* options */
    double k;
    double floor;
    double tps_drop;
    double membw_below;
    uint64_t switch_ns;
    uint64_t confirm_ns;
    int32_t require_switch;
    /* latest switch and TPS reading */
    llmm__switch sw;
    double tps_last;
    int32_t has_tps;
    /* totals */
    uint64_t samples;
    uint64_t collapsed;
    uint64_t switches;
};

/* Forget the data and the clock of c (keeps the options and the ring's memory). */
void llmm__collapse_clear(llmm_collapse *c);

#endif
