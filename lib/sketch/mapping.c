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

/* 2^oct for -1022 <= oct <= 1023, from its bits. */
static inline double pow2_normal(int64_t oct)
{
    uint64_t b = (uint64_t)(oct + 1023) << 52;
    double p;
    memcpy(&p, &b, sizeof p);
    return p;
}

double llmm__bucket_lower(int32_t scale, int64_t index)
{
    /* whole octaves (floor division by 2^scale: an arithmetic shift, as merge.c relies on)
     * and a fraction from a table of correctly rounded 2^(k/1024), so every bound is the
     * double nearest the exact base^index */
    int64_t oct = index >> scale;
    uint64_t k = (uint64_t)index & ((UINT64_C(1) << scale) - 1);
    double frac = llmm__pow2_frac[k << (LLMM__MAX_SCALE - scale)];
    if ((uint64_t)(oct + 1022) <= 2045) /* frac in [1, 2) times a normal power of two: exact */
        return frac * pow2_normal(oct);
    if (oct > 2000)
        return HUGE_VAL;
    if (oct < -2000)
        return 0.0;
    return ldexp(frac, (int)oct);
}

double llmm__bucket_rep(int32_t scale, int64_t index)
{
    return llmm__bucket_lower(scale, index + 1) * llmm__rep_factor[scale];
}

void llmm__bucket_reps(int32_t scale, int64_t base, const size_t *slot, double *out, size_t m)
{
    for (size_t j = 0; j < m; j++)
        out[j] = llmm__bucket_rep(scale, base + (int64_t)slot[j]);
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
