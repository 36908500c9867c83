package gateway

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"llmmetrics"
)

// plan is what the upstream does for one request: wait ttft, then send a chunk, then one more
// after each gap; or answer with an error status; or send plain JSON after ttft.
type plan struct {
	ttft   time.Duration
	gaps   []time.Duration
	status int
	stream bool
}

// seen is what the test itself observes of one request, on llmmetrics.Now's clock: when the
// client sent it and when the upstream handler started, when the upstream was about to write
// each chunk and when the client had read it. The middleware's reading of each instant lies
// between them, whatever the machine's load: it reads the clock when a chunk reaches it,
// after the upstream wrote it and before the client can see it.
type seen struct {
	sent, upStart, done uint64
	up, client          []uint64
}

func plans() map[string]plan {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	p := map[string]plan{
		"json":  {ttft: ms(4), status: http.StatusOK},
		"error": {status: http.StatusInternalServerError},
	}
	for i := 0; i < 12; i++ {
		gaps := make([]time.Duration, 3+i%5)
		for k := range gaps {
			gaps[k] = ms(2 + (i+k)%5)
		}
		p[fmt.Sprint("s", i)] = plan{ttft: ms(5 + 3*i), gaps: gaps, status: http.StatusOK, stream: true}
	}
	return p
}

// upstream is the model server: SSE chunks at the planned times, a keep-alive comment first.
func upstream(t *testing.T, ps map[string]plan, obs map[string]*seen, mu *sync.Mutex) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("id")
		mu.Lock()
		o := obs[id]
		o.upStart = llmmetrics.Now()
		mu.Unlock()
		p := ps[id]
		if p.status != http.StatusOK {
			http.Error(w, "upstream failed", p.status)
			return
		}
		if !p.stream {
			time.Sleep(p.ttft)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"text":"hi"}]}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		_, _ = io.WriteString(w, ": keep-alive\n\n")
		f.Flush()
		time.Sleep(p.ttft)
		for k := 0; k <= len(p.gaps); k++ {
			if k > 0 {
				time.Sleep(p.gaps[k-1])
			}
			mu.Lock()
			o.up = append(o.up, llmmetrics.Now())
			mu.Unlock()
			_, _ = fmt.Fprintf(w, "data: {\"choices\":[{\"text\":\"t%d\"}]}\n\n", k)
			f.Flush()
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	})
}

// client sends one request through the gateway and notes when each chunk had arrived.
func client(t *testing.T, base, id string, o *seen, mu *sync.Mutex) {
	mu.Lock()
	o.sent = llmmetrics.Now()
	mu.Unlock()
	resp, err := http.Get(base + "/v1/completions?id=" + id)
	if err != nil {
		t.Error(err)
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	data := ""
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "data: ") {
			data = strings.TrimPrefix(line, "data: ")
		} else if line == "" && data != "" {
			if data != "[DONE]" {
				now := llmmetrics.Now()
				mu.Lock()
				o.client = append(o.client, now)
				mu.Unlock()
			}
			data = ""
		}
	}
	if err := sc.Err(); err != nil {
		t.Error(err)
	}
	now := llmmetrics.Now() // the whole response read
	mu.Lock()
	o.done = now
	mu.Unlock()
}

// bounds are the lowest and highest values (seconds) a measurement can take.
type bounds struct{ lo, hi []float64 }

func (b *bounds) addSpan(from, fromLate, to, toLate uint64) {
	// the span runs from an instant in [from, fromLate] to one in [to, toLate]
	b.lo = append(b.lo, (float64(to)-float64(fromLate))/1e9)
	b.hi = append(b.hi, (float64(toLate)-float64(from))/1e9)
}

func nearestRank(v []float64, q float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	r := int(math.Ceil(q * float64(len(s))))
	if r < 1 {
		r = 1
	}
	return s[r-1]
}

// checkSketch: the count is exact, min and max lie within the bounds, and each quantile
// within the bounds' quantiles widened by the sketch's relative error (nearest-rank
// quantiles are monotone: every value in [lo_i, hi_i] puts the q-quantile between those of
// lo and hi).
func checkSketch(t *testing.T, name string, s *llmmetrics.Sketch, b bounds) {
	t.Helper()
	if got := s.Count(); got != uint64(len(b.lo)) {
		t.Fatalf("%s: %d values recorded, %d measured", name, got, len(b.lo))
	}
	rel := llmmetrics.RelativeError(llmmetrics.ScaleDefault)
	min, _ := s.Min()
	max, _ := s.Max()
	if min < nearestRank(b.lo, 0) || min > nearestRank(b.hi, 0) || max < nearestRank(b.lo, 1) || max > nearestRank(b.hi, 1) {
		t.Errorf("%s: min %g max %g outside [%g, %g] and [%g, %g]", name, min, max,
			nearestRank(b.lo, 0), nearestRank(b.hi, 0), nearestRank(b.lo, 1), nearestRank(b.hi, 1))
	}
	for _, q := range []float64{0.5, 0.9, 0.99} {
		got, err := s.Quantile(q)
		lo, hi := nearestRank(b.lo, q), nearestRank(b.hi, q)
		if err != nil || got < lo-rel*math.Abs(lo) || got > hi*(1+rel) {
			t.Errorf("%s: p%g = %g (%v), outside [%g, %g] ± %.4f", name, 100*q, got, err, lo, hi, rel)
		}
	}
}

