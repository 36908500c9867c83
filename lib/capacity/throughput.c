/* Throughput ratios (decay, scaling, sequence length, communication) and Little's law. */
#include "core/internal.h"
#include "llmmetrics/capacity.h"

/* 1 − part / whole for whole > 0, part ≥ 0: the shape shared by every decay figure. */
static llmm_status loss(double part, double whole, double *out)
{
    if (!out || !llmm__is_finite(part) || !llmm__is_finite(whole) || part < 0.0 || !(whole > 0.0))
        return LLMM_E_INVALID;
    *out = 1.0 - part / whole;
    return LLMM_OK;
}

llmm_status llmm_decay_rate(double actual, double peak, double *eta)
{
    return loss(actual, peak, eta);
}

llmm_status llmm_scaling_decay(double ideal, double measured, double *decay)
{
    return loss(measured, ideal, decay);
}

llmm_status llmm_scaling_decay_devices(double single, uint32_t devices, double measured,
                                       double *decay)
{
    double ideal;
    if (devices == 0 || !llmm__is_finite(single) || !(single > 0.0))
        return LLMM_E_INVALID;
    ideal = single * (double)devices;
    return loss(measured, ideal, decay);
}

llmm_status llmm_seqlen_decay(double tps_short, double tps_long, double *decay)
{
    return loss(tps_long, tps_short, decay);
}

llmm_status llmm_comm_share(double comm_time, double step_time, double *share)
{
    if (!share || !llmm__is_finite(comm_time) || !llmm__is_finite(step_time) || comm_time < 0.0 ||
        !(step_time > 0.0) || comm_time > step_time)
        return LLMM_E_INVALID;
    *share = comm_time / step_time;
    return LLMM_OK;
}

llmm_status llmm_littles_law_tps(double p999_ms, double concurrency, double safety, double *tps)
{
    double v;
    if (!tps || !llmm__is_finite(p999_ms) || !llmm__is_finite(concurrency) ||
        !llmm__is_finite(safety) || !(p999_ms > 0.0) || concurrency < 0.0)
        return LLMM_E_INVALID;
    if (safety < 0.0 || safety > 1.0)
        return LLMM_E_RANGE;
    if (safety == 0.0)
        safety = LLMM_LITTLES_LAW_SAFETY_DEFAULT;
    v = concurrency / (p999_ms / 1000.0) * safety;
    if (!llmm__is_finite(v))
        return LLMM_E_INVALID;
    *tps = v > 1.0 ? v : 1.0;
    return LLMM_OK;
}
