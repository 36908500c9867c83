/**
 * @file export.h
 * @brief Prometheus text and protobuf (native histograms) and OpenTelemetry JSON export.
 */
#ifndef LLMMETRICS_EXPORT_H
#define LLMMETRICS_EXPORT_H

#include "llmmetrics/sketch.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_EXPORT_H */