func TestGatewayMeasuresProxiedStreams(t *testing.T) {
	ps := plans()
	obs := map[string]*seen{}
	for id := range ps {
		obs[id] = &seen{}
	}
	var mu sync.Mutex
	up := httptest.NewServer(upstream(t, ps, obs, &mu))
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	target, _ := url.Parse(up.URL)
	gw := httptest.NewServer(m.Handler(target))

	ids := make(chan string)
	var wg sync.WaitGroup
	for c := 0; c < 4; c++ { // four clients at a time
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range ids {
				client(t, gw.URL, id, obs[id], &mu)
			}
		}()
	}
	for id := range ps {
		ids <- id
	}
	close(ids)
	wg.Wait()
	up.Close() // waits for the upstream handlers: obs is complete

	// What the middleware can have measured, from what the test saw, and what it injected.
	var ttft, itl, e2e bounds
	var injectedTTFT, injectedE2E []float64
	streams, chunks := 0, 0
	for id, p := range ps {
		o := obs[id]
		if !p.stream {
			continue
		}
		if len(o.up) != len(p.gaps)+1 || len(o.client) != len(o.up) {
			t.Fatalf("%s: upstream wrote %d chunks, client read %d, planned %d", id, len(o.up), len(o.client), len(p.gaps)+1)
		}
		streams++
		chunks += len(o.up)
		last := len(o.up) - 1
		ttft.addSpan(o.sent, o.upStart, o.up[0], o.client[0])
		e2e.addSpan(o.sent, o.upStart, o.up[last], o.client[last])
		for k := 1; k <= last; k++ {
			itl.addSpan(o.up[k-1], o.client[k-1], o.up[k], o.client[k])
		}
		total := p.ttft
		for _, g := range p.gaps {
			total += g
		}
		injectedTTFT = append(injectedTTFT, p.ttft.Seconds())
		injectedE2E = append(injectedE2E, total.Seconds())
	}
	// the plain response ends after the upstream's wait, before the client has read it all
	o := obs["json"]
	e2e.addSpan(o.sent, o.upStart, o.upStart+uint64(ps["json"].ttft), o.done)
	injectedE2E = append(injectedE2E, ps["json"].ttft.Seconds())

	sTTFT, sITL, sE2E, err := m.Snapshots()
	if err != nil {
		t.Fatal(err)
	}
	defer sTTFT.Close()
	defer sITL.Close()
	defer sE2E.Close()
	checkSketch(t, "TTFT", sTTFT, ttft)
	checkSketch(t, "ITL", sITL, itl)
	checkSketch(t, "E2E", sE2E, e2e)
	if n := sITL.Count(); n != uint64(chunks-streams) {
		t.Errorf("ITL count %d, want %d chunks - %d streams", n, chunks, streams)
	}
	// The upstream slept the injected time before each chunk: no measurement can be shorter.
	rel := llmmetrics.RelativeError(llmmetrics.ScaleDefault)
	for _, c := range []struct {
		name     string
		s        *llmmetrics.Sketch
		injected []float64
	}{{"TTFT", sTTFT, injectedTTFT}, {"E2E", sE2E, injectedE2E}} {
		for _, q := range []float64{0, 0.5, 0.9, 1} {
			got, _ := c.s.Quantile(q)
			if want := nearestRank(c.injected, q); got < want*(1-rel) {
				t.Errorf("%s p%g = %g s, shorter than the injected %g s", c.name, 100*q, got, want)
			}
		}
	}
	if ok, failed := m.Requests(); ok != uint64(streams+1) || failed != 1 {
		t.Errorf("requests: %d ok, %d failed; want %d and 1", ok, failed, streams+1)
	}
	scrape(t, gw.URL, streams, chunks)
	gw.Close()
}

// scrape reads /metrics as Prometheus would, in text and in protobuf.
func scrape(t *testing.T, base string, streams, chunks int) {
	t.Helper()
	body, ctype := get(t, base+"/metrics", "text/plain;version=0.0.4")
	if !strings.HasPrefix(ctype, "text/plain; version=0.0.4") {
		t.Errorf("text scrape: Content-Type %q", ctype)
	}
	for _, want := range []string{
		fmt.Sprintf("%s_count %d\n", MetricTTFT, streams),
		fmt.Sprintf("%s_count %d\n", MetricITL, chunks-streams),
		fmt.Sprintf("%s_count %d\n", MetricE2E, streams+1),
		fmt.Sprintf("%s{outcome=\"ok\"} %d\n", MetricRequests, streams+1),
		fmt.Sprintf("%s{outcome=\"failed\"} 1\n", MetricRequests),
		"# TYPE " + MetricITL + " histogram\n",
		MetricTTFT + `_bucket{le="0.001"} 0` + "\n", // vLLM's TTFT bounds start at 1 ms
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
	accept := "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3"
	body, ctype = get(t, base+"/metrics", accept)
	if !strings.HasPrefix(ctype, "application/vnd.google.protobuf") || !strings.Contains(body, MetricE2E) {
		t.Errorf("protobuf scrape: Content-Type %q, %d bytes", ctype, len(body))
	}
}

func get(t *testing.T, u, accept string) (string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %v %s", u, err, resp.Status)
	}
	return string(b), resp.Header.Get("Content-Type")
}
