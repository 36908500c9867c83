/**
 * @file llmmetrics.h
 * @brief The umbrella header: includes every stable module of libllmmetrics.
 */
#ifndef LLMMETRICS_LLMMETRICS_H
#define LLMMETRICS_LLMMETRICS_H

#include "llmmetrics/core.h"
#include "llmmetrics/sketch.h"
#include "llmmetrics/window.h"
#include "llmmetrics/detect.h"
#include "llmmetrics/fit.h"
#include "llmmetrics/capacity.h"
#include "llmmetrics/resource.h"
#include "llmmetrics/slo.h"
#include "llmmetrics/score.h"
#include "llmmetrics/export.h"
#include "llmmetrics/otlp.h"
#include "llmmetrics/host.h"

#endif /* LLMMETRICS_LLMMETRICS_H */
