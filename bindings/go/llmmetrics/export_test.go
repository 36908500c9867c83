package llmmetrics

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var bucketLine = regexp.MustCompile(`^(\w+)_bucket\{(.*)le="([^"]+)"\} (\d+)$`)

// The text family of a wide sketch (several buffer growths): every cumulative count equals
// the number of raw values at or below its le bound, exactly, and sum and count agree.
func TestPrometheusText(t *testing.T) {
	data := lognormal(31, 20000, 0.2, 2)
	s := testSketch(t)
	mustOK(t, s.AddMany(data))
	mustOK(t, s.AddN(0, 3))
	data = append(data, 0, 0, 0)
	out, err := s.PrometheusText("request_latency_seconds", `model="m\"x",gpu="0"`, 1)
	mustOK(t, err)
	if len(out) <= 4096 {
		t.Fatalf("output of %d bytes does not exercise the buffer growth", len(out))
	}
	sorted := sortedCopy(data)
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "# HELP request_latency_seconds ") {
		t.Errorf("first line %q", lines[0])
	}
	if lines[1] != "# TYPE request_latency_seconds histogram" {
		t.Errorf("second line %q", lines[1])
	}
	buckets := 0
	var last uint64
	for _, line := range lines[2:] {
		m := bucketLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		buckets++
		if m[1] != "request_latency_seconds" || m[2] != `model="m\"x",gpu="0",` {
			t.Fatalf("line %q", line)
		}
		le, err := strconv.ParseFloat(m[3], 64)
		if m[3] == "+Inf" {
			le, err = math.Inf(1), nil
		}
		mustOK(t, err)
		n, _ := strconv.ParseUint(m[4], 10, 64)
		want := uint64(countAtMost(sorted, le))
		if n != want || n < last {
			t.Fatalf("le=%v: %d, raw data %d (previous %d)", le, n, want, last)
		}
		last = n
	}
	if buckets < 50 || last != uint64(len(data)) {
		t.Fatalf("%d bucket lines, +Inf count %d", buckets, last)
	}
	tail := lines[len(lines)-2:]
	if tail[0] != `request_latency_seconds_sum{model="m\"x",gpu="0"} `+formatGo(s.Sum()) ||
		tail[1] != `request_latency_seconds_count{model="m\"x",gpu="0"} `+strconv.Itoa(len(data)) {
		t.Errorf("tail %q", tail)
	}
	// Milliseconds exported as seconds: the count stays, the sum scales.
	ms, err := s.PrometheusText("x_seconds", "", 1e-3)
	mustOK(t, err)
	if !bytes.Contains(ms, []byte("x_seconds_count "+strconv.Itoa(len(data))+"\n")) {
		t.Errorf("scaled output lacks the count")
	}
	for _, bad := range []struct{ name, labels string }{
		{"9bad", ""}, {"ok", "le=\"1\""}, {"ok", "a=b"}, {"ok", `a="1",a="2"`}, {"n\x00", ""},
	} {
		_, err := s.PrometheusText(bad.name, bad.labels, 1)
		wantStatus(t, err, ErrInvalid)
	}
	_, err = s.PrometheusText("ok", "", 0)
	wantStatus(t, err, ErrInvalid)
}

func countAtMost(sorted []float64, b float64) int {
	n := 0
	for _, v := range sorted {
		if v <= b {
			n++
		}
	}
	return n
}

