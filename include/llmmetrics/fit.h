/**
 * @file fit.h
 * @brief Least squares, polynomials and roots, knee estimators, Universal Scalability Law.
 */
#ifndef LLMMETRICS_FIT_H
#define LLMMETRICS_FIT_H

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_FIT_H */
