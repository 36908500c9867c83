package llmmetrics

import (
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const w3cExample = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

var omBucket = regexp.MustCompile(`^(\w+)_bucket\{le="([^"]+)"\} (\d+)(?: # \{trace_id="([0-9a-f]{32})",span_id="([0-9a-f]{16})"\} (\S+) (\S+))?$`)

func idOf(k int) (tr [16]byte, sp [8]byte) {
	tr[0], tr[15] = byte(k>>8)|0x80, byte(k)
	sp[7] = 1
	return
}

// The latest exemplar per slot; every goroutine through its own shard.
func TestExemplarsShards(t *testing.T) {
	x, err := NewExemplars([]float64{1, 2}, ExemplarLatest)
	mustOK(t, err)
	defer x.Close()
	if x.Slots() != 3 {
		t.Fatalf("slots %d", x.Slots())
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			sh, err := x.Shard()
			if err != nil {
				t.Error(err)
				return
			}
			defer sh.Release()
			for i := 0; i < 1000; i++ {
				k := i*4 + g + 1
				tr, sp := idOf(k)
				if err := sh.Record(Exemplar{Value: 1.5, TraceID: tr, SpanID: sp, TimeUnixNano: uint64(k)}); err != nil {
					t.Error(err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	e, ok, err := x.Get(1)
	mustOK(t, err)
	tr, sp := idOf(4000)
	if !ok || e.TimeUnixNano != 4000 || e.TraceID != tr || e.SpanID != sp || e.Value != 1.5 {
		t.Fatalf("slot 1: %+v %v", e, ok)
	}
	if _, ok, err := x.Get(0); ok || err != nil {
		t.Fatalf("slot 0 should be empty: %v %v", ok, err)
	}
	sh, err := x.Shard()
	mustOK(t, err)
	if err := sh.Record(Exemplar{Value: 1, TraceID: tr, Labels: "a=b"}); err == nil {
		t.Fatal("a malformed label list was accepted")
	}
	sh.Release()
	sh.Release()
}

func TestExemplarsMaxRoll(t *testing.T) {
	x, err := NewExemplars(nil, ExemplarMax)
	mustOK(t, err)
	defer x.Close()
	sh, err := x.Shard()
	mustOK(t, err)
	defer sh.Release()
	for _, v := range []float64{5, 3, 7, 6} {
		mustOK(t, sh.Record(Exemplar{Value: v}))
	}
	if e, _, _ := x.Get(0); e.Value != 7 {
		t.Fatalf("max %v", e.Value)
	}
	mustOK(t, x.Roll())
	mustOK(t, sh.Record(Exemplar{Value: 2}))
	if e, _, _ := x.Get(0); e.Value != 2 {
		t.Fatalf("after the roll %v", e.Value)
	}
	if _, err := NewExemplars([]float64{2, 1}, ExemplarLatest); err == nil {
		t.Fatal("decreasing bounds accepted")
	}
}

// OpenMetrics with exemplars: each bucket carries the latest exemplar whose value lies in it,
// computed here from the offers alone; the counter carries its own; one # EOF at the end.
func TestOpenMetricsExemplars(t *testing.T) {
	bounds := []float64{0.1, 0.5, 1}
	data := []float64{0.05, 0.2, 0.3, 0.7, 2, 0.4}
	s := testSketch(t)
	mustOK(t, s.AddMany(data))
	x, err := NewExemplars(bounds, ExemplarLatest)
	mustOK(t, err)
	defer x.Close()
	sh, err := x.Shard()
	mustOK(t, err)
	want := map[string]string{}
	for i, v := range data {
		tr, sp := idOf(i + 1)
		mustOK(t, sh.Record(Exemplar{Value: v, TraceID: tr, SpanID: sp, TimeUnixNano: 1733300000000000000 + uint64(i)*1000000}))
		le := "+Inf"
		for _, b := range bounds {
			if v <= b {
				le = strconv.FormatFloat(b, 'g', -1, 64)
				if !strings.ContainsAny(le, ".e") {
					le += ".0"
				}
				break
			}
		}
		want[le] = hex.EncodeToString(tr[:])
	}
	sh.Release()
	w, err := NewPromWriter(PromOpenMetrics)
	mustOK(t, err)
	defer w.Close()
	mustOK(t, w.Family("lat_seconds", "", PromHistogram, bounds))
	mustOK(t, w.AddSketchExemplars("", s, 1, x))
	mustOK(t, w.Family("req_total", "", PromCounter, nil))
	e, _, err := x.Get(0)
	mustOK(t, err)
	mustOK(t, w.AddValueExemplar("", 6, &e))
	out, err := w.Finish()
	mustOK(t, err)
	text := string(out)
	if !strings.HasSuffix(text, "\n# EOF\n") || strings.Count(text, "# EOF") != 1 {
		t.Fatalf("no single # EOF at the end:\n%s", text)
	}
	got := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if m := omBucket.FindStringSubmatch(line); m != nil && m[4] != "" {
			got[m[2]] = m[4]
		}
	}
	if len(got) != len(want) {
		t.Fatalf("exemplars on %v, want %v:\n%s", got, want, text)
	}
	for le, tr := range want {
		if got[le] != tr {
			t.Fatalf("le=%s: trace %s, want %s", le, got[le], tr)
		}
	}
	if !strings.Contains(text, "# TYPE req counter\nreq_total 6 # {trace_id=\"8000000000000000000000000000000"+"1\",span_id=\"0000000000000001\"} 0.05 1733300000\n") {
		t.Fatalf("counter exemplar missing:\n%s", text)
	}
	if f, ct := PromNegotiateOpenMetrics("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"); f != PromOpenMetrics ||
		ct != "application/openmetrics-text; version=1.0.0; charset=utf-8" {
		t.Fatalf("negotiation: %v %q", f, ct)
	}
	if f, _ := PromNegotiate("application/openmetrics-text;version=1.0.0"); f != PromText {
		t.Fatal("the 1.0 negotiation must not answer OpenMetrics")
	}
}

func TestTraceparent(t *testing.T) {
	tr, sp, fl, err := ParseTraceparent(w3cExample)
	mustOK(t, err)
	if hex.EncodeToString(tr[:]) != "4bf92f3577b34da6a3ce929d0e0e4736" || hex.EncodeToString(sp[:]) != "00f067aa0ba902b7" || fl != 1 {
		t.Fatalf("parsed %x %x %d", tr, sp, fl)
	}
	s, err := FormatTraceparent(tr, sp, fl)
	mustOK(t, err)
	if s != w3cExample {
		t.Fatalf("formatted %q", s)
	}
	for _, bad := range []string{strings.ToUpper(w3cExample), "ff" + w3cExample[2:], w3cExample + "-x", ""} {
		if _, _, _, err := ParseTraceparent(bad); err == nil {
			t.Fatalf("accepted %q", bad)
		}
	}
	if _, err := FormatTraceparent([16]byte{}, sp, 1); err == nil {
		t.Fatal("zero trace id formatted")
	}
}
