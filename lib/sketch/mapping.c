/* Exact bucket mapping: IEEE-754 exponent and significand, one table lookup, one comparison. */
#include <float.h>
#include <math.h>

#include "sketch_internal.h"

int64_t llmm__map_index(int32_t scale, double v)
{
    uint64_t bits = llmm__dbits(v);
    uint64_t e = bits >> 52;
    if (e == 0) {
        /* subnormal: v = mant * 2^-1074; renormalise so the significand's leading 1 is bit 52 */
        uint64_t mant = bits & ((UINT64_C(1) << 52) - 1);
        int p = 63 - __builtin_clzll(mant); /* position of the leading 1, 0..51 */
        uint64_t frac = (mant << (52 - p)) & ((UINT64_C(1) << 52) - 1);
        int64_t exp_unbiased = (int64_t)p - 1074;
        /* reuse the table on a normal double with the same significand and exponent 0 */
        uint64_t nb = ((uint64_t)1023 << 52) | frac;
        uint64_t biased = llmm__map_biased(llmm__map_cells[scale], llmm__key_shift(scale),
                                           llmm__cell_mask(scale), nb);
        return (int64_t)biased - llmm__bias(scale) + exp_unbiased * ((int64_t)1 << scale);
    }
    return (int64_t)llmm__map_biased(llmm__map_cells[scale], llmm__key_shift(scale),
                                     llmm__cell_mask(scale), bits) -
           llmm__bias(scale);
}

double llmm__bucket_lower(int32_t scale, int64_t index)
{
    int64_t oct = index >> scale;
    uint64_t k = (uint64_t)index & ((UINT64_C(1) << scale) - 1);
    double v;
    if (llmm__bucket_lower_normal(scale, index, &v))
        return v;
    if (oct > 2000)
        return HUGE_VAL;
    if (oct < -2000)
        return 0.0;
    return ldexp(llmm__pow2_frac[k << (LLMM__MAX_SCALE - scale)], (int)oct);
}

double llmm__bucket_rep(int32_t scale, int64_t index)
{
    return llmm__bucket_lower(scale, index + 1) * llmm__rep_factor[scale];
}

llmm_status llmm_sketch_index(int32_t scale, double v, int32_t *index)
{
    if (!index || scale < LLMM_SCALE_MIN || scale > LLMM_SCALE_MAX)
        return LLMM_E_INVALID;
    if (llmm__dbits(v) - 1 >= LLMM__DBL_MAX_BITS)
        return LLMM_E_INVALID;
    *index = (int32_t)llmm__map_index(scale, v);
    return LLMM_OK;
}

llmm_status llmm_sketch_bucket_bounds(int32_t scale, int32_t index, double *lower, double *upper)
{
    double lo, hi;
    if (scale < LLMM_SCALE_MIN || scale > LLMM_SCALE_MAX)
        return LLMM_E_INVALID;
    lo = llmm__bucket_lower(scale, index);
    hi = llmm__bucket_lower(scale, (int64_t)index + 1);
    if (!(hi <= DBL_MAX))
        return LLMM_E_RANGE;
    if (lower)
        *lower = lo;
    if (upper)
        *upper = hi;
    return LLMM_OK;
}
