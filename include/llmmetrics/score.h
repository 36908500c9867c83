/**
 * @file score.h
 * @brief Four-layer weighted scorecard with scenario presets.
 */
#ifndef LLMMETRICS_SCORE_H
#define LLMMETRICS_SCORE_H

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_SCORE_H */
