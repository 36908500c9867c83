package llmmetrics

/*
#include <llmmetrics/llmmetrics.h>

// cgo turns floating-point macros into badly rounded Go constants: read them as doubles.
static void llmmgo_float_macros(double out[7]) {
	out[0] = LLMM_SKETCH_RANGE_MIN_DEFAULT;
	out[1] = LLMM_SKETCH_RANGE_MAX_DEFAULT;
	out[2] = LLMM_SKETCH_RANGE_MIN_LIMIT;
	out[3] = LLMM_SKETCH_RANGE_MAX_LIMIT;
	out[4] = LLMM_LITTLES_LAW_SAFETY_DEFAULT;
	out[5] = LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT;
	out[6] = LLMM_DETECT_VALUE_MAX;
}
*/
import "C"

// cMacros returns the header values of the numeric macros that Go constants of this package
// restate as literals (so that godoc shows the numbers), for the test that keeps the two in
// step.
func cMacros() map[string]float64 {
	var f [7]C.double
	C.llmmgo_float_macros(&f[0])
	return map[string]float64{
		"LLMM_SCALE_DEFAULT":                   float64(C.LLMM_SCALE_DEFAULT),
		"LLMM_SCALE_MIN":                       float64(C.LLMM_SCALE_MIN),
		"LLMM_SCALE_MAX":                       float64(C.LLMM_SCALE_MAX),
		"LLMM_SKETCH_RANGE_MIN_DEFAULT":        float64(f[0]),
		"LLMM_SKETCH_RANGE_MAX_DEFAULT":        float64(f[1]),
		"LLMM_SKETCH_RANGE_MIN_LIMIT":          float64(f[2]),
		"LLMM_SKETCH_RANGE_MAX_LIMIT":          float64(f[3]),
		"LLMM_LITTLES_LAW_SAFETY_DEFAULT":      float64(f[4]),
		"LLMM_LII_WINDOW_DEFAULT":              float64(C.LLMM_LII_WINDOW_DEFAULT),
		"LLMM_LII_WINDOW_MAX":                  float64(C.LLMM_LII_WINDOW_MAX),
		"LLMM_WINDOW_SLOT_NS_DEFAULT":          float64(C.LLMM_WINDOW_SLOT_NS_DEFAULT),
		"LLMM_WINDOW_SLOTS_DEFAULT":            float64(C.LLMM_WINDOW_SLOTS_DEFAULT),
		"LLMM_WINDOW_SLOTS_MAX":                float64(C.LLMM_WINDOW_SLOTS_MAX),
		"LLMM_LAYER_COUNT":                     float64(C.LLMM_LAYER_COUNT),
		"LLMM_SCORE_NAME_MAX":                  float64(C.LLMM_SCORE_NAME_MAX),
		"LLMM_POLY_MAX_DEGREE":                 float64(C.LLMM_POLY_MAX_DEGREE),
		"LLMM_KV_HIT_WINDOW_NS_DEFAULT":        float64(C.LLMM_KV_HIT_WINDOW_NS_DEFAULT),
		"LLMM_RESOURCE_WINDOW_SLOTS":           float64(C.LLMM_RESOURCE_WINDOW_SLOTS),
		"LLMM_BURN_SLOT_NS_DEFAULT":            float64(C.LLMM_BURN_SLOT_NS_DEFAULT),
		"LLMM_BURN_WINDOWS":                    float64(C.LLMM_BURN_WINDOWS),
		"LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT": float64(C.LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT),
		"LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT": float64(f[5]),
		"LLMM_SKETCH_FORMAT_VERSION":           float64(C.LLMM_SKETCH_FORMAT_VERSION),
		"LLMM_DETECT_VALUE_MAX":                float64(f[6]),
		"LLMM_COLLAPSE_WINDOW_DEFAULT":         float64(C.LLMM_COLLAPSE_WINDOW_DEFAULT),
		"LLMM_COLLAPSE_WINDOW_MAX":             float64(C.LLMM_COLLAPSE_WINDOW_MAX),
		"LLMM_EVENT_LOG_CAPACITY_DEFAULT":      float64(C.LLMM_EVENT_LOG_CAPACITY_DEFAULT),
		"LLMM_EVENT_LOG_CAPACITY_MAX":          float64(C.LLMM_EVENT_LOG_CAPACITY_MAX),
		"LLMM_STABILITY_WINDOWS_DEFAULT":       float64(C.LLMM_STABILITY_WINDOWS_DEFAULT),
		"LLMM_STABILITY_WINDOWS_MAX":           float64(C.LLMM_STABILITY_WINDOWS_MAX),
		"LLMM_SATURATION_WINDOW_DEFAULT":       float64(C.LLMM_SATURATION_WINDOW_DEFAULT),
		"LLMM_SATURATION_WINDOW_MAX":           float64(C.LLMM_SATURATION_WINDOW_MAX),
		"LLMM_ERROR_TRIGGER_SLOTS":             float64(C.LLMM_ERROR_TRIGGER_SLOTS),
	}
}
