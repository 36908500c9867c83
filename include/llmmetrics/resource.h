/**
 * @file resource.h
 * @brief CPU-GPU load imbalance, KV-cache formulas and occupancy, TLB / page-walk monitors.
 */
#ifndef LLMMETRICS_RESOURCE_H
#define LLMMETRICS_RESOURCE_H

#include "llmmetrics/detect.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_RESOURCE_H */
