package gateway

import (
	"net/http"
	"time"

	"llmmetrics"
)

// traceExemplars keeps, for the requests that came with a W3C traceparent header, the trace
// of the latest one in each bucket of the TTFT and E2E histograms (vLLM's bounds, the text
// form's buckets) and of each request outcome, for /metrics to serve as exemplars: a latency
// panel then links to the trace of a slow request.
type traceExemplars struct {
	ttft, e2e, ok, failed *llmmetrics.Exemplars
}

func newTraceExemplars() (*traceExemplars, error) {
	x := &traceExemplars{}
	for _, f := range []struct {
		p    **llmmetrics.Exemplars
		list llmmetrics.BucketList
	}{{&x.ttft, llmmetrics.BucketsVLLMTTFT}, {&x.e2e, llmmetrics.BucketsVLLMRequestLatency}} {
		bounds, err := llmmetrics.PromBuckets(f.list)
		if err == nil {
			*f.p, err = llmmetrics.NewExemplars(bounds, llmmetrics.ExemplarLatest)
		}
		if err != nil {
			x.close()
			return nil, err
		}
	}
	for _, p := range []**llmmetrics.Exemplars{&x.ok, &x.failed} {
		var err error
		if *p, err = llmmetrics.NewExemplars(nil, llmmetrics.ExemplarLatest); err != nil {
			x.close()
			return nil, err
		}
	}
	return x, nil
}

func (x *traceExemplars) close() {
	for _, s := range []*llmmetrics.Exemplars{x.ttft, x.e2e, x.ok, x.failed} {
		if s != nil {
			s.Close()
		}
	}
}

// requestTrace is the incoming request's trace context, if it has a valid one.
type requestTrace struct {
	traceID [16]byte
	spanID  [8]byte
	valid   bool
}

func traceOf(r *http.Request) requestTrace {
	var t requestTrace
	var err error
	if h := r.Header.Get("traceparent"); h != "" {
		t.traceID, t.spanID, _, err = llmmetrics.ParseTraceparent(h)
		t.valid = err == nil
	}
	return t
}

// offer records one finished request's exemplars (ttft < 0: none), each through a shard of
// its own as the recorders are.
func (x *traceExemplars) offer(t requestTrace, failed bool, ttft, e2e float64) {
	if !t.valid {
		return
	}
	e := llmmetrics.Exemplar{TraceID: t.traceID, SpanID: t.spanID,
		TimeUnixNano: uint64(time.Now().UnixNano())}
	put := func(s *llmmetrics.Exemplars, v float64) {
		sh, err := s.Shard()
		if err != nil {
			return // only a closed store fails
		}
		e.Value = v
		_ = sh.Record(e)
		sh.Release()
	}
	if failed {
		put(x.failed, 1)
		return
	}
	put(x.ok, 1)
	if ttft >= 0 {
		put(x.ttft, ttft)
	}
	put(x.e2e, e2e)
}

// forHistogram is the store of a histogram family, or nil.
func (x *traceExemplars) forHistogram(name string) *llmmetrics.Exemplars {
	switch name {
	case MetricTTFT:
		return x.ttft
	case MetricE2E:
		return x.e2e
	}
	return nil
}

// addCount writes one outcome's request count with its latest exemplar, if any.
func (x *traceExemplars) addCount(pw *llmmetrics.PromWriter, failed bool, labels string, n uint64) error {
	s := x.ok
	if failed {
		s = x.failed
	}
	e, ok, err := s.Get(0)
	if err != nil || !ok {
		return pw.AddValue(labels, float64(n))
	}
	return pw.AddValueExemplar(labels, float64(n), &e)
}
