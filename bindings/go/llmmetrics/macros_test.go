package llmmetrics

import "testing"

// The Go constants that restate header macros as literals keep the header's values.
func TestConstantsMatchHeaderMacros(t *testing.T) {
	goValues := map[string]float64{
		"LLMM_SCALE_DEFAULT":                   float64(ScaleDefault),
		"LLMM_SCALE_MIN":                       float64(ScaleMin),
		"LLMM_SCALE_MAX":                       float64(ScaleMax),
		"LLMM_SKETCH_RANGE_MIN_DEFAULT":        RangeMinDefault,
		"LLMM_SKETCH_RANGE_MAX_DEFAULT":        RangeMaxDefault,
		"LLMM_SKETCH_RANGE_MIN_LIMIT":          RangeMinLimit,
		"LLMM_SKETCH_RANGE_MAX_LIMIT":          RangeMaxLimit,
		"LLMM_LITTLES_LAW_SAFETY_DEFAULT":      LittlesLawSafetyDefault,
		"LLMM_LII_WINDOW_DEFAULT":              float64(LIIWindowDefault),
		"LLMM_LII_WINDOW_MAX":                  float64(LIIWindowMax),
		"LLMM_WINDOW_SLOT_NS_DEFAULT":          float64(WindowSlotDefault),
		"LLMM_WINDOW_SLOTS_DEFAULT":            float64(WindowSlotsDefault),
		"LLMM_WINDOW_SLOTS_MAX":                float64(WindowSlotsMax),
		"LLMM_LAYER_COUNT":                     float64(LayerCount),
		"LLMM_SCORE_NAME_MAX":                  float64(ScoreNameMax),
		"LLMM_POLY_MAX_DEGREE":                 float64(PolyMaxDegree),
		"LLMM_KV_HIT_WINDOW_NS_DEFAULT":        float64(KVHitWindowDefault),
		"LLMM_RESOURCE_WINDOW_SLOTS":           float64(ResourceWindowSlots),
		"LLMM_BURN_SLOT_NS_DEFAULT":            float64(BurnSlotDefault),
		"LLMM_BURN_WINDOWS":                    float64(BurnWindows),
		"LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT": float64(ErrorTriggerWindowDefault),
		"LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT": ErrorTriggerMaxShareDefault,
		"LLMM_SKETCH_FORMAT_VERSION":           SketchFormatVersion,
		"LLMM_DETECT_VALUE_MAX":                DetectValueMax,
		"LLMM_COLLAPSE_WINDOW_DEFAULT":         CollapseWindowDefault,
		"LLMM_COLLAPSE_WINDOW_MAX":             CollapseWindowMax,
		"LLMM_EVENT_LOG_CAPACITY_DEFAULT":      EventLogCapacityDefault,
		"LLMM_EVENT_LOG_CAPACITY_MAX":          EventLogCapacityMax,
		"LLMM_STABILITY_WINDOWS_DEFAULT":       StabilityWindowsDefault,
		"LLMM_STABILITY_WINDOWS_MAX":           StabilityWindowsMax,
		"LLMM_SATURATION_WINDOW_DEFAULT":       SaturationWindowDefault,
		"LLMM_SATURATION_WINDOW_MAX":           SaturationWindowMax,
		"LLMM_ERROR_TRIGGER_SLOTS":             float64(ErrorTriggerSlots),
	}
	header := cMacros()
	if len(header) != len(goValues) {
		t.Fatalf("%d header macros, %d Go constants", len(header), len(goValues))
	}
	for name, want := range header {
		if got, ok := goValues[name]; !ok || got != want {
			t.Errorf("%s: Go %v, header %v", name, got, want)
		}
	}
}
