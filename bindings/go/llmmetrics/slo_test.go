package llmmetrics

import (
	"math"
	"testing"
	"time"
)

// doc/spec.md §2 reference behaviour: 10 samples, p95 is the largest (rank ceil(9.5) = 10),
// error_rate = errors / N, satisfied = p95 ≤ 800 ms && error_rate ≤ 0.01.
func TestSLOCheck(t *testing.T) {
	s := testSketch(t)
	cases := []struct {
		name      string
		latencies []float64
		errors    uint64
		satisfied bool
		p95       float64
		rate      float64
	}{
		{"all fast", []float64{100, 200, 300, 400, 500, 600, 700, 750, 780, 800}, 0, true, 800, 0},
		{"one slow", []float64{100, 200, 300, 400, 500, 600, 700, 750, 780, 801}, 0, false, 801, 0},
		{"one error of ten", []float64{100, 200, 300, 400, 500, 600, 700, 750, 780}, 1, false, 780, 0.1},
		{"no success", nil, 3, false, math.Inf(1), 1},
	}
	for _, c := range cases {
		mustOK(t, s.Reset())
		mustOK(t, s.AddMany(c.latencies))
		r, err := SLOCheck(s, c.errors, 800, 0.01)
		mustOK(t, err)
		if r.Satisfied != c.satisfied || r.Latency != c.p95 || r.ErrorRate != c.rate || r.Quantile != 0.95 ||
			r.Successes != uint64(len(c.latencies)) || r.Errors != c.errors {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	// 1 error in 100 requests meets err_max = 0.01 (equality included).
	mustOK(t, s.Reset())
	mustOK(t, s.AddN(100, 99))
	r, err := SLOCheck(s, 1, 800, 0.01)
	mustOK(t, err)
	if !r.Satisfied || r.ErrorRate != 0.01 {
		t.Errorf("1 in 100: %+v", r)
	}
	r, err = SLOCheckQuantile(s, 0, 0.5, 99, 0)
	mustOK(t, err)
	if r.Satisfied || r.LatencyOK || !r.ErrorsOK || r.Quantile != 0.5 {
		t.Errorf("median check %+v", r)
	}
	_, err = SLOCheck(s, 0, math.NaN(), 0.01)
	wantStatus(t, err, ErrInvalid)
	_, err = SLOCheck(s, 0, 800, 1.5)
	wantStatus(t, err, ErrInvalid)
	_, err = SLOCheck(nil, 0, 800, 0.01)
	wantStatus(t, err, ErrState)
}

// The window's verdict equals SLOCheckQuantile over the requests of the covered slots.
func TestSLOWindow(t *testing.T) {
	w, err := NewSLOWindow(time.Second, 10, ScaleDefault)
	mustOK(t, err)
	defer w.Close()
	ref := testSketch(t)
	var refErrors uint64
	for s := uint64(0); s < 12; s++ {
		lat := lognormal(int64(300+s), 100, 0.3, 0.4)
		for _, v := range lat {
			mustOK(t, w.Add(s*sec+5, v))
		}
		mustOK(t, w.AddErrors(s*sec+6, s))
		if s >= 12-3 { // the 3 s span at second 11 covers seconds 9, 10, 11
			mustOK(t, ref.AddMany(lat))
			refErrors += s
		}
	}
	now := 11*sec + 10
	got, err := w.Check(now, 3*time.Second, 0.95, 0.5, 0.05)
	mustOK(t, err)
	want, err := SLOCheckQuantile(ref, refErrors, 0.95, 0.5, 0.05)
	mustOK(t, err)
	if got != want {
		t.Errorf("window %+v, sketch %+v", got, want)
	}
	idle, err := w.Check(now+100*sec, 3*time.Second, 0.95, 0.5, 0.05)
	mustOK(t, err)
	if idle.Satisfied || !math.IsInf(idle.Latency, 1) || idle.ErrorRate != 0 {
		t.Errorf("idle span %+v", idle)
	}
	wantStatus(t, w.Add(now, 1), ErrInvalid) // time went backwards
	_, err = w.Check(now+100*sec, 11*time.Second, 0.95, 0.5, 0.05)
	wantStatus(t, err, ErrRange)
	mustOK(t, w.Reset())
	mustOK(t, w.Add(0, 1))
	mustOK(t, w.Close())
	mustOK(t, w.Close())
	wantStatus(t, w.AddErrors(0, 1), ErrState)
}

// vLLM's rule: good when every bound given holds (≤); failures are never good.
func TestGoodput(t *testing.T) {
	tpot, err := GoodputTPOT(2.2, 0.2, 101)
	mustOK(t, err)
	if tpot != (2.2-0.2)/100 {
		t.Errorf("tpot %v", tpot)
	}
	if one, _ := GoodputTPOT(0.5, 0.5, 1); one != 0 {
		t.Errorf("tpot of one token %v", one)
	}
	_, err = GoodputTPOT(0.1, 0.2, 5)
	wantStatus(t, err, ErrInvalid)

	g, err := NewGoodput()
	mustOK(t, err)
	defer g.Close()
	if v, _ := g.Float64(GoodputE2EMax); !math.IsInf(v, 1) {
		t.Errorf("default bound %v", v)
	}
	mustOK(t, g.SetFloat64(GoodputTTFTMax, 0.2))
	mustOK(t, g.SetFloat64(GoodputTPOTMax, 0.05))
	wantStatus(t, g.SetFloat64(GoodputE2EMax, -1), ErrRange)
	wantStatus(t, g.SetFloat64(GoodputOption(9), 1), ErrUnknownOption)
	reqs := []struct {
		ttft, tpot, e2e float64
		good            bool
	}{
		{0.1, 0.04, 3, true}, {0.2, 0.05, 9, true}, {0.21, 0.01, 1, false}, {0.1, 0.051, 1, false}, {0, 0, 0, true},
	}
	goods := 0
	for _, r := range reqs {
		good, err := g.Observe(r.ttft, r.tpot, r.e2e)
		mustOK(t, err)
		if good != r.good {
			t.Errorf("request %+v judged %v", r, good)
		}
		if good {
			goods++
		}
	}
	wantStatus(t, g.SetFloat64(GoodputE2EMax, 5), ErrState)
	mustOK(t, g.AddFailures(3))
	_, err = g.Observe(math.NaN(), 0, 0)
	wantStatus(t, err, ErrInvalid)
	res, err := g.Read(2 * time.Second)
	mustOK(t, err)
	want := GoodputResult{Requests: 8, Completed: 5, Good: uint64(goods), Fraction: float64(goods) / 8,
		RatePerS: float64(goods) / 2, ThroughputPerS: 2.5}
	if res != want {
		t.Errorf("result %+v, want %+v", res, want)
	}
	_, err = g.Read(0)
	wantStatus(t, err, ErrInvalid)
	mustOK(t, g.Reset())
	_, err = g.Read(time.Second)
	wantStatus(t, err, ErrEmpty)
}

func TestBurnRates(t *testing.T) {
	b, err := BurnRate(0.0144, 0.999)
	mustOK(t, err)
	if !approx(b, 14.4, 1e-12, 0) {
		t.Errorf("BurnRate = %v", b)
	}
	spent, err := BurnBudgetSpent(14.4, time.Hour, 30*24*time.Hour)
	mustOK(t, err)
	if !approx(spent, 0.02, 1e-12, 0) {
		t.Errorf("budget spent %v", spent)
	}
	spent, err = BurnBudgetSpent(6, 6*time.Hour, 30*24*time.Hour)
	mustOK(t, err)
	if !approx(spent, 0.05, 1e-12, 0) {
		t.Errorf("budget spent %v", spent)
	}
	_, err = BurnRate(0.1, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = BurnBudgetSpent(1, time.Hour, 0)
	wantStatus(t, err, ErrInvalid)

	a, err := NewBurnAlerter(0.999, 0, 0)
	mustOK(t, err)
	defer a.Close()
	defaults := map[BurnOption]uint64{BurnFastLongNs: uint64(time.Hour), BurnFastShortNs: uint64(5 * time.Minute),
		BurnSlowLongNs: uint64(6 * time.Hour), BurnSlowShortNs: uint64(30 * time.Minute)}
	wantOptions(t, a.Uint64, defaults)
	if f, _ := a.Float64(BurnFastFactor); f != 14.4 {
		t.Errorf("fast factor %v", f)
	}
	// Six hours of 10 s slots at 2 % errors: burn 20 everywhere, both alerts fire.
	slot := uint64(10 * time.Second)
	var now uint64
	for i := uint64(0); i < 2160; i++ {
		now = i * slot
		mustOK(t, a.Add(now, 2, 100))
	}
	r, err := a.Evaluate(now)
	mustOK(t, err)
	if !r.FastAlert || !r.SlowAlert {
		t.Errorf("2 %% errors: %+v", r)
	}
	for w, wr := range r.Windows {
		if !approx(wr.BurnRate, 20, 1e-9, 0) || wr.ErrorRate != 0.02 || wr.Errors*50 != wr.Requests {
			t.Errorf("window %d: %+v", w, wr)
		}
	}
	if r.Windows[BurnFastShort].Requests != 30*100 || r.Windows[BurnSlowLong].Requests != 2160*100 {
		t.Errorf("window requests %+v", r.Windows)
	}
	// Raising the factors above 20 silences both.
	mustOK(t, a.SetFloat64(BurnFastFactor, 25))
	mustOK(t, a.SetFloat64(BurnSlowFactor, 20)) // strict: equal does not fire
	r, err = a.Evaluate(now)
	mustOK(t, err)
	if r.FastAlert || r.SlowAlert {
		t.Errorf("after raising the factors: %+v", r)
	}
	wantStatus(t, a.SetUint64(BurnFastShortNs, uint64(2*time.Hour)), ErrRange)
	wantStatus(t, a.SetFloat64(BurnFastShortNs, 1), ErrUnknownOption)
	wantStatus(t, a.Add(now-1, 0, 1), ErrInvalid)
	wantStatus(t, a.Add(now, 2, 1), ErrInvalid)
	mustOK(t, a.Reset())
	r, err = a.Evaluate(0)
	mustOK(t, err)
	if r.Windows[BurnFastLong].Requests != 0 {
		t.Errorf("after reset %+v", r)
	}
	_, err = NewBurnAlerter(1, 0, 0)
	wantStatus(t, err, ErrRange)
	_, err = NewBurnAlerter(0.999, time.Second, 100) // ring shorter than 6 h
	wantStatus(t, err, ErrRange)
}

func TestErrorTrigger(t *testing.T) {
	tr, err := NewErrorTrigger(0)
	mustOK(t, err)
	defer tr.Close()
	if v, _ := tr.Float64(ErrorTriggerMaxShare); v != ErrorTriggerMaxShareDefault {
		t.Errorf("default share %v", v)
	}
	_, err = tr.Check(0)
	wantStatus(t, err, ErrEmpty)
	mustOK(t, tr.Add(sec, 5, 100))
	r, err := tr.Check(sec)
	mustOK(t, err)
	if r.Fired || r.Share != 0.05 || r.Errors != 5 || r.Requests != 100 {
		t.Errorf("exactly 5 %%: %+v", r)
	}
	mustOK(t, tr.Add(2*sec, 1, 1))
	r, err = tr.Check(2 * sec)
	mustOK(t, err)
	if !r.Fired || r.Requests != 101 {
		t.Errorf("6 of 101: %+v", r)
	}
	mustOK(t, tr.SetUint64(ErrorTriggerMinRequests, 1000))
	r, _ = tr.Check(2 * sec)
	if r.Fired {
		t.Errorf("fired below the minimum: %+v", r)
	}
	// Five minutes later the window is empty again.
	_, err = tr.Check(2*sec + uint64(6*time.Minute))
	wantStatus(t, err, ErrEmpty)
	wantStatus(t, tr.SetFloat64(ErrorTriggerMaxShare, 1.5), ErrRange)
	wantStatus(t, tr.SetUint64(ErrorTriggerMinRequests, 0), ErrRange)
	wantStatus(t, tr.SetUint64(ErrorTriggerMaxShare, 1), ErrUnknownOption)
	mustOK(t, tr.Reset())
	mustOK(t, tr.Close())
	mustOK(t, tr.Close())
	_, err = tr.Check(0)
	wantStatus(t, err, ErrState)
}

func TestKVHitTrackerAndTLBMonitor(t *testing.T) {
	kv, err := NewKVHitTracker(0)
	mustOK(t, err)
	defer kv.Close()
	mustOK(t, kv.Add(sec, 70, 100))
	mustOK(t, kv.Add(2*sec, 80, 100))
	r, err := kv.Read(2 * sec)
	mustOK(t, err)
	ttl, _ := KVTTL(0.75)
	if r.Hits != 150 || r.Lookups != 200 || r.HitRate != 0.75 || r.TTL != ttl || ttl != 128 {
		t.Errorf("hit reading %+v", r)
	}
	_, err = kv.Read(2*sec + uint64(2*time.Minute))
	wantStatus(t, err, ErrEmpty)
	wantStatus(t, kv.Add(3*sec, 2, 1), ErrInvalid)
	mustOK(t, kv.Reset())

	m, err := NewTLBMonitor(TLBOLTPDatabase)
	mustOK(t, err)
	defer m.Close()
	mustOK(t, m.Add(0, 125, 1000))
	tr, err := m.Read(0)
	mustOK(t, err)
	if tr.Alert || tr.MissRate != 0.125 || tr.MaxMissRate != 0.125 || tr.Window != time.Second {
		t.Errorf("at the threshold %+v", tr)
	}
	mustOK(t, m.Add(1, 1, 1))
	tr, _ = m.Read(1)
	if !tr.Alert || tr.Misses != 126 || tr.Accesses != 1001 {
		t.Errorf("above the threshold %+v", tr)
	}
	mustOK(t, m.Reset())
	_, err = m.Read(0)
	wantStatus(t, err, ErrEmpty)

	c, err := NewTLBMonitorCustom(0.1, 2*time.Second)
	mustOK(t, err)
	defer c.Close()
	mustOK(t, c.Add(0, 11, 100))
	tr, _ = c.Read(0)
	if !tr.Alert || tr.Window != 2*time.Second {
		t.Errorf("custom %+v", tr)
	}
	_, err = NewTLBMonitorCustom(1.5, time.Second)
	wantStatus(t, err, ErrRange)
	_, err = NewTLBMonitorCustom(0.1, 0)
	wantStatus(t, err, ErrInvalid)
	_, err = NewTLBMonitor(TLBWorkload(9))
	wantStatus(t, err, ErrInvalid)
}