// formatGo spells a float as the exposition does (Go's shortest %g).
func formatGo(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func TestEscapeLabelValue(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"}, {"", ""}, {`a"b`, `a\"b`}, {`back\slash`, `back\\slash`},
		{"two\nlines", `two\nlines`}, {"ünïcode ✓", "ünïcode ✓"},
	}
	for _, c := range cases {
		got, err := EscapeLabelValue(c.in)
		mustOK(t, err)
		if got != c.want {
			t.Errorf("EscapeLabelValue(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"\xff", "a\x00b"} {
		_, err := EscapeLabelValue(bad)
		wantStatus(t, err, ErrInvalid)
	}
}

func TestPromNegotiate(t *testing.T) {
	const proto = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"
	cases := []struct {
		accept string
		want   PromFormat
	}{
		{"", PromText},
		{"text/plain;version=0.0.4", PromText},
		{proto + ";q=0.7,text/plain;version=0.0.4;q=0.3", PromProtobuf},
		{proto + ";q=0.3,text/plain;version=0.0.4;q=0.7", PromText},
		{proto + ";q=0.5,*/*;q=0.5", PromProtobuf},
		{"garbage;;;", PromText},
	}
	for _, c := range cases {
		f, ct := PromNegotiate(c.accept)
		if f != c.want || ct != c.want.ContentType() {
			t.Errorf("PromNegotiate(%q) = %v %q, want %v", c.accept, f, ct, c.want)
		}
	}
	if PromText.ContentType() != "text/plain; version=0.0.4; charset=utf-8" ||
		PromProtobuf.ContentType() != "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited" ||
		PromFormat(9).ContentType() != "" {
		t.Error("content types")
	}
}

func TestPromBuckets(t *testing.T) {
	genai, err := PromBuckets(BucketsOTelGenAIDuration)
	mustOK(t, err)
	tokens, err := PromBuckets(BucketsOTelGenAITokens)
	mustOK(t, err)
	if len(genai) != 14 || len(tokens) != 14 {
		t.Fatalf("lengths %d %d", len(genai), len(tokens))
	}
	for k := 0; k < 14; k++ {
		if genai[k] != 0.01*math.Ldexp(1, k) || tokens[k] != math.Ldexp(1, 2*k) {
			t.Errorf("k=%d: %v %v", k, genai[k], tokens[k])
		}
	}
	ttft, err := PromBuckets(BucketsVLLMTTFT)
	mustOK(t, err)
	if len(ttft) != 22 || ttft[0] != 0.001 || ttft[21] != 2560 {
		t.Errorf("vLLM TTFT %v", ttft)
	}
	for _, which := range []BucketList{BucketsVLLMInterToken, BucketsVLLMRequestLatency, BucketsOTelGenAITTFT, BucketsOTelGenAITPOT} {
		b, err := PromBuckets(which)
		mustOK(t, err)
		for i := 1; i < len(b); i++ {
			if !(b[i] > b[i-1]) {
				t.Errorf("list %d not increasing: %v", which, b)
			}
		}
	}
	_, err = PromBuckets(BucketList(99))
	wantStatus(t, err, ErrInvalid)
}

func TestPromWriter(t *testing.T) {
	s := testSketch(t)
	mustOK(t, s.AddMany(lognormal(32, 5000, 0.2, 1)))
	w, err := NewPromWriter(PromText)
	mustOK(t, err)
	defer w.Close()

	wantStatus(t, w.AddValue("", 1), ErrState)
	mustOK(t, w.Family("requests_total", "Requests served.", PromCounter, nil))
	mustOK(t, w.AddValue(`code="200"`, 120))
	mustOK(t, w.AddValue(`code="500"`, 3))
	wantStatus(t, w.AddSketch("", s, 1), ErrState)
	wantStatus(t, w.AddValue(`code=500`, 1), ErrInvalid)
	wantStatus(t, w.Family("requests_total", "", PromGauge, nil), ErrState)
	qs := []float64{0.5, 0.99}
	mustOK(t, w.Family("latency_seconds", "", PromSummary, qs))
	mustOK(t, w.AddSketch(`route="/v1"`, s, 1))
	bounds, err := PromBuckets(BucketsOTelGenAIDuration)
	mustOK(t, err)
	mustOK(t, w.Family("duration_seconds", "Duration.", PromHistogram, bounds))
	mustOK(t, w.AddSketch("", s, 1))
	wantStatus(t, w.Family("bad name", "", PromGauge, nil), ErrInvalid)
	wantStatus(t, w.Family("bad_points", "", PromHistogram, []float64{2, 1}), ErrInvalid)

	out, err := w.Finish()
	mustOK(t, err)
	text := string(out)
	for _, want := range []string{
		"# TYPE requests_total counter\n", "requests_total{code=\"200\"} 120\n", "requests_total{code=\"500\"} 3\n",
		"# TYPE latency_seconds summary\n", "# TYPE duration_seconds histogram\n",
		"duration_seconds_bucket{le=\"+Inf\"} 5000\n", "duration_seconds_count 5000\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q:\n%s", want, text)
		}
	}
	for _, q := range qs {
		v, _ := s.Quantile(q)
		line := `latency_seconds{route="/v1",quantile="` + formatGo(q) + `"} ` + formatGo(v) + "\n"
		if !strings.Contains(text, line) {
			t.Errorf("exposition lacks %q", line)
		}
	}
	var viaWriteTo bytes.Buffer
	n, err := w.WriteTo(&viaWriteTo)
	mustOK(t, err)
	if n != int64(len(out)) || !bytes.Equal(viaWriteTo.Bytes(), out) {
		t.Error("WriteTo and Finish differ")
	}

	// Protobuf: length-delimited MetricFamily messages, one per family with series.
	mustOK(t, w.Reset(PromProtobuf))
	mustOK(t, w.Family("requests_total", "", PromCounter, nil))
	mustOK(t, w.AddValue("", 1))
	mustOK(t, w.Family("latency_seconds", "", PromNativeHistogram, nil))
	mustOK(t, w.AddSketch("", s, 1))
	mustOK(t, w.Family("empty_total", "", PromCounter, nil))
	pb, err := w.Finish()
	mustOK(t, err)
	frames := 0
	for rest := pb; len(rest) > 0; frames++ {
		size, k := binary.Uvarint(rest)
		if k <= 0 || uint64(len(rest)-k) < size {
			t.Fatalf("bad frame at %d", len(pb)-len(rest))
		}
		rest = rest[k+int(size):]
	}
	if frames != 2 || !bytes.Contains(pb, []byte("latency_seconds")) {
		t.Errorf("%d protobuf frames", frames)
	}
	wantStatus(t, w.Reset(PromFormat(7)), ErrInvalid)
	_, err = NewPromWriter(PromFormat(7))
	wantStatus(t, err, ErrInvalid)
	mustOK(t, w.Close())
	mustOK(t, w.Close())
	_, err = w.Finish()
	wantStatus(t, err, ErrState)
}

