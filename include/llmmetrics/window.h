/**
 * @file window.h
 * @brief Time rings of sketches and of ratio counters.
 */
#ifndef LLMMETRICS_WINDOW_H
#define LLMMETRICS_WINDOW_H

#include "llmmetrics/sketch.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_WINDOW_H */
