package llmmetrics

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"testing"
)

// The JSON form of a request against the sketch's own totals and raw bucket counts, the
// protobuf form's outer fields read back by hand, and spans.
func TestOTLPMetrics(t *testing.T) {
	data := lognormal(44, 3000, 0.2, 1)
	s := testSketch(t)
	mustOK(t, s.AddMany(data))
	ex := OTLPExemplar{Value: 0.5, TimeUnixNano: 7}
	for i := range ex.TraceID {
		ex.TraceID[i] = byte(i + 1)
	}
	ex.SpanID[0] = 9
	ms := []OTLPMetric{
		{Name: "ttft", Unit: "s", Type: OTLPExponentialHistogram, Points: []OTLPPoint{
			{Sketch: s, Attributes: `outcome="ok"`, TimeUnixNano: 99, Exemplars: []OTLPExemplar{ex}}}},
		{Name: "requests", Type: OTLPSum, Monotonic: true, Points: []OTLPPoint{{Value: 12}}},
	}
	out, err := OTLPMetrics(ms, OTLPScope{ResourceAttributes: `service.name="go"`}, OTLPJSONEncoding)
	mustOK(t, err)
	var doc struct {
		ResourceMetrics []struct {
			ScopeMetrics []struct {
				Metrics []struct {
					Name                 string
					ExponentialHistogram struct {
						AggregationTemporality int
						DataPoints             []struct {
							Count    string
							Sum, Min float64
							Max      float64
							Scale    int
							Positive struct {
								Offset       int
								BucketCounts []string
							}
							Exemplars []struct{ TraceID, SpanID string }
						}
					}
					Sum struct {
						IsMonotonic bool
						DataPoints  []struct{ AsDouble float64 }
					}
				}
			}
		}
	}
	mustOK(t, json.Unmarshal(out, &doc))
	m := doc.ResourceMetrics[0].ScopeMetrics[0].Metrics
	p := m[0].ExponentialHistogram.DataPoints[0]
	if p.Count != "3000" || m[0].ExponentialHistogram.AggregationTemporality != int(OTLPCumulative) {
		t.Errorf("count %s, temporality %d", p.Count, m[0].ExponentialHistogram.AggregationTemporality)
	}
	mn, _ := s.Min()
	mx, _ := s.Max()
	if p.Min != mn || p.Max != mx || p.Scale != s.Scale() {
		t.Errorf("min %v max %v scale %d", p.Min, p.Max, p.Scale)
	}
	want := map[int]int{}
	for _, v := range data {
		i, err := BucketIndex(s.Scale(), v)
		mustOK(t, err)
		want[i]++
	}
	got := map[int]int{}
	for k, c := range p.Positive.BucketCounts {
		if c != "0" {
			var n int
			mustOK(t, json.Unmarshal([]byte(c), &n))
			got[p.Positive.Offset+k] = n
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d buckets, want %d", len(got), len(want))
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("bucket %d: %d, want %d", k, got[k], n)
		}
	}
	if p.Exemplars[0].TraceID != hex.EncodeToString(ex.TraceID[:]) || p.Exemplars[0].SpanID != "0900000000000000" {
		t.Errorf("exemplar ids %+v", p.Exemplars[0])
	}
	if !m[1].Sum.IsMonotonic || m[1].Sum.DataPoints[0].AsDouble != 12 {
		t.Errorf("sum %+v", m[1].Sum)
	}
	// protobuf: field 1 (resource_metrics), length-delimited, holding the rest
	pb, err := OTLPMetrics(ms, OTLPScope{}, OTLPProtobuf)
	mustOK(t, err)
	if pb[0] != 0x0a || len(pb) < 100 {
		t.Errorf("protobuf starts %x, %d bytes", pb[:2], len(pb))
	}
	// errors: a histogram point without a sketch, an empty name
	_, err = OTLPMetrics([]OTLPMetric{{Name: "h", Type: OTLPHistogram, Points: []OTLPPoint{{}}}}, OTLPScope{}, OTLPProtobuf)
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("no sketch: %v", err)
	}
	_, err = OTLPMetrics([]OTLPMetric{{Type: OTLPGauge}}, OTLPScope{}, OTLPProtobuf)
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("empty name: %v", err)
	}
}

func TestOTLPTraces(t *testing.T) {
	sp := OTLPSpan{Name: "chat", StartTimeUnixNano: 5, EndTimeUnixNano: 9,
		Attributes: []OTLPAttribute{{"tokens", 12}, {"ttft", 0.25}, {"outcome", "ok"}},
		StatusCode: OTLPStatusError, StatusMessage: "503"}
	sp.TraceID[15] = 0xab
	sp.SpanID[0] = 1
	out, err := OTLPTraces([]OTLPSpan{sp}, OTLPScope{Name: "llmm bench"}, OTLPJSONEncoding)
	mustOK(t, err)
	var doc struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Scope struct{ Name string }
				Spans []struct {
					TraceID, SpanID, Name string
					Kind                  int
					StartTimeUnixNano     string
					Attributes            []struct {
						Key   string
						Value map[string]any
					}
					Status struct {
						Message string
						Code    int
					}
				}
			}
		}
	}
	mustOK(t, json.Unmarshal(out, &doc))
	ss := doc.ResourceSpans[0].ScopeSpans[0]
	s := ss.Spans[0]
	if ss.Scope.Name != "llmm bench" || s.TraceID != "000000000000000000000000000000ab" ||
		s.SpanID != "0100000000000000" || s.Kind != int(OTLPSpanClient) || s.StartTimeUnixNano != "5" {
		t.Errorf("span %+v", s)
	}
	if s.Attributes[0].Value["intValue"] != "12" || s.Attributes[1].Value["doubleValue"] != 0.25 ||
		s.Attributes[2].Value["stringValue"] != "ok" {
		t.Errorf("attributes %+v", s.Attributes)
	}
	if s.Status.Code != 2 || s.Status.Message != "503" {
		t.Errorf("status %+v", s.Status)
	}
	sp.EndTimeUnixNano = 1 // before the start
	if _, err := OTLPTraces([]OTLPSpan{sp}, OTLPScope{}, OTLPProtobuf); !errors.Is(err, ErrInvalid) {
		t.Errorf("end before start: %v", err)
	}
	sp.EndTimeUnixNano = 9
	sp.Attributes = []OTLPAttribute{{"b", true}}
	if _, err := OTLPTraces([]OTLPSpan{sp}, OTLPScope{}, OTLPProtobuf); !errors.Is(err, ErrInvalid) {
		t.Errorf("bool attribute: %v", err)
	}
}
