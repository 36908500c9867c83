/* The running merge of a window's closed slots: the spike detector's baselines and the
 * whole-ring window queries read it instead of merging every slot each time.
 *
 * acc holds the exact merge of the slots acc_slot − slots + 1 … acc_slot − 1 (those that are
 * closed while acc_slot is the current slot). Moving it forward merges the slots that closed
 * and subtracts the slots that left. Subtraction is exact for counts but would make min / max
 * approximate (llmm_sketch_subtract), so a leaving slot that holds acc's minimum or maximum
 * triggers a rebuild from the ring instead; the result is then always identical, bucket for
 * bucket and in min / max, to a fresh merge of the span (only the double sum may differ in
 * its last bits). For a stationary stream a leaving slot holds an extreme about 2 times in
 * `slots`, so the amortised cost per closed slot stays a few one-slot merges.
 *
 * Precisely, acc is the merge of those slots of the span that the ring still holds: when an
 * add recycles the entry of a covered slot, llmm__window_forget subtracts that slot first.
 * acc is a cache: it is invalidated when a slot it covers is written (possible when a call
 * moved acc forward but then failed, so the clock stayed behind), when a recycled slot holds
 * an extreme, and when an update fails half way; the next use rebuilds it in O(slots)
 * merges. */
#include "window_internal.h"

/* First slot of the closed span of slot k: k − slots + 1, or 0. */
static uint64_t span_first(const llmm_window *w, uint64_t k)
{
    uint64_t back = w->clk.slots - 1u;
    return k > back ? k - back : 0;
}

/* Merge the slots first … last (first ≤ last) of the ring into acc. */
static llmm_status acc_merge(llmm_window *w, uint64_t first, uint64_t last)
{
    uint64_t j;
    llmm_status st;
    for (j = first;; j++) {
        const llmm_sketch *s = llmm__window_slot(w, j);
        if (s && llmm_sketch_count(s) > 0) {
            st = llmm_sketch_merge(w->acc, s);
            if (st != LLMM_OK)
                return st;
        }
        if (j == last)
            return LLMM_OK;
    }
}

/* Whether slot sketch s holds a minimum or maximum of acc (which contains s). */
static int holds_extreme(const llmm_sketch *acc, const llmm_sketch *s)
{
    double amin, amax, smin, smax;
    if (llmm_sketch_min(acc, &amin) != LLMM_OK || llmm_sketch_max(acc, &amax) != LLMM_OK ||
        llmm_sketch_min(s, &smin) != LLMM_OK || llmm_sketch_max(s, &smax) != LLMM_OK)
        return 1;
    return smin <= amin || smax >= amax;
}

/* Move acc from acc_slot to k (acc_slot < k < acc_slot + slots). LLMM_E_STATE: a leaving slot
 * holds an extreme, rebuild instead. */
static llmm_status acc_advance(llmm_window *w, uint64_t k)
{
    uint64_t old_first = span_first(w, w->acc_slot), new_first = span_first(w, k), j;
    llmm_status st = acc_merge(w, w->acc_slot, k - 1);
    for (j = old_first; st == LLMM_OK && j < new_first; j++) {
        const llmm_sketch *s = llmm__window_slot(w, j);
        if (!s || llmm_sketch_count(s) == 0)
            continue;
        if (holds_extreme(w->acc, s))
            return LLMM_E_STATE;
        st = llmm_sketch_subtract(w->acc, s);
    }
    return st;
}

void llmm__window_forget(llmm_window *w, uint32_t entry)
{
    uint64_t o = w->ids[entry];
    const llmm_sketch *s = w->ring[entry];
    if (!w->acc_valid || o >= w->acc_slot || w->acc_slot - o >= w->clk.slots ||
        llmm_sketch_count(s) == 0)
        return; /* not covered by acc */
    if (holds_extreme(w->acc, s) || llmm_sketch_subtract(w->acc, s) != LLMM_OK)
        w->acc_valid = 0;
}

llmm_status llmm__window_closed(llmm_window *w, uint64_t k, const llmm_sketch **out)
{
    llmm_status st;
    if (w->acc_valid && k == w->acc_slot) {
        *out = w->acc;
        return LLMM_OK;
    }
    if (w->acc_valid && k > w->acc_slot && k - w->acc_slot < w->clk.slots) {
        st = acc_advance(w, k);
        if (st == LLMM_OK) {
            w->acc_slot = k;
            *out = w->acc;
            return LLMM_OK;
        }
        if (st != LLMM_E_STATE) { /* out of memory half way: rebuild next time */
            w->acc_valid = 0;
            return st;
        }
    }
    w->acc_valid = 0;
    llmm_sketch_reset(w->acc);
    if (k > 0 && w->clk.slots > 1) {
        st = acc_merge(w, span_first(w, k), k - 1);
        if (st != LLMM_OK)
            return st;
    }
    w->acc_slot = k;
    w->acc_valid = 1;
    *out = w->acc;
    return LLMM_OK;
}
