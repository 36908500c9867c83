/**
 * @file capacity.h
 * @brief Throughput decay, roofline, scaling and communication overhead, Little's-law capacity.
 */
#ifndef LLMMETRICS_CAPACITY_H
#define LLMMETRICS_CAPACITY_H

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_CAPACITY_H */
