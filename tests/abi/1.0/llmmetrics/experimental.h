/**
 * @file experimental.h
 * @brief Calls whose signatures may still change; exported under the `LLMM_EXPERIMENTAL`
 * symbol version, outside the stable ABI promise. Empty in this release.
 */
#ifndef LLMMETRICS_EXPERIMENTAL_H
#define LLMMETRICS_EXPERIMENTAL_H

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_EXPERIMENTAL_H */
