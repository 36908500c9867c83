package llmmetrics

import (
	"math"
	"testing"
	"time"
)

const ms = uint64(time.Millisecond)

func TestCollapseDetector(t *testing.T) {
	d, err := NewCollapseDetector()
	mustOK(t, err)
	defer d.Close()
	if w, _ := d.Uint64(CollapseWindow); w != CollapseWindowDefault {
		t.Fatalf("default W %d", w)
	}
	if k, _ := d.Float64(CollapseK); k != 2.5 {
		t.Fatalf("default k %v", k)
	}
	base := []float64{10, 10.1, 9.9, 10, 10.2, 9.8, 10, 10.4}
	for i, v := range base {
		verdict, err := d.ObserveDetail(uint64(i)*ms, v)
		mustOK(t, err)
		if verdict.Ready || verdict.Collapsed {
			t.Fatalf("sample %d judged before W samples: %+v", i+1, verdict)
		}
	}
	wantStatus(t, d.SetUint64(CollapseWindow, 16), ErrState)
	mustOK(t, d.ObserveTPS(7*ms+1, 1000))
	mustOK(t, d.MarkSwitch(8*ms))
	mustOK(t, d.ObserveTPS(8*ms+1, 300))
	mustOK(t, d.ObserveMemBW(8*ms+2, 0.2))

	// Population σ of the 8 before, floored at 1 % of the mean; threshold mean + 2.5σ.
	mean := 0.0
	for _, v := range base {
		mean += v
	}
	mean /= float64(len(base))
	varSum := 0.0
	for _, v := range base {
		varSum += (v - mean) * (v - mean)
	}
	sigma := math.Max(math.Sqrt(varSum/float64(len(base))), 0.01*mean)
	threshold := mean + 2.5*sigma
	v, err := d.ObserveDetail(9*ms, threshold*1.01)
	mustOK(t, err)
	if !v.Ready || !v.Outlier || !v.AfterSwitch || !v.Collapsed || v.SinceSwitchNs != ms || v.Samples != 9 ||
		!approx(v.Mean, mean, 1e-12, 0) || !approx(v.Sigma, sigma, 1e-9, 0) || !approx(v.Threshold, threshold, 1e-12, 0) {
		t.Fatalf("verdict %+v, want mean %v σ %v threshold %v", v, mean, sigma, threshold)
	}
	rep, err := d.SwitchReport()
	mustOK(t, err)
	if rep.Signals != 3 || !rep.LatencyConfirmed || !rep.TPSConfirmed || !rep.MembwConfirmed ||
		rep.TPSBefore != 1000 || rep.TPSAfter != 300 || !approx(rep.TPSDrop, 0.7, 1e-15, 0) || rep.Membw != 0.2 ||
		rep.SwitchNs != 8*ms || rep.Latencies != 1 || rep.Flagged != 1 || !rep.Open {
		t.Fatalf("report %+v", rep)
	}
	// 30 ms after the switch an outlier is not matched to it, unless the switch is not required.
	collapsed, err := d.Observe(38*ms, 100)
	mustOK(t, err)
	if collapsed {
		t.Error("outlier long after the switch collapsed")
	}
	mustOK(t, d.SetUint64(CollapseRequireSwitch, 0))
	collapsed, err = d.Observe(39*ms, 1000)
	mustOK(t, err)
	if !collapsed {
		t.Error("outlier not collapsed with the switch not required")
	}
	samples, nc, switches, err := d.Counts()
	mustOK(t, err)
	if samples != 11 || nc != 2 || switches != 1 {
		t.Errorf("counts %d %d %d", samples, nc, switches)
	}
	_, err = d.Observe(1*ms, 1) // time going backwards
	wantStatus(t, err, ErrInvalid)
	_, err = d.Observe(40*ms, 2*DetectValueMax)
	wantStatus(t, err, ErrRange)
	wantStatus(t, d.ObserveMemBW(40*ms, 1.5), ErrInvalid)
	wantStatus(t, d.SetFloat64(CollapseTPSDrop, 1), ErrRange)
	wantStatus(t, d.SetFloat64(CollapseWindow, 1), ErrUnknownOption)
	mustOK(t, d.Reset())
	_, err = d.SwitchReport()
	wantStatus(t, err, ErrEmpty)
	mustOK(t, d.SetUint64(CollapseWindow, 16))
	mustOK(t, d.Close())
	mustOK(t, d.Close())
	_, err = d.Observe(0, 1)
	wantStatus(t, err, ErrState)
}

