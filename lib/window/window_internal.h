/* The sketch window's layout, shared with the detectors built on it (lib/detect). */
#ifndef LLMM_WINDOW_INTERNAL_H
#define LLMM_WINDOW_INTERNAL_H

#include "ring.h"

struct llmm_window {
    llmm_ctx *ctx;
    llmm__clock clk;
    int32_t scale;
    llmm_sketch **ring;   /* clk.slots sketches, entry k mod slots holds slot ids[entry] */
    uint64_t *ids;
    llmm_sketch *spare;   /* always empty: receives the first values of a recycled entry */
    llmm_sketch *scratch; /* merge target of the queries */
};

/* Record v[0..n) in slot `slot` (ring entry `entry`, both from llmm__clock_locate of now ≥
 * clk.last_ns) and commit now as the latest time stamp. All or nothing: on any error the
 * window, its clock included, is unchanged. Values are validated by the sketch. */
llmm_status llmm__window_put(llmm_window *w, uint64_t now, uint64_t slot, uint32_t entry,
                             const double *v, size_t n);

/* The sketch holding slot k, or NULL when the ring does not hold it (expired or never written).
 * Only meaningful for k ≤ the current slot. */
static inline const llmm_sketch *llmm__window_slot(const llmm_window *w, uint64_t k)
{
    uint32_t e = (uint32_t)(k % w->clk.slots);
    return w->ids[e] == k ? w->ring[e] : NULL;
}

#endif
