package llmmetrics_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"sync"
	"time"

	"llmmetrics"
)

// Record latencies and read percentiles. Quantiles are the representative value of their
// bucket, within 0.542 % of the exact value; the maximum is exact.
func ExampleSketch() {
	s, err := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	latencies := make([]float64, 1000) // seconds: 1 ms … 1 s
	for i := range latencies {
		latencies[i] = float64(i+1) / 1000
	}
	if err := s.AddMany(latencies); err != nil { // one call into C for the whole slice
		log.Fatal(err)
	}
	p, err := s.Quantiles([]float64{0.5, 0.99})
	if err != nil {
		log.Fatal(err)
	}
	max, _ := s.Max()
	fmt.Printf("n=%d p50=%.3f s p99=%.3f s max=%g s\n", s.Count(), p[0], p[1], max)
	// Output: n=1000 p50=0.497 s p99=0.995 s max=1 s
}

// Merge the sketches of two servers exactly.
func ExampleSketch_Merge() {
	a, _ := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	defer a.Close()
	b, _ := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	defer b.Close()
	_ = a.AddMany([]float64{0.1, 0.2, 0.3})
	_ = b.AddMany([]float64{0.4, 0.5})
	if err := a.Merge(b); err != nil {
		log.Fatal(err)
	}
	min, _ := a.Min()
	max, _ := a.Max()
	fmt.Println(a.Count(), min, max)
	// Output: 5 0.1 0.5
}

// Many goroutines record into one Recorder, each through its own Shard.
func ExampleRecorder() {
	r, err := llmmetrics.NewRecorder(llmmetrics.ScaleDefault)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()

	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			sh, err := r.Shard()
			if err != nil {
				log.Fatal(err)
			}
			defer sh.Release()
			for i := 0; i < 250; i++ {
				_ = sh.Add(0.001 * float64(w*250+i+1))
			}
		}(w)
	}
	wg.Wait()

	snap, err := r.Snapshot() // may also run while the writers are busy
	if err != nil {
		log.Fatal(err)
	}
	defer snap.Close()
	fmt.Println(snap.Count(), snap.Sum() > 500)
	// Output: 1000 true
}

// A Shard records batches without locks; its counts stay in the Recorder after Release.
func ExampleBuffer() {
	s, err := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	b, err := llmmetrics.NewBuffer(s, 256) // one cgo call per 256 values
	if err != nil {
		log.Fatal(err)
	}
	for i := 1; i <= 1000; i++ {
		_ = b.Add(0.001 * float64(i))
	}
	fmt.Println(s.Count(), b.Len()) // three full batches recorded, 232 values gathered
	err = b.Add(math.NaN())         // refused alone: the gathered values stay
	fmt.Println(errors.Is(err, llmmetrics.ErrInvalid), b.Len())
	if err := b.Close(); err != nil { // records the rest
		log.Fatal(err)
	}
	p99, _ := s.Quantile(0.99)
	fmt.Println(s.Count(), p99 > 0.98 && p99 < 1.0)
	// Output:
	// 768 232
	// true 232
	// 1000 true
}

func ExampleShard() {
	r, _ := llmmetrics.NewRecorder(llmmetrics.ScaleDefault)
	defer r.Close()
	sh, _ := r.Shard()
	_ = sh.AddMany([]float64{0.2, 0.3, 0.4})
	sh.Release()
	snap, _ := r.Snapshot()
	defer snap.Close()
	fmt.Println(snap.Count())
	// Output: 3
}

