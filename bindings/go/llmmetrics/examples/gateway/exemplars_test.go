package gateway

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// A traced request leaves its trace id on the E2E bucket that holds its latency and on the
// outcome counter, in OpenMetrics and in protobuf; untraced and malformed ones leave none.
func TestGatewayExemplarsFromTraceparent(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("fail") != "" {
			http.Error(w, "no", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{}`)
	}))
	defer up.Close()
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	target, _ := url.Parse(up.URL)
	gw := httptest.NewServer(m.Handler(target))
	defer gw.Close()

	send := func(path, traceparent string) {
		req, _ := http.NewRequest(http.MethodGet, gw.URL+path, nil)
		if traceparent != "" {
			req.Header.Set("traceparent", traceparent)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	const okTrace = "0af7651916cd43dd8448eb211c80319c"
	const failTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	send("/v1/x", "")                                   // untraced
	send("/v1/x", "00-"+okTrace+"-b7ad6b7169203331-01") // traced
	send("/v1/x", "00-ZZZ-b7ad6b7169203331-01")         // malformed: no exemplar
	send("/v1/x?fail=1", "00-"+failTrace+"-00f067aa0ba902b7-01")

	om := "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
	body, ctype := get(t, gw.URL+"/metrics", om)
	if !strings.HasPrefix(ctype, "application/openmetrics-text") || !strings.HasSuffix(body, "# EOF\n") {
		t.Fatalf("OpenMetrics scrape: %q\n%s", ctype, body)
	}
	e2e := regexp.MustCompile(MetricE2E + `_bucket\{le="[^"]+"\} (\d+) # \{trace_id="` + okTrace + `",span_id="b7ad6b7169203331"\} \S+ \S+\n`)
	if n := len(e2e.FindAllString(body, -1)); n != 1 {
		t.Errorf("%d E2E buckets carry the traced request's exemplar, want 1:\n%s", n, body)
	}
	if strings.Count(body, "trace_id=") != 3 { // E2E bucket, ok counter, failed counter
		t.Errorf("want exactly 3 exemplars:\n%s", body)
	}
	for _, want := range []string{
		`gateway_requests_total{outcome="ok"} 3 # {trace_id="` + okTrace + `"`,
		`gateway_requests_total{outcome="failed"} 1 # {trace_id="` + failTrace + `"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
	body, _ = get(t, gw.URL+"/metrics", "text/plain;version=0.0.4")
	if strings.Contains(body, "trace_id") {
		t.Error("0.0.4 text carries exemplars")
	}
	pb := "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"
	body, _ = get(t, gw.URL+"/metrics", pb)
	if !strings.Contains(body, okTrace) || !strings.Contains(body, failTrace) {
		t.Error("protobuf scrape lacks the exemplars")
	}
}
