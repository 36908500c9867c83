/* The sketch window's layout, shared with the detectors built on it (lib/detect). */
#ifndef LLMM_WINDOW_INTERNAL_H
#define LLMM_WINDOW_INTERNAL_H

#include "ring.h"

struct llmm_window {
    llmm_ctx *ctx;
    llmm__clock clk;
    int32_t scale;
    llmm_sketch **ring; /* clk.slots sketches, entry k mod slots holds slot ids[entry] */
    uint64_t *ids;
    llmm_sketch *spare;   /* always empty: receives the first values of a recycled entry */
    llmm_sketch *scratch; /* merge target of the queries */
    llmm_sketch *acc;     /* merge of the closed slots of acc_slot (accum.c); a cache */
    uint64_t acc_slot;
    int acc_valid;
};

/* Record v[0..n) in slot `slot` (ring entry `entry`, both from llmm__clock_locate of now ≥
 * clk.last_ns) and commit now as the latest time stamp. All or nothing: on any error the
 * window, its clock included, is unchanged. Values are validated by the sketch. */
llmm_status llmm__window_put(llmm_window *w, uint64_t now, uint64_t slot, uint32_t entry,
                             const double *v, size_t n);

/* The exact merge of the closed slots k − slots + 1 … k − 1 as seen at slot k (k ≥ the current
 * slot), maintained incrementally (accum.c). The sketch stays owned by the window and valid
 * until the next call on it. */
llmm_status llmm__window_closed(llmm_window *w, uint64_t k, const llmm_sketch **out);

/* Entry `entry` is about to be recycled: take its slot out of acc if acc covers it. */
void llmm__window_forget(llmm_window *w, uint32_t entry);

/* The sketch holding slot k, or NULL when the ring does not hold it (expired or never written).
 * Only meaningful for k ≤ the current slot. */
static inline const llmm_sketch *llmm__window_slot(const llmm_window *w, uint64_t k)
{
    uint32_t e = (uint32_t)(k % w->clk.slots);
    return w->ids[e] == k ? w->ring[e] : NULL;
}

#endif