type otlpPoint struct {
	StartTimeUnixNano string  `json:"startTimeUnixNano"`
	TimeUnixNano      string  `json:"timeUnixNano"`
	Count             string  `json:"count"`
	Sum               float64 `json:"sum"`
	Scale             int     `json:"scale"`
	ZeroCount         string  `json:"zeroCount"`
	Positive          struct {
		Offset       int      `json:"offset"`
		BucketCounts []string `json:"bucketCounts"`
	} `json:"positive"`
	Min        float64 `json:"min"`
	Max        float64 `json:"max"`
	Attributes []struct {
		Key   string `json:"key"`
		Value struct {
			StringValue string `json:"stringValue"`
		} `json:"value"`
	} `json:"attributes"`
}

func (p otlpPoint) total(t *testing.T) uint64 {
	var n uint64
	for _, c := range p.Positive.BucketCounts {
		v, err := strconv.ParseUint(c, 10, 64)
		mustOK(t, err)
		n += v
	}
	z, _ := strconv.ParseUint(p.ZeroCount, 10, 64)
	return n + z
}

func TestOTLPJSON(t *testing.T) {
	data := lognormal(33, 3000, 0.2, 1)
	s := testSketch(t)
	mustOK(t, s.AddMany(data[:1000]))
	earlier, err := s.Clone()
	mustOK(t, err)
	defer earlier.Close()
	mustOK(t, s.AddMany(data[1000:]))

	raw, err := s.OTLPJSONPoint(nil, nil)
	mustOK(t, err)
	var p otlpPoint
	mustOK(t, json.Unmarshal(raw, &p))
	offset, counts, err := s.Buckets()
	mustOK(t, err)
	mn, _ := s.Min()
	mx, _ := s.Max()
	if p.Count != "3000" || p.Sum != s.Sum() || p.Scale != ScaleDefault || p.Positive.Offset != offset ||
		len(p.Positive.BucketCounts) != len(counts) || p.Min != mn || p.Max != mx {
		t.Fatalf("point %+v", p)
	}
	for i, c := range counts {
		if p.Positive.BucketCounts[i] != strconv.FormatUint(c, 10) {
			t.Fatalf("bucket %d: %s, sketch %d", offset+i, p.Positive.BucketCounts[i], c)
		}
	}

	opts := DefaultOTLPOptions()
	if opts.UnitToSeconds != 1 || opts.Temporality != OTLPCumulative || opts.MaxBuckets != 0 {
		t.Fatalf("defaults %+v", opts)
	}
	opts.Temporality = OTLPDelta
	opts.StartTimeUnixNano, opts.TimeUnixNano = 1000, 2000
	opts.Attributes = `gen_ai.request.model="llama"`
	raw, err = s.OTLPJSONPoint(earlier, &opts)
	mustOK(t, err)
	p = otlpPoint{}
	mustOK(t, json.Unmarshal(raw, &p))
	if p.Count != "2000" || p.total(t) != 2000 || p.StartTimeUnixNano != "1000" || p.TimeUnixNano != "2000" ||
		len(p.Attributes) != 1 || p.Attributes[0].Key != "gen_ai.request.model" || p.Attributes[0].Value.StringValue != "llama" {
		t.Fatalf("delta point %+v", p)
	}
	_, err = s.OTLPJSONPoint(earlier, nil) // cumulative with earlier
	wantStatus(t, err, ErrInvalid)

	opts = DefaultOTLPOptions()
	opts.MaxBuckets = 20
	raw, err = s.OTLPJSONPoint(nil, &opts)
	mustOK(t, err)
	p = otlpPoint{}
	mustOK(t, json.Unmarshal(raw, &p))
	if len(p.Positive.BucketCounts) > 20 || p.Scale >= ScaleDefault || p.total(t) != 3000 {
		t.Fatalf("limited point: scale %d, %d buckets, total %d", p.Scale, len(p.Positive.BucketCounts), p.total(t))
	}

	opts = DefaultOTLPOptions()
	opts.Description = "Request latency."
	opts.ResourceAttributes = `service.name="gateway"`
	raw, err = s.OTLPJSON(nil, "gen_ai.server.request.duration", &opts)
	mustOK(t, err)
	var req struct {
		ResourceMetrics []struct {
			Resource struct {
				Attributes []struct {
					Key string `json:"key"`
				} `json:"attributes"`
			} `json:"resource"`
			ScopeMetrics []struct {
				Scope struct {
					Name string `json:"name"`
				} `json:"scope"`
				Metrics []struct {
					Name                 string `json:"name"`
					Description          string `json:"description"`
					Unit                 string `json:"unit"`
					ExponentialHistogram struct {
						DataPoints             []otlpPoint `json:"dataPoints"`
						AggregationTemporality int         `json:"aggregationTemporality"`
					} `json:"exponentialHistogram"`
				} `json:"metrics"`
			} `json:"scopeMetrics"`
		} `json:"resourceMetrics"`
	}
	mustOK(t, json.Unmarshal(raw, &req))
	rm := req.ResourceMetrics[0]
	m := rm.ScopeMetrics[0].Metrics[0]
	if rm.Resource.Attributes[0].Key != "service.name" || rm.ScopeMetrics[0].Scope.Name != "libllmmetrics" ||
		m.Name != "gen_ai.server.request.duration" || m.Description != "Request latency." || m.Unit != "s" ||
		m.ExponentialHistogram.AggregationTemporality != int(OTLPCumulative) ||
		m.ExponentialHistogram.DataPoints[0].Count != "3000" {
		t.Fatalf("request %s", raw)
	}
	_, err = s.OTLPJSON(nil, "", nil)
	wantStatus(t, err, ErrInvalid)
	opts.MaxBuckets = -1
	_, err = s.OTLPJSON(nil, "x", &opts)
	wantStatus(t, err, ErrInvalid)
}

