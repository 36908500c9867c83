/* KV-cache formulas: free-pool fragmentation, eviction threshold, TTL, occupancy. */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "llmmetrics/resource.h"

/* A 128-bit unsigned accumulator as two halves: sums of any number of uint64 extents fit
 * (n < 2^64 terms of < 2^64 each). */
typedef struct u128 {
    uint64_t hi;
    uint64_t lo;
} u128;

static void u128_add(u128 *a, uint64_t v)
{
    a->lo += v;
    if (a->lo < v)
        a->hi++;
}

static double u128_to_double(u128 a)
{
    return (double)a.hi * 18446744073709551616.0 + (double)a.lo;
}

llmm_status llmm_kv_fragmentation(const uint64_t *free_extents, size_t n, double *f)
{
    u128 total = {0, 0}, rest;
    uint64_t largest = 0;
    size_t i;
    if (!f || (n > 0 && !free_extents))
        return LLMM_E_INVALID;
    for (i = 0; i < n; i++) {
        u128_add(&total, free_extents[i]);
        if (free_extents[i] > largest)
            largest = free_extents[i];
    }
    if (total.hi == 0 && total.lo == 0) {
        *f = 0.0;
        return LLMM_OK;
    }
    /* 1 - largest/total computed as (total - largest)/total: exact 0 for a single extent and
     * full relative precision when the pool is barely fragmented. */
    rest = total;
    if (rest.lo < largest)
        rest.hi--;
    rest.lo -= largest;
    *f = u128_to_double(rest) / u128_to_double(total);
    return LLMM_OK;
}

static int unit_interval(double v)
{
    return v >= 0.0 && v <= 1.0; /* false for NaN */
}

llmm_status llmm_kv_evict_threshold(double fragmentation, double *threshold)
{
    double t;
    if (!threshold || !unit_interval(fragmentation))
        return LLMM_E_INVALID;
    t = 0.85 - 0.2 * fragmentation;
    *threshold = t > 0.65 ? t : 0.65;
    return LLMM_OK;
}

llmm_status llmm_kv_ttl(double avg_hit_rate, int64_t *ttl)
{
    double v;
    if (!ttl || !unit_interval(avg_hit_rate))
        return LLMM_E_INVALID;
    /* One operation per statement: the Python reference rounds after each step, and a
     * contracted multiply-add would round once and change the integer next to the steps. */
    v = avg_hit_rate - 0.75;
    v = 0.5 * v;
    v = 1.0 + v;
    v = 128.0 * v;
    *ttl = (int64_t)v; /* C's conversion truncates toward zero, as Python's int() */
    return LLMM_OK;
}

llmm_status llmm_kv_occupancy(uint64_t block_size, uint64_t blocks_total, uint64_t blocks_used,
                              uint64_t tokens_stored, llmm_kv_occupancy_result *r)
{
    llmm_kv_occupancy_result o;
    uint64_t slots_used;
    double capacity;
    if (!r || block_size == 0 || blocks_total == 0 || blocks_used > blocks_total)
        return LLMM_E_INVALID;
    if (blocks_total > UINT64_MAX / block_size)
        return LLMM_E_INVALID;
    slots_used = blocks_used * block_size; /* <= blocks_total * block_size: no overflow */
    if (tokens_stored > slots_used)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_kv_occupancy_result, r) != LLMM_OK)
        return LLMM_E_ABI;
    capacity = (double)blocks_total * (double)block_size;
    LLMM__SIZED_DEFAULTS(llmm_kv_occupancy_result, &o);
    o.wasted_slots = slots_used - tokens_stored;
    o.block_occupancy = (double)blocks_used / (double)blocks_total;
    o.token_occupancy = (double)tokens_stored / capacity;
    o.gap = (double)o.wasted_slots / capacity;
    o.internal_fragmentation = slots_used ? (double)o.wasted_slots / (double)slots_used : 0.0;
    LLMM__SIZED_PUT(llmm_kv_occupancy_result, r, &o);
    return LLMM_OK;
}
