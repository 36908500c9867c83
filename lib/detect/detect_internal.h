/* Checks shared by the detect module's objects. */
#ifndef LLMM_DETECT_INTERNAL_H
#define LLMM_DETECT_INTERNAL_H

#include "llmmetrics/detect.h"

/* Check a latency, throughput or in-flight value: INVALID for NaN, infinities and negatives,
 * RANGE above LLMM_DETECT_VALUE_MAX (whose square, times any window, stays finite). */
static inline llmm_status llmm__detect_value_check(double v)
{
    if (!(v >= 0.0) || v - v != 0.0)
        return LLMM_E_INVALID;
    return v > LLMM_DETECT_VALUE_MAX ? LLMM_E_RANGE : LLMM_OK;
}

/* The latest time stamp the log accepted (0 when empty): a caller that must not fail halfway
 * (the host sampler) checks it before it adds. */
uint64_t llmm__event_log_last_ns(const llmm_event_log *log);

#endif
