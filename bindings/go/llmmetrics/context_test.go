package llmmetrics

import (
	"runtime"
	"testing"
	"time"
)

func TestContextCountsAndRefusesEarlyClose(t *testing.T) {
	ctx, err := NewContext()
	mustOK(t, err)
	base := ctx.LiveBytes()
	if base == 0 || ctx.Allocations() == 0 {
		t.Fatalf("the context itself is allocated through its allocator: %d bytes", base)
	}
	s, err := NewSketch(ScaleDefault, WithContext(ctx))
	mustOK(t, err)
	mustOK(t, s.AddMany(lognormal(1, 1000, 0.2, 1)))
	c, err := s.Clone()
	mustOK(t, err)
	r, err := NewRecorder(ScaleDefault, WithContext(ctx))
	mustOK(t, err)
	sc, err := NewScorecard(ScenarioCodeAssistant, WithContext(ctx))
	mustOK(t, err)
	m, err := NewLIIMonitor(0, WithContext(ctx))
	mustOK(t, err)
	w, err := NewWindow(0, 0, ScaleDefault, WithContext(ctx))
	mustOK(t, err)
	mustOK(t, w.Add(1, 0.5))
	ws, err := w.Snapshot(1, 1)
	mustOK(t, err)
	rw, err := NewRatioWindow(0, 0, WithContext(ctx))
	mustOK(t, err)
	d, err := NewSpikeDetector(WithContext(ctx))
	mustOK(t, err)
	_, err = d.Observe(1, 0.5)
	mustOK(t, err)
	pw, err := NewPromWriter(PromText, WithContext(ctx))
	mustOK(t, err)
	mustOK(t, pw.Family("x", "", PromSummary, []float64{0.5}))
	mustOK(t, pw.AddSketch("", s, 1))
	more := openMonitors(t, ctx)
	if ctx.LiveBytes() <= base {
		t.Fatal("objects allocated nothing through the context")
	}
	wantStatus(t, ctx.Close(), ErrState)
	for _, closer := range append(more, s, c, r, sc, m, w, ws, rw, d, pw) {
		mustOK(t, closer.Close())
	}
	if got := ctx.LiveBytes(); got != base {
		t.Fatalf("after closing every object %d bytes live, want %d", got, base)
	}
	mustOK(t, ctx.Close())
	mustOK(t, ctx.Close())
	if ctx.LiveBytes() != 0 {
		t.Fatal("closed context reports bytes")
	}
	_, err = NewSketch(ScaleDefault, WithContext(ctx))
	wantStatus(t, err, ErrState)
	// A failed constructor does not keep the context busy.
	ctx2, err := NewContext()
	mustOK(t, err)
	_, err = NewSketch(99, WithContext(ctx2))
	wantStatus(t, err, ErrInvalid)
	_, err = NewLIIMonitor(LIIWindowMax+1, WithContext(ctx2))
	wantStatus(t, err, ErrRange)
	mustOK(t, ctx2.Close())
}

// openMonitors opens one of each SLO and resource monitor through ctx, with some data.
func openMonitors(t *testing.T, ctx *Context) []interface{ Close() error } {
	t.Helper()
	sw, err := NewSLOWindow(0, 0, ScaleDefault, WithContext(ctx))
	mustOK(t, err)
	mustOK(t, sw.Add(1, 0.2))
	g, err := NewGoodput(WithContext(ctx))
	mustOK(t, err)
	b, err := NewBurnAlerter(0.999, 0, 0, WithContext(ctx))
	mustOK(t, err)
	mustOK(t, b.Add(1, 1, 10))
	et, err := NewErrorTrigger(0, WithContext(ctx))
	mustOK(t, err)
	kv, err := NewKVHitTracker(0, WithContext(ctx))
	mustOK(t, err)
	tlb, err := NewTLBMonitor(TLBJavaMicroservice, WithContext(ctx))
	mustOK(t, err)
	tlbc, err := NewTLBMonitorCustom(0.2, time.Second, WithContext(ctx))
	mustOK(t, err)
	cd, err := NewCollapseDetector(WithContext(ctx))
	mustOK(t, err)
	_, err = cd.Observe(1, 0.1)
	mustOK(t, err)
	el, err := NewEventLog(0, WithContext(ctx))
	mustOK(t, err)
	mustOK(t, el.Add(1, EventGCPause, 0.01))
	sg, err := NewStabilityGate(WithContext(ctx))
	mustOK(t, err)
	ss, err := NewSaturationSignal(WithContext(ctx))
	mustOK(t, err)
	_, err = ss.Observe(1, 0.1, 2)
	mustOK(t, err)
	return []interface{ Close() error }{sw, g, b, et, kv, tlb, tlbc, cd, el, sg, ss}
}

// Objects dropped without Close are freed by their finalizers.
func TestFinalizersFreeForgottenObjects(t *testing.T) {
	ctx, err := NewContext()
	mustOK(t, err)
	base := ctx.LiveBytes()
	func() {
		for i := 0; i < 8; i++ {
			s, err := NewSketch(ScaleDefault, WithContext(ctx))
			mustOK(t, err)
			mustOK(t, s.AddMany([]float64{1, 10, 100}))
			r, err := NewRecorder(ScaleDefault, WithContext(ctx))
			mustOK(t, err)
			sh, err := r.Shard()
			mustOK(t, err)
			mustOK(t, sh.Add(1))
			sc, err := NewScorecard(ScenarioCustomerService, WithContext(ctx))
			mustOK(t, err)
			_, err = sc.AddMetric(LayerBusiness, "m", HigherIsBetter, 1, 0, 1)
			mustOK(t, err)
			_, err = NewLIIMonitor(16, WithContext(ctx))
			mustOK(t, err)
			w, err := NewWindow(0, 4, ScaleDefault, WithContext(ctx))
			mustOK(t, err)
			mustOK(t, w.Add(1, 2))
			_, err = NewRatioWindow(0, 4, WithContext(ctx))
			mustOK(t, err)
			d, err := NewSpikeDetector(WithContext(ctx))
			mustOK(t, err)
			_, err = d.Observe(1, 2)
			mustOK(t, err)
			pw, err := NewPromWriter(PromProtobuf, WithContext(ctx))
			mustOK(t, err)
			mustOK(t, pw.Family("x_total", "", PromCounter, nil))
			mustOK(t, pw.AddValue("", 1))
			openMonitors(t, ctx)
		}
	}()
	deadline := time.Now().Add(60 * time.Second) // generous: shared, loaded CI machines
	for ctx.LiveBytes() != base && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := ctx.LiveBytes(); got != base {
		t.Fatalf("finalizers left %d bytes live (base %d)", got, base)
	}
	mustOK(t, ctx.Close())
}