// Score a code assistant on the four layers.
func ExampleScorecard() {
	sc, err := llmmetrics.NewScorecard(llmmetrics.ScenarioCodeAssistant)
	if err != nil {
		log.Fatal(err)
	}
	defer sc.Close()
	_, _ = sc.AddMetric(llmmetrics.LayerCapability, "instruction_following", llmmetrics.HigherIsBetter, 1, 0.5, 1)
	_, _ = sc.AddMetric(llmmetrics.LayerPerformance, "p95_ms", llmmetrics.LowerIsBetter, 200, 1000, 1)
	_, _ = sc.AddMetric(llmmetrics.LayerEngineering, "error_rate", llmmetrics.LowerIsBetter, 0, 0.05, 1)
	_, _ = sc.AddMetric(llmmetrics.LayerBusiness, "review_pass", llmmetrics.HigherIsBetter, 1, 0, 1)
	_ = sc.Observe("instruction_following", 0.9)
	_ = sc.Observe("p95_ms", 400)
	_ = sc.Observe("error_rate", 0.01)
	_ = sc.Observe("review_pass", 0.7)

	res, err := sc.Evaluate()
	if err != nil {
		log.Fatal(err)
	}
	for l, lr := range res.Layers {
		fmt.Printf("%-11s score %.2f contributes %.3f\n", llmmetrics.Layer(l), lr.Score, lr.Contribution)
	}
	fmt.Printf("overall %.3f\n", res.Overall)
	// Output:
	// capability  score 0.80 contributes 0.360
	// performance score 0.75 contributes 0.150
	// engineering score 0.80 contributes 0.120
	// business    score 0.70 contributes 0.140
	// overall 0.770
}

// Watch the CPU-GPU load imbalance over a sliding window.
func ExampleLIIMonitor() {
	m, err := llmmetrics.NewLIIMonitor(4)
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	for _, u := range [][2]float64{{0.9, 0.3}, {0.9, 0.4}, {0.8, 0.5}, {0.8, 0.5}} {
		_ = m.Add(u[0], u[1])
	}
	r, _ := m.Read()
	fmt.Printf("LII %.3f tier %v scale %v\n", r.LII, r.Tier, r.Scale)
	// Output: LII 0.500 tier adapt scale true
}

// Measure the memory the library holds for a sketch.
func ExampleContext() {
	ctx, err := llmmetrics.NewContext()
	if err != nil {
		log.Fatal(err)
	}
	base := ctx.LiveBytes()
	s, _ := llmmetrics.NewSketch(llmmetrics.ScaleDefault, llmmetrics.WithContext(ctx))
	_ = s.AddMany([]float64{0.1, 0.2, 0.4})
	fmt.Println("sketch holds memory:", ctx.LiveBytes() > base)
	fmt.Println("close context early:", errors.Is(ctx.Close(), llmmetrics.ErrState))
	s.Close()
	fmt.Println("after Close:", ctx.LiveBytes() == base, ctx.Close())
	// Output:
	// sketch holds memory: true
	// close context early: true
	// after Close: true <nil>
}

// Errors carry the library status; compare them with errors.Is.
func ExampleError() {
	s, _ := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	defer s.Close()
	err := s.Add(math.NaN())
	fmt.Println(errors.Is(err, llmmetrics.ErrInvalid))
	var e *llmmetrics.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status, e.Op)
	}
	_, err = s.Quantile(0.99)
	fmt.Println(err)
	// Output:
	// true
	// LLMM_E_INVALID llmm_sketch_add
	// llmmetrics: llmm_sketch_quantile: no data (LLMM_E_EMPTY)
}

func ExampleStatus() {
	fmt.Println(int(llmmetrics.StatusEmpty), llmmetrics.StatusEmpty, llmmetrics.StatusEmpty.Message())
	// Output: -4 LLMM_E_EMPTY no data
}

func ExampleLII() {
	lii, _ := llmmetrics.LII([]float64{0.25, 0.75}, []float64{1, 1})
	fmt.Println(lii)
	// Output: 0.5
}

func ExampleKVOccupancyOf() {
	occ, _ := llmmetrics.KVOccupancyOf(16, 100, 50, 600)
	fmt.Printf("blocks %.3f tokens %.3f gap %.3f wasted %d\n",
		occ.BlockOccupancy, occ.TokenOccupancy, occ.Gap, occ.WastedSlots)
	// Output: blocks 0.500 tokens 0.375 gap 0.125 wasted 200
}

