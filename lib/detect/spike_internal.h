/* The spike detector's layout, shared by its two source files (spike.c: detection,
 * spike_options.c: options and window geometry). */
#ifndef LLMM_DETECT_SPIKE_INTERNAL_H
#define LLMM_DETECT_SPIKE_INTERNAL_H

#include "llmmetrics/detect.h"
#include "window/window_internal.h"

/* Counts of one slot of the window; `slot` says which slot they belong to. */
typedef struct llmm__spike_slot {
    uint64_t slot;
    uint64_t samples;
    uint64_t classified;
    uint64_t level1;
    uint64_t level2;
} llmm__spike_slot;

/* A pair of thresholds and the number of latencies they were computed from. */
typedef struct llmm__spike_base {
    double base;
    double severe;
    uint64_t count;
} llmm__spike_base;

struct llmm_spike {
    llmm_ctx *ctx;
    llmm_window *win;         /* the latencies, one sketch per slot */
    llmm__spike_slot *counts; /* per-slot counts, same ring layout as win */
    llmm__spike_base base;    /* thresholds in force during slot base_slot */
    uint64_t base_slot;
    int started; /* a time stamp was accepted: the geometry is fixed */
    double q_base;
    double q_severe;
    double factor;
    uint64_t warmup;
    int32_t scale;
    uint64_t total_samples;
    uint64_t total_classified;
    uint64_t total_level1;
    uint64_t total_level2;
};

/* Make the window and counts for a geometry (defaults resolved by the caller); on failure
 * nothing is left allocated. */
llmm_status llmm__spike_parts_new(llmm_ctx *ctx, uint64_t slot_ns, uint32_t slots, int32_t scale,
                                  llmm_window **win, llmm__spike_slot **counts);

/* Free what llmm__spike_parts_new made (NULLs allowed). */
void llmm__spike_parts_free(llmm_ctx *ctx, uint32_t slots, llmm_window *win,
                            llmm__spike_slot *counts);

/* Forget all data and the clock of d (keeps the options). */
void llmm__spike_clear(llmm_spike *d);

#endif
