/* Roofline model: attainable compute is capped by the peak and by bandwidth × intensity. */
#include "core/internal.h"
#include "llmmetrics/capacity.h"

static int positive(double v)
{
    return llmm__is_finite(v) && v > 0.0;
}

static int nonnegative(double v)
{
    return llmm__is_finite(v) && v >= 0.0;
}

llmm_status llmm_roofline(double peak_flops, double bandwidth_bytes, double intensity,
                          double *attainable)
{
    double bound;
    if (!attainable || !positive(peak_flops) || !positive(bandwidth_bytes) ||
        !nonnegative(intensity))
        return LLMM_E_INVALID;
    bound = bandwidth_bytes * intensity; /* may overflow to +Inf: then the peak is the bound */
    *attainable = bound < peak_flops ? bound : peak_flops;
    return LLMM_OK;
}

llmm_status llmm_roofline_critical_intensity(double peak_flops, double bandwidth_bytes,
                                             double *intensity)
{
    double v;
    if (!intensity || !positive(peak_flops) || !positive(bandwidth_bytes))
        return LLMM_E_INVALID;
    v = peak_flops / bandwidth_bytes;
    if (!llmm__is_finite(v))
        return LLMM_E_INVALID;
    *intensity = v;
    return LLMM_OK;
}

llmm_status llmm_arithmetic_intensity(double flops, double bytes, double *intensity)
{
    double v;
    if (!intensity || !nonnegative(flops) || !positive(bytes))
        return LLMM_E_INVALID;
    v = flops / bytes;
    if (!llmm__is_finite(v))
        return LLMM_E_INVALID;
    *intensity = v;
    return LLMM_OK;
}