func ExampleBucketBounds() {
	i, _ := llmmetrics.BucketIndex(0, 3)
	lo, hi, _ := llmmetrics.BucketBounds(0, i)
	fmt.Printf("3 is in bucket %d = (%g, %g]\n", i, lo, hi)
	// Output: 3 is in bucket 1 = (2, 4]
}

// P99 over the last 10 seconds, on the caller's clock.
func ExampleWindow() {
	w, err := llmmetrics.NewWindow(time.Second, 60, llmmetrics.ScaleDefault)
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()
	start := uint64(1e12) // any monotonic clock in ns, such as llmmetrics.Now()
	for s := uint64(0); s < 30; s++ {
		now := start + s*uint64(time.Second)
		_ = w.AddMany(now, []float64{0.1, 0.2, 0.3, float64(s)})
	}
	now := start + 29*uint64(time.Second)
	n, _ := w.Count(now, 10*time.Second)
	max, _ := w.Quantile(now, 10*time.Second, 1)
	fmt.Println(n, max)
	// Output: 40 29
}

// Error rate over the last 5 minutes, as a self-healing trigger.
func ExampleRatioWindow() {
	rw, _ := llmmetrics.NewRatioWindow(time.Second, 300)
	defer rw.Close()
	for i := uint64(0); i < 1000; i++ {
		failed := uint64(0)
		if i%16 == 0 {
			failed = 1
		}
		_ = rw.Add(i*uint64(100*time.Millisecond), failed, 1)
	}
	r, _ := rw.Ratio(999*uint64(100*time.Millisecond), 5*time.Minute)
	fmt.Printf("5xx share %.4f, trigger %v\n", r, r > 0.05)
	// Output: 5xx share 0.0630, trigger true
}

// Classify latencies against P99 / P99.9 baselines.
func ExampleSpikeDetector() {
	d, err := llmmetrics.NewSpikeDetector()
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	_ = d.SetUint64(llmmetrics.SpikeWarmup, 100)
	for i := uint64(0); i < 2000; i++ { // two seconds of ordinary latencies, 1 … 100 ms
		_, _ = d.Observe(i*uint64(time.Millisecond), float64(i%100+1)/1000)
	}
	now := uint64(2 * time.Second)
	for _, latency := range []float64{0.050, 0.1005, 0.5} {
		level, _ := d.Observe(now, latency)
		fmt.Println(latency, level)
	}
	// Output:
	// 0.05 none
	// 0.1005 level1
	// 0.5 level2
}

// Fit a cubic as numpy.polyfit does, then find where its second derivative vanishes.
func ExamplePolyfit() {
	x := []float64{0, 1, 2, 3, 4, 5, 6}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v*v*v - 9*v*v + 2 // inflection at x = 3
	}
	c, st, _ := llmmetrics.Polyfit(x, y, 3)
	d2, _ := llmmetrics.PolyDeriv(c, 2)
	roots, _ := llmmetrics.PolyRoots(d2)
	fmt.Printf("R²=%.3f inflection at %.3f\n", st.R2, roots[0])
	// Output: R²=1.000 inflection at 3.000
}

// Fit the Universal Scalability Law and size the concurrency for a latency SLO.
func ExampleFitUSL() {
	var conc, qps []float64
	for n := 1.0; n <= 48; n++ {
		conc = append(conc, n)
		qps = append(qps, 100*n/(1+0.05*(n-1)+0.001*n*(n-1)))
	}
	m, err := llmmetrics.FitUSL(conc, qps)
	if err != nil {
		log.Fatal(err)
	}
	n, _ := m.SLOConcurrency(0.05) // 50 ms
	fmt.Printf("σ=%.3f κ=%.4f peak at N=%.0f, SLO allows N=%.0f\n", m.Sigma, m.Kappa, m.NMax, n)
	// Output: σ=0.050 κ=0.0010 peak at N=30, SLO allows N=43
}

