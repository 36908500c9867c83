package llmmetrics

import (
	"math"
	"strings"
	"testing"
)

// The presets of doc/spec.md §1.
func TestScenarioWeights(t *testing.T) {
	cases := []struct {
		s    Scenario
		want [LayerCount]float64
	}{
		{ScenarioCustomerService, [LayerCount]float64{0.25, 0.40, 0.20, 0.15}},
		{ScenarioCodeAssistant, [LayerCount]float64{0.45, 0.20, 0.15, 0.20}},
		{ScenarioContentGeneration, [LayerCount]float64{0.35, 0.10, 0.25, 0.30}},
	}
	for _, c := range cases {
		got, err := ScenarioWeights(c.s)
		mustOK(t, err)
		if got != c.want {
			t.Errorf("scenario %d: %v, want %v", c.s, got, c.want)
		}
		sc, err := NewScorecard(c.s)
		mustOK(t, err)
		w, err := sc.Weights()
		mustOK(t, err)
		if w != c.want {
			t.Errorf("scorecard %d weights %v", c.s, w)
		}
		sc.Close()
	}
	_, err := ScenarioWeights(ScenarioCustom)
	wantStatus(t, err, ErrInvalid)
	_, err = ScenarioWeights(Scenario(42))
	wantStatus(t, err, ErrInvalid)
}

func TestNormalize(t *testing.T) {
	cases := []struct {
		dir                  Direction
		target, worst, value float64
		want                 float64
	}{
		{HigherIsBetter, 1, 0, 0.25, 0.25},
		{HigherIsBetter, 1, 0, 1, 1},
		{HigherIsBetter, 1, 0, 0, 0},
		{HigherIsBetter, 1, 0, 2, 1},
		{HigherIsBetter, 1, 0, -3, 0},
		{LowerIsBetter, 200, 1000, 400, 0.75},
		{LowerIsBetter, 200, 1000, 100, 1},
		{LowerIsBetter, 200, 1000, 1200, 0},
	}
	for _, c := range cases {
		got, err := Normalize(c.dir, c.target, c.worst, c.value)
		mustOK(t, err)
		if math.Abs(got-c.want) > 1e-15 {
			t.Errorf("Normalize(%v, %v, %v, %v) = %v, want %v", c.dir, c.target, c.worst, c.value, got, c.want)
		}
	}
	bad := []struct {
		dir                  Direction
		target, worst, value float64
	}{
		{HigherIsBetter, 0, 1, 0.5},
		{LowerIsBetter, 1, 0, 0.5},
		{HigherIsBetter, 1, 1, 1},
		{HigherIsBetter, 1, 0, math.NaN()},
		{HigherIsBetter, math.Inf(1), 0, 1},
		{Direction(7), 1, 0, 0.5},
	}
	for _, c := range bad {
		_, err := Normalize(c.dir, c.target, c.worst, c.value)
		wantStatus(t, err, ErrInvalid)
	}
}