func TestEventLog(t *testing.T) {
	names := map[EventType]string{
		EventTCPRetransmit: "net.tcp.retrans", EventMajorFault: "mem.major_fault", EventSchedJitter: "sched.jitter",
		EventNUMAMigration: "mem.numa_migration", EventWeightSwitch: "model.weight_switch", EventGCPause: "runtime.gc_pause",
	}
	for typ, want := range names {
		if typ.AttrName() != want || typ.String() != want {
			t.Errorf("type %d: %q", typ, typ.AttrName())
		}
	}
	if EventUser.AttrName() != "" || EventType(13).AttrName() != "" || EventUser.String() != "EventType(65536)" {
		t.Error("names of user and reserved types")
	}

	l, err := NewEventLog(4)
	mustOK(t, err)
	defer l.Close()
	events := []struct {
		at  uint64
		typ EventType
		val float64
	}{
		{1 * ms, EventGCPause, 1}, {2 * ms, EventTCPRetransmit, 1}, {5 * ms, EventMajorFault, 3},
		{7 * ms, EventTCPRetransmit, 2}, {7 * ms, EventUser + 5, 9}, {9 * ms, EventSchedJitter, 40e-6},
	}
	for _, e := range events {
		mustOK(t, l.Add(e.at, e.typ, e.val))
	}
	held, total, dropped, err := l.Counts()
	mustOK(t, err)
	if held != 4 || total != 6 || dropped != 2 {
		t.Fatalf("counts %d %d %d", held, total, dropped)
	}
	got, err := l.Lookback(8*ms, 3*time.Millisecond)
	mustOK(t, err)
	want := []Event{
		{7 * ms, time.Millisecond, 9, EventUser + 5}, // equal stamps: the one added last first
		{7 * ms, time.Millisecond, 2, EventTCPRetransmit},
		{5 * ms, 3 * time.Millisecond, 3, EventMajorFault},
	}
	if len(got) != len(want) {
		t.Fatalf("lookback %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// More events than the first buffer holds.
	big, err := NewEventLog(0)
	mustOK(t, err)
	defer big.Close()
	for i := uint64(0); i < 100; i++ {
		mustOK(t, big.Add(i, EventMajorFault, float64(i)))
	}
	all, err := big.Lookback(99, 1000)
	mustOK(t, err)
	if len(all) != 100 || all[0].Value != 99 || all[99].Value != 0 {
		t.Fatalf("%d events, first %+v", len(all), all[0])
	}
	n, err := l.Count(EventTCPRetransmit, 0, 10*ms)
	mustOK(t, err)
	if n != 1 { // the retransmit at 2 ms was dropped
		t.Errorf("retransmits %d", n)
	}
	if n, _ := l.Count(0, 0, 10*ms); n != 4 {
		t.Errorf("all types %d", n)
	}
	for _, bad := range []EventType{0, -1, 13, EventUser - 1} {
		wantStatus(t, l.Add(10*ms, bad, 0), ErrInvalid)
	}
	wantStatus(t, l.Add(8*ms, EventGCPause, 0), ErrInvalid)
	wantStatus(t, l.Add(10*ms, EventGCPause, math.Inf(1)), ErrInvalid)
	_, err = l.Count(0, 5, 4)
	wantStatus(t, err, ErrInvalid)
	mustOK(t, l.Reset())
	if held, _, _, _ := l.Counts(); held != 0 {
		t.Error("reset kept events")
	}
	_, err = NewEventLog(EventLogCapacityMax + 1)
	wantStatus(t, err, ErrRange)
}

// Events carrying a trace (1.2): the same events and order as Lookback, with their ids, also
// past the first buffer of the look-back.
func TestEventLogTraced(t *testing.T) {
	l, err := NewEventLog(0)
	mustOK(t, err)
	defer l.Close()
	ids := func(i uint64) (tr [16]byte, sp [8]byte) {
		for k := range tr {
			tr[k] = byte(i) + byte(k)
		}
		for k := range sp {
			sp[k] = byte(i) ^ 0xa5
		}
		return
	}
	for i := uint64(0); i < 40; i++ {
		tr, sp := ids(i)
		switch i % 3 {
		case 0:
			mustOK(t, l.AddTraced(i*ms, EventTCPRetransmit, float64(i), &tr, &sp))
		case 1:
			mustOK(t, l.AddTraced(i*ms, EventMajorFault, float64(i), &tr, nil))
		default:
			mustOK(t, l.Add(i*ms, EventSchedJitter, float64(i)))
		}
	}
	plain, err := l.Lookback(39*ms, time.Second)
	mustOK(t, err)
	got, err := l.LookbackTraced(39*ms, time.Second)
	mustOK(t, err)
	if len(got) != 40 || len(plain) != 40 {
		t.Fatalf("%d and %d events", len(got), len(plain))
	}
	for k, e := range got {
		i := uint64(39 - k)
		tr, sp := ids(i)
		switch i % 3 {
		case 1:
			sp = [8]byte{}
		case 2:
			tr, sp = [16]byte{}, [8]byte{}
		}
		if e.Event != plain[k] || e.TraceID != tr || e.SpanID != sp {
			t.Errorf("event %d: %+v", k, e)
		}
	}
	tr, _ := ids(1)
	wantStatus(t, l.AddTraced(1*ms, EventGCPause, 0, &tr, nil), ErrInvalid)
	wantStatus(t, l.AddTraced(50*ms, 0, 0, &tr, nil), ErrInvalid)
}

func pearson(x, y []float64) float64 {
	mx, my := means(x, y)
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

func TestCorrelation(t *testing.T) {
	// doc/spec.md §6: scheduler jitter against NUMA-binding failures and P99 spike rates.
	jitter := []float64{5, 25, 50}
	numa := []float64{1.2, 37.6, 89.3}
	spikes := []float64{0.8, 22.4, 68.1}
	for _, y := range [][]float64{numa, spikes} {
		r, err := Correlation(jitter, y, Pearson)
		mustOK(t, err)
		if !approx(r, pearson(jitter, y), 1e-12, 0) || r < 0.95 {
			t.Errorf("Pearson %v, reference %v", r, pearson(jitter, y))
		}
		rho, err := Correlation(jitter, y, Spearman)
		mustOK(t, err)
		if rho != 1 {
			t.Errorf("Spearman %v", rho)
		}
	}
	// Ties share the average rank.
	x := []float64{1, 2, 2, 3}
	y := []float64{1, 3, 2, 4}
	ctx, err := NewContext()
	mustOK(t, err)
	base := ctx.LiveBytes()
	rho, err := Correlation(x, y, Spearman, WithContext(ctx))
	mustOK(t, err)
	if want := pearson([]float64{1, 2.5, 2.5, 4}, []float64{1, 3, 2, 4}); !approx(rho, want, 1e-12, 0) {
		t.Errorf("Spearman with ties %v, want %v", rho, want)
	}
	if ctx.LiveBytes() != base || ctx.Allocations() == 0 {
		t.Errorf("scratch: %d bytes live, %d allocations", ctx.LiveBytes()-base, ctx.Allocations())
	}
	mustOK(t, ctx.Close())
	if r, _ := Correlation([]float64{1, 2, 3}, []float64{3, 2, 1}, Pearson); r != -1 {
		t.Errorf("perfect anti-correlation %v", r)
	}
	_, err = Correlation([]float64{1, 1, 1}, []float64{1, 2, 3}, Pearson)
	wantStatus(t, err, ErrRange)
	_, err = Correlation([]float64{1}, []float64{1}, Pearson)
	wantStatus(t, err, ErrEmpty)
	_, err = Correlation([]float64{1, 2}, []float64{1}, Pearson)
	wantStatus(t, err, ErrInvalid)
	_, err = Correlation([]float64{1, 2}, []float64{1, 2}, CorrelationMethod(9))
	wantStatus(t, err, ErrInvalid)
}

func TestStabilityGate(t *testing.T) {
	g, err := NewStabilityGate()
	mustOK(t, err)
	defer g.Close()
	means := []float64{100, 103, 101, 104, 102}
	for i, m := range means {
		stable, err := g.Add(m)
		mustOK(t, err)
		if stable != (i == len(means)-1) { // 104 / 100 = 1.04 ≤ 1.05 once k = 5 are held
			t.Fatalf("after %d means: stable %v", i+1, stable)
		}
	}
	stable, err := g.Add(110) // the last 5: 103 … 110, 110 / 101 > 1.05
	mustOK(t, err)
	r, err := g.Read()
	mustOK(t, err)
	if stable || r.Stable || r.Held != 5 || r.Windows != 5 || r.Min != 101 || r.Max != 110 ||
		r.Ratio != 110.0/101 || r.Total != 6 {
		t.Fatalf("reading %+v", r)
	}
	mustOK(t, g.SetFloat64(StabilityEpsilon, 0.1))
	if r, _ := g.Read(); !r.Stable {
		t.Error("ε = 0.1 not applied to the means held")
	}
	mustOK(t, g.SetUint64(StabilityWindows, 2))
	if r, _ := g.Read(); r.Held != 2 || r.Min != 102 {
		t.Errorf("k = 2: %+v", r)
	}
	_, err = g.Add(0)
	wantStatus(t, err, ErrInvalid)
	wantStatus(t, g.SetUint64(StabilityWindows, StabilityWindowsMax+1), ErrRange)
	wantStatus(t, g.SetFloat64(StabilityWindows, 1), ErrUnknownOption)
	mustOK(t, g.Reset())
	if r, _ := g.Read(); r.Total != 0 || r.Held != 0 {
		t.Errorf("after reset %+v", r)
	}
}

// slope is the least-squares slope of y against t (seconds).
func slope(ts, y []float64) float64 {
	mt, my := means(ts, y)
	var sty, stt float64
	for i := range ts {
		sty += (ts[i] - mt) * (y[i] - my)
		stt += (ts[i] - mt) * (ts[i] - mt)
	}
	return sty / stt
}

func TestSaturationSignal(t *testing.T) {
	s, err := NewSaturationSignal()
	mustOK(t, err)
	defer s.Close()
	mustOK(t, s.SetUint64(SaturationWindow, 10))
	var ts, lat, inflight []float64
	var saturated bool
	for i := 0; i < 10; i++ {
		now := uint64(i) * 100 * ms
		noise := float64((i*37)%7-3) * 1e-3
		l := 0.2 + 0.05*float64(i) + noise
		f := 4 + 2*float64(i) - noise*10
		ts = append(ts, float64(now)/1e9)
		lat = append(lat, l)
		inflight = append(inflight, f)
		saturated, err = s.Observe(now, l, f)
		mustOK(t, err)
		if saturated && i < 9 {
			t.Fatalf("saturated before the window is full (sample %d)", i+1)
		}
	}
	r, err := s.Read()
	mustOK(t, err)
	if !saturated || !r.Saturated || !r.Ready || !r.LatencyRising || !r.InflightRising || r.Samples != 10 || r.Total != 10 ||
		!approx(r.LatencySlope, slope(ts, lat), 1e-9, 0) || !approx(r.InflightSlope, slope(ts, inflight), 1e-9, 0) ||
		r.LatencySlopeSE <= 0 || r.LatencySlopeSE > r.LatencySlope/3 {
		t.Fatalf("reading %+v, slopes %v %v", r, slope(ts, lat), slope(ts, inflight))
	}
	wantStatus(t, s.SetUint64(SaturationWindow, 20), ErrState)
	// Latency flat: in-flight still rises, the server is not saturated.
	mustOK(t, s.Reset())
	for i := 0; i < 10; i++ {
		_, err := s.Observe(uint64(i)*100*ms, 0.2, 4+2*float64(i))
		mustOK(t, err)
	}
	r, _ = s.Read()
	if r.Saturated || r.LatencyRising || !r.InflightRising {
		t.Errorf("flat latency %+v", r)
	}
	_, err = s.Observe(0, 0.2, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = s.Observe(2*sec, -1, 1)
	wantStatus(t, err, ErrInvalid)
	wantStatus(t, s.SetFloat64(SaturationConfidence, 0), ErrRange)
	if z, _ := s.Float64(SaturationConfidence); z != 3 {
		t.Errorf("default z %v", z)
	}
}
