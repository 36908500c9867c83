/* Slot arithmetic shared by the time rings: geometry defaults and checks, the span rule. */
#include "ring.h"

llmm_status llmm__clock_geometry(uint64_t *slot_ns, uint32_t *slots)
{
    if (*slot_ns == 0)
        *slot_ns = LLMM_WINDOW_SLOT_NS_DEFAULT;
    if (*slots == 0)
        *slots = LLMM_WINDOW_SLOTS_DEFAULT;
    if (*slots > LLMM_WINDOW_SLOTS_MAX)
        return LLMM_E_INVALID;
    if (*slot_ns > UINT64_MAX / *slots)
        return LLMM_E_INVALID;
    return LLMM_OK;
}

void llmm__clock_init(llmm__clock *c, uint64_t slot_ns, uint32_t slots)
{
    c->slot_ns = slot_ns;
    c->slots = slots;
    c->cur_entry = 0;
    c->last_ns = 0;
    c->cur_slot = 0;
    c->cur_start = 0;
}

llmm_status llmm__clock_span(const llmm__clock *c, uint64_t span_ns, uint32_t *n)
{
    uint64_t k;
    if (span_ns == 0)
        return LLMM_E_INVALID;
    k = span_ns / c->slot_ns + (span_ns % c->slot_ns != 0);
    if (k > c->slots)
        return LLMM_E_RANGE;
    *n = (uint32_t)k;
    return LLMM_OK;
}
