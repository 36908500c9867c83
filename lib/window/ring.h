/* Slot arithmetic shared by every time ring (sketch window, ratio window, spike detector).
 *
 * Slot k covers [k·slot_ns, (k+1)·slot_ns) of the caller's clock and lives in ring entry
 * k mod slots. Each ring keeps, per entry, the number of the slot it holds, so an entry whose
 * slot has expired is recognised by comparison and recycled when written: no call ever walks
 * the missed slots of a time gap. */
#ifndef LLMM_WINDOW_RING_H
#define LLMM_WINDOW_RING_H

#include <stdint.h>

#include "llmmetrics/window.h"

typedef struct llmm__clock {
    uint64_t slot_ns;   /* slot length, ≥ 1 */
    uint32_t slots;     /* ring length, ≥ 1 */
    uint32_t cur_entry; /* cur_slot mod slots */
    uint64_t last_ns;   /* latest accepted time stamp; nothing earlier is accepted */
    uint64_t cur_slot;  /* slot of last_ns */
    uint64_t cur_start; /* cur_slot · slot_ns */
} llmm__clock;

/* Resolve the defaults (0 → 1 s, 0 → 60) and check the geometry: LLMM_E_INVALID when slots
 * exceeds LLMM_WINDOW_SLOTS_MAX or slot_ns · slots overflows. */
llmm_status llmm__clock_geometry(uint64_t *slot_ns, uint32_t *slots);

/* A clock at time 0 that accepts any time stamp. */
void llmm__clock_init(llmm__clock *c, uint64_t slot_ns, uint32_t slots);

/* Number of slots covered by span_ns (rounded up): LLMM_E_INVALID for 0, LLMM_E_RANGE beyond
 * the ring. */
llmm_status llmm__clock_span(const llmm__clock *c, uint64_t span_ns, uint32_t *n);

/* Slot and ring entry of now (which must be ≥ last_ns). Divides only when the slot changes. */
static inline void llmm__clock_locate(const llmm__clock *c, uint64_t now, uint64_t *slot,
                                      uint32_t *entry)
{
    if (now - c->cur_start < c->slot_ns) {
        *slot = c->cur_slot;
        *entry = c->cur_entry;
    } else {
        *slot = now / c->slot_ns;
        *entry = (uint32_t)(*slot % c->slots);
    }
}

/* Accept now (located as slot / entry) as the latest time stamp. */
static inline void llmm__clock_commit(llmm__clock *c, uint64_t now, uint64_t slot, uint32_t entry)
{
    c->last_ns = now;
    c->cur_slot = slot;
    c->cur_entry = entry;
    c->cur_start = slot * c->slot_ns;
}

/* Whether an entry holding slot `held` belongs to the n slots ending at slot `cur`. Entries
 * only ever hold slots ≤ the current one, so the subtraction cannot wrap. */
static inline int llmm__slot_in_span(uint64_t held, uint64_t cur, uint32_t n)
{
    return cur - held < n;
}

#endif
