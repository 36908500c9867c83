/**
 * @file detect.h
 * @brief Latency-spike and throughput-collapse detectors, event attribution, correlation.
 */
#ifndef LLMMETRICS_DETECT_H
#define LLMMETRICS_DETECT_H

#include "llmmetrics/window.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_DETECT_H */
