package llmmetrics

/*
#include <stdlib.h>
#include <llmmetrics/score.h>
*/
import "C"

import (
	"math"
	"strings"
	"unsafe"
)

// LayerCount is the number of evaluation layers; weight arrays have this many entries, in
// [Layer] order.
const LayerCount = 4

// ScoreNameMax is the longest metric name accepted, in bytes.
const ScoreNameMax = 255

// Layer is one of the four evaluation layers.
type Layer int32

// The evaluation layers, in the order of every weight array.
const (
	LayerCapability  Layer = C.LLMM_LAYER_CAPABILITY  // factual consistency, reasoning robustness, ...
	LayerPerformance Layer = C.LLMM_LAYER_PERFORMANCE // P95 latency, throughput, peak GPU memory, ...
	LayerEngineering Layer = C.LLMM_LAYER_ENGINEERING // API error rate, cold-start time, rollback success, ...
	LayerBusiness    Layer = C.LLMM_LAYER_BUSINESS    // dwell-time uplift, ticket reduction, review pass rate, ...
)

// String names the layer ("capability", "performance", "engineering", "business").
func (l Layer) String() string {
	return enumName(l, "Layer", "capability", "performance", "engineering", "business")
}

// Scenario is a scenario preset of layer weights.
type Scenario int32

// The scenario presets (capability / performance / engineering / business weights).
const (
	ScenarioCustomerService   Scenario = C.LLMM_SCENARIO_CUSTOMER_SERVICE   // 0.25 / 0.40 / 0.20 / 0.15
	ScenarioCodeAssistant     Scenario = C.LLMM_SCENARIO_CODE_ASSISTANT     // 0.45 / 0.20 / 0.15 / 0.20
	ScenarioContentGeneration Scenario = C.LLMM_SCENARIO_CONTENT_GENERATION // 0.35 / 0.10 / 0.25 / 0.30
	ScenarioCustom            Scenario = C.LLMM_SCENARIO_CUSTOM             // weights set with Scorecard.SetWeights
)

// Direction states which way a metric improves.
type Direction int32

// The directions of a metric.
const (
	HigherIsBetter Direction = C.LLMM_HIGHER_IS_BETTER // target > worst (throughput, pass rate)
	LowerIsBetter  Direction = C.LLMM_LOWER_IS_BETTER  // target < worst (P95 latency, error rate)
)

// MissingPolicy is what the overall score does when a layer with a positive weight has no
// observed metric.
type MissingPolicy int32

// The missing-layer policies.
const (
	MissingRefuse      MissingPolicy = C.LLMM_MISSING_REFUSE      // Evaluate fails with ErrState (the default)
	MissingRenormalize MissingPolicy = C.LLMM_MISSING_RENORMALIZE // renormalise over the present layers
)

// MetricID identifies a metric of a [Scorecard]; ids are 0, 1, 2, ... in the order the
// metrics were added.
type MetricID uint32

// ScenarioWeights returns the layer weights of a preset scenario (not [ScenarioCustom]).
func ScenarioWeights(preset Scenario) ([LayerCount]float64, error) {
	var w [LayerCount]float64
	st := C.llmm_scenario_weights(C.llmm_scenario(preset), (*C.double)(unsafe.Pointer(&w[0])), C.size_t(LayerCount))
	return w, check("llmm_scenario_weights", st)
}

// Normalize maps an observation to a score in [0, 1]:
// clamp((value − worst) / (target − worst), 0, 1), exactly 1 at the target and 0 at worst.
func Normalize(dir Direction, target, worst, value float64) (float64, error) {
	var out C.double
	st := C.llmm_score_normalize(C.llmm_direction(dir), C.double(target), C.double(worst), C.double(value), &out)
	return float64(out), check("llmm_score_normalize", st)
}

// Scorecard scores a deployment on four weighted layers: metrics are defined per layer with
// a direction, a target and a worst acceptable bound, observations are normalised to 0..1,
// averaged per layer and weighted into an overall score.
//
// A Scorecard is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one.
type Scorecard struct{ handle[C.llmm_scorecard] }

// NewScorecard creates a scorecard with the weights of a scenario. A [ScenarioCustom]
// scorecard needs [Scorecard.SetWeights] before it can be evaluated.
func NewScorecard(preset Scenario, opts ...Option) (*Scorecard, error) {
	sc := &Scorecard{}
	return owned(sc, sc.open("llmm_scorecard_new", opts, func(cctx *C.llmm_ctx, out **C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_new(cctx, C.llmm_scenario(preset), out)
	}))
}

// SetWeights sets custom layer weights (finite, ≥ 0, summing to 1 within 1e-9); the
// scenario becomes [ScenarioCustom].
func (sc *Scorecard) SetWeights(w [LayerCount]float64) error {
	return sc.call("llmm_scorecard_set_weights", func(c *C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_set_weights(c, (*C.double)(unsafe.Pointer(&w[0])), C.size_t(LayerCount))
	})
}

// Weights returns the layer weights as configured (not renormalised).
func (sc *Scorecard) Weights() ([LayerCount]float64, error) {
	var w [LayerCount]float64
	err := sc.call("llmm_scorecard_weights", func(c *C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_weights(c, (*C.double)(unsafe.Pointer(&w[0])), C.size_t(LayerCount))
	})
	return w, err
}

