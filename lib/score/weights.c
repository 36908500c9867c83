/* Scenario presets, weight validation and the 0..1 normalisation of one observation. */
#include "score/weights.h"

#include "core/internal.h"

/* doc/spec.md §1, capability / performance / engineering / business. */
static const double preset_weights[3][LLMM_LAYER_COUNT] = {
    {0.25, 0.40, 0.20, 0.15}, /* customer service */
    {0.45, 0.20, 0.15, 0.20}, /* code assistant */
    {0.35, 0.10, 0.25, 0.30}, /* content generation */
};

int llmm__score_preset(llmm_scenario preset, double *w)
{
    int i;
    if (preset != LLMM_SCENARIO_CUSTOMER_SERVICE && preset != LLMM_SCENARIO_CODE_ASSISTANT &&
        preset != LLMM_SCENARIO_CONTENT_GENERATION)
        return 0;
    for (i = 0; i < LLMM_LAYER_COUNT; i++)
        w[i] = preset_weights[preset][i];
    return 1;
}

int llmm__score_weights_valid(const double *w)
{
    double sum = 0.0;
    int i;
    for (i = 0; i < LLMM_LAYER_COUNT; i++) {
        if (!llmm__is_finite(w[i]) || w[i] < 0.0)
            return 0;
        sum += w[i];
    }
    return sum >= 1.0 - 1e-9 && sum <= 1.0 + 1e-9;
}

int llmm__score_bounds_valid(llmm_direction dir, double target, double worst)
{
    if (!llmm__is_finite(target) || !llmm__is_finite(worst))
        return 0;
    if (dir == LLMM_HIGHER_IS_BETTER)
        return target > worst;
    if (dir == LLMM_LOWER_IS_BETTER)
        return target < worst;
    return 0;
}

double llmm__score_of(double target, double worst, double value)
{
    /* One formula for both directions: the sign of (target - worst) carries the direction.
     * The comparisons clamp; strictly between the bounds, rounding is monotone, so
     * |value - worst| <= |target - worst| stays true and the quotient stays in [0, 1]. */
    if (target > worst ? value >= target : value <= target)
        return 1.0;
    if (target > worst ? value <= worst : value >= worst)
        return 0.0;
    return (value - worst) / (target - worst);
}

llmm_status llmm_scenario_weights(llmm_scenario preset, double *weights, size_t n)
{
    double w[LLMM_LAYER_COUNT];
    int i;
    if (!weights || n != LLMM_LAYER_COUNT || !llmm__score_preset(preset, w))
        return LLMM_E_INVALID;
    for (i = 0; i < LLMM_LAYER_COUNT; i++)
        weights[i] = w[i];
    return LLMM_OK;
}

llmm_status llmm_score_normalize(llmm_direction dir, double target, double worst, double value,
                                 double *score)
{
    if (!score || !llmm__score_bounds_valid(dir, target, worst) || !llmm__is_finite(value))
        return LLMM_E_INVALID;
    *score = llmm__score_of(target, worst, value);
    return LLMM_OK;
}
