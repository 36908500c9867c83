/**
 * @file sketch.h
 * @brief Quantile sketches with guaranteed relative error, per-thread recorders, binary form.
 */
#ifndef LLMMETRICS_SKETCH_H
#define LLMMETRICS_SKETCH_H

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_SKETCH_H */