// SetMissingPolicy chooses what Evaluate does when a weighted layer has no observation.
func (sc *Scorecard) SetMissingPolicy(p MissingPolicy) error {
	return sc.call("llmm_scorecard_set_i32", func(c *C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_set_i32(c, C.LLMM_SCORECARD_MISSING, C.int32_t(p))
	})
}

// MissingPolicy returns the missing-layer policy in force.
func (sc *Scorecard) MissingPolicy() (MissingPolicy, error) {
	var v C.int32_t
	err := sc.call("llmm_scorecard_get_i32", func(c *C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_get_i32(c, C.LLMM_SCORECARD_MISSING, &v)
	})
	return MissingPolicy(v), err
}

// cString copies a Go string to C memory, refusing strings with an embedded NUL (which C
// would silently cut short).
func cString(op, s string) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, errArg(op, "name contains a NUL byte")
	}
	return C.CString(s), nil
}

// AddMetric defines a metric in a layer and returns its id. The name (1 to [ScoreNameMax]
// bytes) must be unique in the scorecard; target scores 1 and worst scores 0; weight (> 0)
// weighs the metric inside its layer (pass 1 for a plain mean).
func (sc *Scorecard) AddMetric(layer Layer, name string, dir Direction, target, worst, weight float64) (MetricID, error) {
	const op = "llmm_scorecard_add_metric"
	cname, err := cString(op, name)
	if err != nil {
		return 0, err
	}
	defer C.free(unsafe.Pointer(cname))
	var id C.uint32_t
	err = sc.call(op, func(c *C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_add_metric(c, C.llmm_layer(layer), cname, C.llmm_direction(dir),
			C.double(target), C.double(worst), C.double(weight), &id)
	})
	return MetricID(id), err
}

// Observe records the latest observation of the metric called name, replacing the previous
// one. [Scorecard.ObserveID] avoids the lookup by name.
func (sc *Scorecard) Observe(name string, value float64) error {
	const op = "llmm_scorecard_observe"
	cname, err := cString(op, name)
	if err != nil {
		return err
	}
	defer C.free(unsafe.Pointer(cname))
	return sc.call(op, func(c *C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_observe(c, cname, C.double(value))
	})
}

// ObserveID records the latest observation of a metric by id.
func (sc *Scorecard) ObserveID(id MetricID, value float64) error {
	return sc.call("llmm_scorecard_observe_id", func(c *C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_observe_id(c, C.uint32_t(id), C.double(value))
	})
}

// Clear forgets every observation; metrics, weights and options stay.
func (sc *Scorecard) Clear() error {
	return sc.call("llmm_scorecard_clear", func(c *C.llmm_scorecard) C.llmm_status {
		return C.llmm_scorecard_clear(c)
	})
}

// MetricScore returns one metric's normalised score (ErrEmpty when it has no observation).
func (sc *Scorecard) MetricScore(id MetricID) (float64, error) {
	return sc.getF64("llmm_scorecard_metric_score", func(c *C.llmm_scorecard, v *C.double) C.llmm_status {
		return C.llmm_scorecard_metric_score(c, C.uint32_t(id), v)
	})
}

// LayerResult is one layer's part of a [ScoreResult].
type LayerResult struct {
	Score           float64 // layer score in [0, 1]; NaN when the layer is missing
	Weight          float64 // configured weight
	EffectiveWeight float64 // weight used for the overall score; 0 when missing or on error
	Contribution    float64 // EffectiveWeight × Score; 0 when missing or on error
	Present         bool    // the layer has an observed metric
	Metrics         int     // metrics defined in the layer
	Observed        int     // metrics of the layer that have an observation
}

// ScoreResult is the outcome of [Scorecard.Evaluate].
type ScoreResult struct {
	Scenario      Scenario                // the scorecard's scenario
	LayersMissing int                     // layers without an observed metric
	Renormalized  bool                    // a weighted layer was missing and weights were renormalised
	Overall       float64                 // overall score in [0, 1]; NaN on error
	Layers        [LayerCount]LayerResult // indexed by Layer
}

// Evaluate computes the overall score and each layer's score and contribution. When a
// weighted layer is missing under [MissingRefuse] (ErrState) or nothing can be scored
// (ErrEmpty), the error is returned together with a result whose per-layer fields show
// what is missing.
func (sc *Scorecard) Evaluate() (ScoreResult, error) {
	var res ScoreResult
	if sc.c == nil {
		return res, errClosed("llmm_scorecard_evaluate", sc.what())
	}
	r, err := read(&sc.handle, "llmm_scorecard_evaluate", C.LLMM_STRUCT_SCORE_RESULT,
		func(c *C.llmm_scorecard, r *C.llmm_score_result) C.llmm_status {
			return C.llmm_scorecard_evaluate(c, r)
		})
	res.Scenario = Scenario(r.scenario)
	res.LayersMissing = int(r.layers_missing)
	res.Renormalized = r.renormalized != 0
	res.Overall = float64(r.overall)
	for i := range res.Layers {
		res.Layers[i] = LayerResult{
			Score:           float64(r.layer_score[i]),
			Weight:          float64(r.layer_weight[i]),
			EffectiveWeight: float64(r.layer_effective_weight[i]),
			Contribution:    float64(r.layer_contribution[i]),
			Present:         r.layer_present[i] != 0,
			Metrics:         int(r.layer_metrics[i]),
			Observed:        int(r.layer_observed[i]),
		}
	}
	if err != nil {
		res.Overall = math.NaN()
	}
	return res, err
}