// Every knee estimator side by side.
func ExampleKnees() {
	var conc, qps []float64
	for n := 1.0; n <= 100; n++ {
		conc = append(conc, n)
		qps = append(qps, math.Min(10*n, 500+(n-50)))
	}
	r, _ := llmmetrics.Knees(conc, qps, nil)
	fmt.Printf("collapse %.1f (%v), kneedle %.1f (%v)\n", r.Collapse.Knee, r.Collapse.Quality,
		r.Kneedle.Knee, r.Kneedle.Quality)
	// Output: collapse 50.3 (ok), kneedle 50.0 (ok)
}

// Little's law capacity for a P99.9 of 200 ms with 45 requests in flight.
func ExampleLittlesLawTPS() {
	tps, _ := llmmetrics.LittlesLawTPS(200, 45, 0)
	fmt.Println(tps)
	// Output: 191.25
}

// A Prometheus text histogram family whose le bounds are the sketch's own bucket bounds
// (every bucket from the first to the last non-empty one, at most 160 bounds).
func ExampleSketch_PrometheusText() {
	s, _ := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	defer s.Close()
	_ = s.AddMany([]float64{0.5, 0.5, 0.51})
	out, err := s.PrometheusText("ttft_seconds", `model="llama"`, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// # HELP ttft_seconds libllmmetrics sketch (scale 6) at its own bucket bounds
	// # TYPE ttft_seconds histogram
	// ttft_seconds_bucket{model="llama",le="0.49461400659698773"} 0
	// ttft_seconds_bucket{model="llama",le="0.5"} 2
	// ttft_seconds_bucket{model="llama",le="0.5054446430258502"} 2
	// ttft_seconds_bucket{model="llama",le="0.5109485743270583"} 3
	// ttft_seconds_bucket{model="llama",le="+Inf"} 3
	// ttft_seconds_sum{model="llama"} 1.51
	// ttft_seconds_count{model="llama"} 3
}

// Serve a scrape: negotiate the format, write the families, send the bytes.
func ExamplePromWriter() {
	lat, _ := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	defer lat.Close()
	_ = lat.AddMany([]float64{0.1, 0.2, 0.4})

	format, contentType := llmmetrics.PromNegotiate("text/plain;version=0.0.4")
	w, err := llmmetrics.NewPromWriter(format)
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()
	_ = w.Family("requests_total", "Requests served.", llmmetrics.PromCounter, nil)
	_ = w.AddValue(`code="200"`, 3)
	_ = w.Family("latency_seconds", "Request latency.", llmmetrics.PromSummary, []float64{1})
	_ = w.AddSketch("", lat, 1)
	fmt.Println(contentType)
	_, _ = w.WriteTo(os.Stdout) // an http.ResponseWriter in a server
	// Output:
	// text/plain; version=0.0.4; charset=utf-8
	// # HELP requests_total Requests served.
	// # TYPE requests_total counter
	// requests_total{code="200"} 3
	// # HELP latency_seconds Request latency.
	// # TYPE latency_seconds summary
	// latency_seconds{quantile="1.0"} 0.4
	// latency_seconds_sum 0.7000000000000001
	// latency_seconds_count 3
}

// The SLO check of the last minute, request by request.
func ExampleSLOWindow() {
	w, err := llmmetrics.NewSLOWindow(time.Second, 60, llmmetrics.ScaleDefault)
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()
	for i := uint64(0); i < 100; i++ {
		now := i * uint64(100*time.Millisecond)
		if i%50 == 49 {
			_ = w.AddErrors(now, 1)
			continue
		}
		_ = w.Add(now, 0.2+float64(i%10)/100) // seconds
	}
	r, _ := w.Check(99*uint64(100*time.Millisecond), time.Minute, 0.95, 0.8, 0.01)
	fmt.Printf("p95 %.2f s, error rate %.2f, satisfied %v\n", r.Latency, r.ErrorRate, r.Satisfied)
	// Output: p95 0.29 s, error rate 0.02, satisfied false
}

// Goodput under vLLM's rule with TTFT and TPOT bounds.
func ExampleGoodput() {
	g, _ := llmmetrics.NewGoodput()
	defer g.Close()
	_ = g.SetFloat64(llmmetrics.GoodputTTFTMax, 0.2)
	_ = g.SetFloat64(llmmetrics.GoodputTPOTMax, 0.05)
	for _, r := range [][2]float64{{0.1, 0.03}, {0.3, 0.03}, {0.15, 0.04}, {0.1, 0.06}} {
		_, _ = g.Observe(r[0], r[1], r[0]+100*r[1])
	}
	res, _ := g.Read(2 * time.Second)
	fmt.Printf("%d of %d good: %.2f, %.1f good req/s\n", res.Good, res.Requests, res.Fraction, res.RatePerS)
	// Output: 2 of 4 good: 0.50, 1.0 good req/s
}

// Multi-window burn-rate alerts for a 99.9 % SLO.
func ExampleBurnAlerter() {
	a, err := llmmetrics.NewBurnAlerter(0.999, 0, 0)
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	var now uint64
	for i := uint64(0); i < 360; i++ { // one hour of 10 s slots at 2 % errors
		now = i * uint64(10*time.Second)
		_ = a.Add(now, 2, 100)
	}
	r, _ := a.Evaluate(now)
	fmt.Printf("1 h burn %.0f, page %v, ticket %v\n", r.Windows[llmmetrics.BurnFastLong].BurnRate, r.FastAlert, r.SlowAlert)
	// Output: 1 h burn 20, page true, ticket true
}

// "5xx share over the last 5 min > 5 %" as a restart trigger.
func ExampleErrorTrigger() {
	tr, _ := llmmetrics.NewErrorTrigger(0)
	defer tr.Close()
	_ = tr.Add(uint64(time.Second), 6, 100)
	r, _ := tr.Check(uint64(time.Second))
	fmt.Println(r.Share, r.Fired)
	// Output: 0.06 true
}

// KV-cache hit rate over the last minute and the TTL it gives.
func ExampleKVHitTracker() {
	kv, _ := llmmetrics.NewKVHitTracker(0)
	defer kv.Close()
	_ = kv.Add(uint64(time.Second), 150, 200)
	r, _ := kv.Read(uint64(time.Second))
	fmt.Println(r.HitRate, r.TTL)
	// Output: 0.75 128
}

// TLB miss rate against the OLTP preset (12.5 % over 1 s).
func ExampleTLBMonitor() {
	m, _ := llmmetrics.NewTLBMonitor(llmmetrics.TLBOLTPDatabase)
	defer m.Close()
	_ = m.Add(0, 130, 1000)
	r, _ := m.Read(0)
	fmt.Println(r.MissRate, r.Alert)
	// Output: 0.13 true
}

// The one-shot SLO check of doc/spec.md §2 over ten requests (latencies in ms).
func ExampleSLOCheck() {
	s, _ := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	defer s.Close()
	_ = s.AddMany([]float64{120, 180, 200, 250, 300, 310, 400, 520, 640, 790})
	r, _ := llmmetrics.SLOCheck(s, 0, 800, 0.01)
	fmt.Println(r.Latency, r.ErrorRate, r.Satisfied)
	// Output: 790 0 true
}

// A latency outlier right after an FP16 → INT8 switch, confirmed by the TPS drop.
func ExampleCollapseDetector() {
	d, err := llmmetrics.NewCollapseDetector()
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	ms := uint64(time.Millisecond)
	for i, lat := range []float64{20, 21, 20, 19, 20, 21, 20, 19} { // batch latencies, ms
		_, _ = d.Observe(uint64(i)*ms, lat)
	}
	_ = d.ObserveTPS(8*ms, 1200)
	_ = d.MarkSwitch(9 * ms)
	_ = d.ObserveTPS(10*ms, 300)
	collapsed, _ := d.Observe(12*ms, 35)
	r, _ := d.SwitchReport()
	fmt.Printf("collapsed %v, TPS drop %.2f, %d signals\n", collapsed, r.TPSDrop, r.Signals)
	// Output: collapsed true, TPS drop 0.75, 2 signals
}

// Which host events preceded a spike?
func ExampleEventLog() {
	l, _ := llmmetrics.NewEventLog(0)
	defer l.Close()
	ms := uint64(time.Millisecond)
	_ = l.Add(100*ms, llmmetrics.EventTCPRetransmit, 1)
	_ = l.Add(480*ms, llmmetrics.EventMajorFault, 1)
	_ = l.Add(495*ms, llmmetrics.EventGCPause, 0.012)
	causes, _ := l.Lookback(500*ms, 50*time.Millisecond)
	for _, e := range causes {
		fmt.Println(e.Type, e.Before)
	}
	// Output:
	// runtime.gc_pause 5ms
	// mem.major_fault 20ms
}

// doc/spec.md §6: scheduler jitter against P99 spike rates.
func ExampleCorrelation() {
	jitter := []float64{5, 25, 50}
	spikes := []float64{0.8, 22.4, 68.1}
	r, _ := llmmetrics.Correlation(jitter, spikes, llmmetrics.Pearson)
	rho, _ := llmmetrics.Correlation(jitter, spikes, llmmetrics.Spearman)
	fmt.Printf("Pearson %.3f, Spearman %.0f\n", r, rho)
	// Output: Pearson 0.990, Spearman 1
}

// Report figures only once the run is steady.
func ExampleStabilityGate() {
	g, _ := llmmetrics.NewStabilityGate()
	defer g.Close()
	for _, tps := range []float64{700, 930, 990, 1010, 1000, 995, 1005} {
		stable, _ := g.Add(tps)
		fmt.Print(stable, " ")
	}
	fmt.Println()
	// Output: false false false false false false true
}

// Latency and requests in flight rising together.
func ExampleSaturationSignal() {
	s, _ := llmmetrics.NewSaturationSignal()
	defer s.Close()
	_ = s.SetUint64(llmmetrics.SaturationWindow, 8)
	var saturated bool
	for i := 0; i < 8; i++ {
		now := uint64(i) * uint64(time.Second)
		saturated, _ = s.Observe(now, 0.2+0.01*float64(i*i), float64(10+3*i))
	}
	r, _ := s.Read()
	fmt.Printf("saturated %v, in-flight +%.0f per s\n", saturated, r.InflightSlope)
	// Output: saturated true, in-flight +3 per s
}

// Keep the trace of the latest request in each bucket, taken from its traceparent header,
// and serve it in OpenMetrics beside the latencies.
func ExampleExemplars() {
	bounds := []float64{0.1, 0.5, 1}
	x, err := llmmetrics.NewExemplars(bounds, llmmetrics.ExemplarLatest)
	if err != nil {
		log.Fatal(err)
	}
	defer x.Close()
	s, err := llmmetrics.NewSketch(llmmetrics.ScaleDefault)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	sh, err := x.Shard() // one per writer goroutine
	if err != nil {
		log.Fatal(err)
	}
	trace, span, _, err := llmmetrics.ParseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	if err != nil {
		log.Fatal(err)
	}
	_ = s.Add(0.3)
	_ = sh.Record(llmmetrics.Exemplar{Value: 0.3, TraceID: trace, SpanID: span,
		TimeUnixNano: 1733300000461000000})
	sh.Release()

	w, err := llmmetrics.NewPromWriter(llmmetrics.PromOpenMetrics)
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()
	_ = w.Family("latency_seconds", "", llmmetrics.PromHistogram, bounds)
	_ = w.AddSketchExemplars("", s, 1, x)
	out, _ := w.Finish()
	os.Stdout.Write(out)
	// Output:
	// # TYPE latency_seconds histogram
	// latency_seconds_bucket{le="0.1"} 0
	// latency_seconds_bucket{le="0.5"} 1 # {trace_id="4bf92f3577b34da6a3ce929d0e0e4736",span_id="00f067aa0ba902b7"} 0.3 1733300000.461
	// latency_seconds_bucket{le="1.0"} 1
	// latency_seconds_bucket{le="+Inf"} 1
	// latency_seconds_sum 0.3
	// latency_seconds_count 1
	// # EOF
}