// The bounded classic fallback: a default list, a chosen list, and the downscaled grid with
// exact counts, whatever the number of buckets the sketch has touched.
func TestPromWriterClassicLayouts(t *testing.T) {
	data := make([]float64, 600)
	for k := range data {
		data[k] = 1e-3 * math.Pow(10, 6*float64(k)/599)
	}
	s := testSketch(t)
	mustOK(t, s.AddMany(data))
	w, err := NewPromWriter(PromText)
	mustOK(t, err)
	defer w.Close()
	family := func(name string, typ PromType) map[float64]uint64 {
		mustOK(t, w.Family(name, "", typ, nil))
		mustOK(t, w.AddSketch("", s, 1))
		out, err := w.Finish()
		mustOK(t, err)
		got := map[float64]uint64{}
		for _, line := range strings.Split(string(out), "\n") {
			m := bucketLine.FindStringSubmatch(line)
			if m == nil || m[1] != name || m[3] == "+Inf" {
				continue
			}
			le, err := strconv.ParseFloat(m[3], 64)
			mustOK(t, err)
			n, _ := strconv.ParseUint(m[4], 10, 64)
			got[le] = n
		}
		return got
	}
	duration, err := PromBuckets(BucketsOTelGenAIDuration)
	mustOK(t, err)
	if got := family("default_seconds", PromNativeHistogram); len(got) != len(duration) {
		t.Fatalf("default layout: %d bounds, want the %d of the OTel duration list", len(got), len(duration))
	}
	mustOK(t, w.SetClassicList(BucketsOTelGenAITTFT))
	if got := family("ttft_seconds", PromHistogram); len(got) != 16 {
		t.Fatalf("OTel TTFT list: %d bounds", len(got))
	}
	mustOK(t, w.SetClassicMax(20))
	grid := family("grid_seconds", PromNativeHistogram)
	if len(grid) < 3 || len(grid) > 20 {
		t.Fatalf("grid layout: %d bounds, want 3 … 20", len(grid))
	}
	sorted := sortedCopy(data)
	for le, n := range grid {
		if want := uint64(countAtMost(sorted, le)); n != want {
			t.Errorf("grid le=%v: %d, raw data %d", le, n, want)
		}
	}
	wantStatus(t, w.SetClassicMax(2), ErrInvalid)
	wantStatus(t, w.SetClassicList(BucketList(99)), ErrInvalid)
	mustOK(t, w.Close())
	if err := w.SetClassicMax(10); err == nil {
		t.Error("SetClassicMax on a closed writer succeeded")
	}
}