func TestScorecardEvaluate(t *testing.T) {
	sc, err := NewScorecard(ScenarioCodeAssistant)
	mustOK(t, err)
	defer sc.Close()
	type metric struct {
		layer                Layer
		name                 string
		dir                  Direction
		target, worst, wt, v float64
	}
	metrics := []metric{
		{LayerCapability, "factual", HigherIsBetter, 0.95, 0.5, 1, 0.8},
		{LayerPerformance, "p95_ms", LowerIsBetter, 200, 1000, 2, 400},
		{LayerPerformance, "tps", HigherIsBetter, 100, 0, 1, 50},
		{LayerEngineering, "error_rate", LowerIsBetter, 0.001, 0.05, 1, 0.06},
		{LayerBusiness, "review_pass", HigherIsBetter, 0.9, 0.5, 1, 1.0},
	}
	var layerNum, layerDen [LayerCount]float64
	for i, m := range metrics {
		id, err := sc.AddMetric(m.layer, m.name, m.dir, m.target, m.worst, m.wt)
		mustOK(t, err)
		if id != MetricID(i) {
			t.Fatalf("id %d, want %d", id, i)
		}
		if i%2 == 0 {
			mustOK(t, sc.Observe(m.name, m.v))
		} else {
			mustOK(t, sc.ObserveID(id, m.v))
		}
		s := math.Max(0, math.Min(1, (m.v-m.worst)/(m.target-m.worst)))
		got, err := sc.MetricScore(id)
		mustOK(t, err)
		if math.Abs(got-s) > 1e-15 {
			t.Errorf("%s: score %v, want %v", m.name, got, s)
		}
		layerNum[m.layer] += m.wt * s
		layerDen[m.layer] += m.wt
	}
	weights := [LayerCount]float64{0.45, 0.20, 0.15, 0.20}
	res, err := sc.Evaluate()
	mustOK(t, err)
	var overall float64
	for l := range res.Layers {
		want := layerNum[l] / layerDen[l]
		lr := res.Layers[l]
		if math.Abs(lr.Score-want) > 1e-12 || !lr.Present || lr.Weight != weights[l] ||
			math.Abs(lr.Contribution-weights[l]*want) > 1e-12 {
			t.Errorf("layer %v: %+v, want score %v", Layer(l), lr, want)
		}
		overall += weights[l] * want
	}
	if math.Abs(res.Overall-overall) > 1e-12 || res.LayersMissing != 0 || res.Renormalized ||
		res.Scenario != ScenarioCodeAssistant {
		t.Errorf("result %+v, want overall %v", res, overall)
	}
	if res.Layers[LayerPerformance].Metrics != 2 || res.Layers[LayerPerformance].Observed != 2 {
		t.Errorf("performance counts %+v", res.Layers[LayerPerformance])
	}

	// Only the capability layer observed: refused by default, renormalised on request.
	mustOK(t, sc.Clear())
	_, err = sc.MetricScore(0)
	wantStatus(t, err, ErrEmpty)
	mustOK(t, sc.Observe("factual", 0.8))
	res, err = sc.Evaluate()
	wantStatus(t, err, ErrState)
	if !math.IsNaN(res.Overall) || res.LayersMissing != 3 || !res.Layers[LayerCapability].Present ||
		res.Layers[LayerBusiness].Present || !math.IsNaN(res.Layers[LayerBusiness].Score) {
		t.Errorf("refused result %+v", res)
	}
	p, err := sc.MissingPolicy()
	mustOK(t, err)
	if p != MissingRefuse {
		t.Fatalf("default policy %d", p)
	}
	mustOK(t, sc.SetMissingPolicy(MissingRenormalize))
	res, err = sc.Evaluate()
	mustOK(t, err)
	if want := (0.8 - 0.5) / (0.95 - 0.5); math.Abs(res.Overall-want) > 1e-12 || !res.Renormalized ||
		res.Layers[LayerCapability].EffectiveWeight != 1 {
		t.Errorf("renormalised %+v, want overall %v", res, want)
	}
	wantStatus(t, sc.SetMissingPolicy(MissingPolicy(9)), ErrRange)

	// Bad metric definitions and observations change nothing.
	_, err = sc.AddMetric(LayerBusiness, "factual", HigherIsBetter, 1, 0, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = sc.AddMetric(LayerBusiness, "", HigherIsBetter, 1, 0, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = sc.AddMetric(LayerBusiness, strings.Repeat("n", ScoreNameMax+1), HigherIsBetter, 1, 0, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = sc.AddMetric(LayerBusiness, "nul\x00name", HigherIsBetter, 1, 0, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = sc.AddMetric(LayerBusiness, "w0", HigherIsBetter, 1, 0, 0)
	wantStatus(t, err, ErrInvalid)
	_, err = sc.AddMetric(Layer(4), "x", HigherIsBetter, 1, 0, 1)
	wantStatus(t, err, ErrInvalid)
	wantStatus(t, sc.Observe("nope", 1), ErrInvalid)
	wantStatus(t, sc.Observe("factual\x00", 1), ErrInvalid)
	wantStatus(t, sc.ObserveID(99, 1), ErrInvalid)
	wantStatus(t, sc.Observe("factual", math.Inf(1)), ErrInvalid)
	id, err := sc.AddMetric(LayerBusiness, strings.Repeat("n", ScoreNameMax), HigherIsBetter, 1, 0, 1)
	mustOK(t, err)
	if id != MetricID(len(metrics)) {
		t.Fatalf("id after refused adds %d", id)
	}
}

func TestScorecardCustomWeights(t *testing.T) {
	sc, err := NewScorecard(ScenarioCustom)
	mustOK(t, err)
	defer sc.Close()
	_, err = sc.Weights()
	wantStatus(t, err, ErrState)
	_, err = sc.AddMetric(LayerPerformance, "tps", HigherIsBetter, 100, 0, 1)
	mustOK(t, err)
	mustOK(t, sc.Observe("tps", 25))
	_, err = sc.Evaluate()
	wantStatus(t, err, ErrState)
	for _, w := range [][LayerCount]float64{
		{0.5, 0.5, 0.5, 0},
		{1 - 2e-9, 0, 0, 0},
		{-0.5, 1.5, 0, 0},
		{math.NaN(), 1, 0, 0},
	} {
		wantStatus(t, sc.SetWeights(w), ErrInvalid)
	}
	mustOK(t, sc.SetWeights([LayerCount]float64{0, 1, 0, 0}))
	res, err := sc.Evaluate()
	mustOK(t, err)
	if res.Overall != 0.25 || res.Scenario != ScenarioCustom || res.LayersMissing != 3 || res.Renormalized {
		t.Errorf("custom result %+v", res)
	}
	if _, err := NewScorecard(Scenario(-1)); err == nil {
		t.Fatal("unknown scenario accepted")
	}
	mustOK(t, sc.Close())
	mustOK(t, sc.Close())
	_, err = sc.Evaluate()
	wantStatus(t, err, ErrState)
	wantStatus(t, sc.Observe("tps", 1), ErrState)
}

func TestLayerNames(t *testing.T) {
	want := []string{"capability", "performance", "engineering", "business"}
	for i, w := range want {
		if Layer(i).String() != w {
			t.Errorf("Layer(%d) = %q", i, Layer(i).String())
		}
	}
	if Layer(9).String() != "Layer(9)" || LayerCount != 4 || ScoreNameMax != 255 {
		t.Error("layer constants")
	}
}
