package gateway_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"

	"llmmetrics/examples/gateway"
)

// A gateway in front of a model server: the middleware wraps the reverse proxy, the same
// Metrics serves /metrics. Here the model server is a test server streaming three chunks.
func ExampleMetrics() {
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, chunk := range []string{"Hello", ",", " world"} {
			fmt.Fprintf(w, "data: {\"choices\":[{\"text\":%q}]}\n\n", chunk)
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer model.Close()

	m, err := gateway.New()
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	target, _ := url.Parse(model.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1 // pass every chunk on at once
	mux := http.NewServeMux()
	mux.Handle("/v1/", m.Wrap(proxy))
	mux.Handle("/metrics", m)
	gw := httptest.NewServer(mux)
	defer gw.Close()

	resp, err := http.Post(gw.URL+"/v1/completions", "application/json", nil)
	if err != nil {
		log.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()

	ttft, itl, e2e, err := m.Snapshots()
	if err != nil {
		log.Fatal(err)
	}
	defer ttft.Close()
	defer itl.Close()
	defer e2e.Close()
	fmt.Printf("TTFT %d, ITL %d, E2E %d values\n", ttft.Count(), itl.Count(), e2e.Count())
	// Output: TTFT 1, ITL 2, E2E 1 values
}
