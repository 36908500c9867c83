/**
 * @file slo.h
 * @brief SLO checks, goodput and error-budget burn rates.
 */
#ifndef LLMMETRICS_SLO_H
#define LLMMETRICS_SLO_H

#include "llmmetrics/detect.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_SLO_H */
