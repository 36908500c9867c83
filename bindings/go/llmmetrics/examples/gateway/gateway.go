// Package gateway is an example of net/http middleware for an LLM gateway: it measures the
// responses the gateway proxies — TTFT, ITL and E2E of every streamed (server-sent events)
// response, E2E of the others — into llmmetrics recorders, and serves them on /metrics
// through the library's Prometheus writer (text, OpenMetrics, or protobuf with native
// histograms, as the scraper asks). A request that arrives with a W3C traceparent header
// leaves its trace as an exemplar on the TTFT and E2E buckets and on the request counter
// (OpenMetrics and protobuf carry them; see exemplars.go).
//
// Definitions (those of vLLM's benchmarks, and of llmm): the clock starts when the request
// reaches the middleware; a token chunk is an SSE event whose data the TokenFilter accepts
// (by default every data event but "[DONE]"); TTFT is the time to the first chunk, ITL every
// gap between chunks, E2E the time to the last chunk (to the end of the handler for a
// response that is not an event stream). A chunk's time is when its bytes reach the
// middleware, before they go on to the client. A response with status 400 or more, or an
// event stream without a chunk, is counted as failed and kept out of the latencies.
//
// Metrics.Handler puts it in front of one upstream; cmd/llmm-gateway is that program.
package gateway

import (
	"bytes"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"

	"llmmetrics"
)

// The metric names on /metrics (seconds).
const (
	MetricTTFT     = "gateway_time_to_first_token_seconds"
	MetricITL      = "gateway_inter_token_latency_seconds"
	MetricE2E      = "gateway_e2e_request_latency_seconds"
	MetricRequests = "gateway_requests_total"
)

// Option sets up a Metrics.
type Option func(*Metrics)

// WithClock makes the middleware read time from now (nanoseconds on any monotonic clock)
// instead of [llmmetrics.Now].
func WithClock(now func() uint64) Option {
	return func(m *Metrics) { m.now = now }
}

// WithTokenFilter decides which SSE events are token chunks from their data (the data lines
// joined by "\n"); the default takes every event with data other than "[DONE]". An
// OpenAI-style server's first chunk may carry only the role, for example: a filter can leave
// it out.
func WithTokenFilter(isToken func(data []byte) bool) Option {
	return func(m *Metrics) { m.isToken = isToken }
}

// Metrics measures the requests of the handlers it wraps (Wrap) and serves what it measured
// (ServeHTTP, for /metrics). Safe for concurrent use.
type Metrics struct {
	ttft, itl, e2e *llmmetrics.Recorder
	ex             *traceExemplars
	ok, failed     atomic.Uint64
	now            func() uint64
	isToken        func(data []byte) bool
}

// New creates the recorders (scale 6: every quantile within 0.542 %).
func New(opts ...Option) (*Metrics, error) {
	m := &Metrics{now: llmmetrics.Now, isToken: notDone}
	for _, o := range opts {
		o(m)
	}
	for _, r := range []**llmmetrics.Recorder{&m.ttft, &m.itl, &m.e2e} {
		var err error
		if *r, err = llmmetrics.NewRecorder(llmmetrics.ScaleDefault); err != nil {
			m.Close()
			return nil, err
		}
	}
	var err error
	if m.ex, err = newTraceExemplars(); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

func notDone(data []byte) bool {
	return !bytes.Equal(bytes.TrimSpace(data), []byte("[DONE]"))
}

// Close frees the recorders; no request may be running through the middleware.
func (m *Metrics) Close() {
	for _, r := range []*llmmetrics.Recorder{m.ttft, m.itl, m.e2e} {
		if r != nil {
			r.Close()
		}
	}
	if m.ex != nil {
		m.ex.close()
	}
}

// Handler is a gateway in front of upstream: every request but /metrics goes through a
// reverse proxy that passes each chunk on at once, measured by Wrap; /metrics is m.
func (m *Metrics) Handler(upstream *url.URL) http.Handler {
	proxy := httputil.NewSingleHostReverseProxy(upstream)
	proxy.FlushInterval = -1
	mux := http.NewServeMux()
	mux.Handle("/metrics", m)
	mux.Handle("/", m.Wrap(proxy))
	return mux
}

// Wrap measures every request next serves.
func (m *Metrics) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &streamWriter{ResponseWriter: w, m: m, start: m.now(), trace: traceOf(r)}
		next.ServeHTTP(sw, r)
		m.record(sw)
	})
}

// Snapshots returns the TTFT, ITL and E2E recorded so far, in seconds (the caller closes
// them).
func (m *Metrics) Snapshots() (ttft, itl, e2e *llmmetrics.Sketch, err error) {
	var s [3]*llmmetrics.Sketch
	for i, r := range []*llmmetrics.Recorder{m.ttft, m.itl, m.e2e} {
		if s[i], err = r.Snapshot(); err != nil {
			for _, done := range s[:i] {
				done.Close()
			}
			return nil, nil, nil, err
		}
	}
	return s[0], s[1], s[2], nil
}

// Requests returns how many requests completed and how many failed.
func (m *Metrics) Requests() (ok, failed uint64) {
	return m.ok.Load(), m.failed.Load()
}

