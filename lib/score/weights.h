/* Score module internals shared between the preset table and the scorecard. */
#ifndef LLMM_SCORE_WEIGHTS_H
#define LLMM_SCORE_WEIGHTS_H

#include "llmmetrics/score.h"

/* Copy a preset's weights into w (LLMM_LAYER_COUNT entries); 0 if preset is not a preset. */
int llmm__score_preset(llmm_scenario preset, double *w);

/* 1 if w (LLMM_LAYER_COUNT entries) is finite, >= 0 and sums to 1 within 1e-9. */
int llmm__score_weights_valid(const double *w);

/* 1 if dir is known and target/worst are finite, distinct and ordered as dir says. */
int llmm__score_bounds_valid(llmm_direction dir, double target, double worst);

/* The normalised score of a finite value against valid bounds. */
double llmm__score_of(double target, double worst, double value);

#endif