// record adds one finished request to the recorders.
func (m *Metrics) record(sw *streamWriter) {
	times := sw.tokens
	if sw.status >= 400 || (sw.stream && len(times) == 0) {
		m.failed.Add(1)
		m.ex.offer(sw.trace, true, 0, 0)
		return
	}
	m.ok.Add(1)
	end := m.now()
	ttft := -1.0
	if sw.stream {
		end = times[len(times)-1]
		secs := func(ns uint64) float64 { return float64(ns) / 1e9 }
		gaps := make([]float64, 0, len(times)-1)
		for i := 1; i < len(times); i++ {
			gaps = append(gaps, secs(times[i]-times[i-1]))
		}
		ttft = secs(times[0] - sw.start)
		m.add(m.ttft, ttft)
		m.addMany(m.itl, gaps)
	}
	m.add(m.e2e, float64(end-sw.start)/1e9)
	m.ex.offer(sw.trace, false, ttft, float64(end-sw.start)/1e9)
}

func (m *Metrics) add(r *llmmetrics.Recorder, v float64) { m.addMany(r, []float64{v}) }

// addMany records a batch through a shard of its own (one cgo call each way).
func (m *Metrics) addMany(r *llmmetrics.Recorder, vs []float64) {
	if len(vs) == 0 {
		return
	}
	sh, err := r.Shard()
	if err != nil {
		return // only a closed recorder fails: the request is not measured
	}
	_ = sh.AddMany(vs) // durations are finite and ≥ 0 on a monotonic clock
	sh.Release()
}

// ServeHTTP answers a Prometheus scrape: the three histograms (native in protobuf, vLLM's
// bucket bounds in text) and the request counter.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	format, contentType := llmmetrics.PromNegotiateOpenMetrics(r.Header.Get("Accept"))
	body, err := m.exposition(format)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", contentType)
	_, _ = w.Write(body)
}

func (m *Metrics) exposition(format llmmetrics.PromFormat) ([]byte, error) {
	pw, err := llmmetrics.NewPromWriter(format)
	if err != nil {
		return nil, err
	}
	defer pw.Close()
	families := []struct {
		name, help string
		r          *llmmetrics.Recorder
		buckets    llmmetrics.BucketList
	}{
		{MetricTTFT, "Time to the first streamed chunk.", m.ttft, llmmetrics.BucketsVLLMTTFT},
		{MetricITL, "Gaps between streamed chunks.", m.itl, llmmetrics.BucketsVLLMInterToken},
		{MetricE2E, "Time to the last chunk (streams) or the response's end.", m.e2e,
			llmmetrics.BucketsVLLMRequestLatency},
	}
	for _, f := range families {
		if err := m.histogram(pw, f.name, f.help, f.r, f.buckets); err != nil {
			return nil, err
		}
	}
	if err := pw.Family(MetricRequests, "Requests by outcome.", llmmetrics.PromCounter, nil); err != nil {
		return nil, err
	}
	ok, failed := m.Requests()
	if err := m.ex.addCount(pw, false, `outcome="ok"`, ok); err != nil {
		return nil, err
	}
	if err := m.ex.addCount(pw, true, `outcome="failed"`, failed); err != nil {
		return nil, err
	}
	return pw.Finish()
}

func (m *Metrics) histogram(pw *llmmetrics.PromWriter, name, help string, r *llmmetrics.Recorder, buckets llmmetrics.BucketList) error {
	s, err := r.Snapshot()
	if err != nil {
		return err
	}
	defer s.Close()
	if err := pw.SetClassicList(buckets); err != nil {
		return err
	}
	if err := pw.Family(name, help, llmmetrics.PromNativeHistogram, nil); err != nil {
		return err
	}
	return pw.AddSketchExemplars("", s, 1, m.ex.forHistogram(name))
}

// streamWriter passes a response on and notes when each token chunk of an event stream went
// through.
type streamWriter struct {
	http.ResponseWriter
	m      *Metrics
	start  uint64
	trace  requestTrace // the incoming traceparent, for exemplars
	status int
	stream bool     // Content-Type text/event-stream
	tokens []uint64 // the time of each token chunk
	sse    sseParser
}

func (sw *streamWriter) WriteHeader(code int) {
	if sw.status == 0 {
		sw.status = code
		sw.stream = strings.HasPrefix(sw.Header().Get("Content-Type"), "text/event-stream")
	}
	sw.ResponseWriter.WriteHeader(code)
}

func (sw *streamWriter) Write(p []byte) (int, error) {
	now := sw.m.now() // before the bytes go on to the client
	if sw.status == 0 {
		sw.WriteHeader(http.StatusOK)
	}
	if sw.stream {
		sw.sse.feed(p, func(data []byte) {
			if sw.m.isToken(data) {
				sw.tokens = append(sw.tokens, now)
			}
		})
	}
	return sw.ResponseWriter.Write(p)
}

// Flush passes a flush on, so that a proxied stream is not held back.
func (sw *streamWriter) Flush() {
	if f, ok := sw.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (sw *streamWriter) Unwrap() http.ResponseWriter { return sw.ResponseWriter }
