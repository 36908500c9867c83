// Command llmm-gateway is a reverse proxy in front of one LLM server (OpenAI-compatible, such
// as vLLM) that measures the TTFT, ITL and E2E of the responses it passes on and serves them
// on /metrics (package llmmetrics/examples/gateway).
//
//	llmm-gateway -upstream http://localhost:8000 -listen :8080
//	curl -N localhost:8080/v1/completions -d '{"model": "...", "prompt": "Hi", "stream": true}'
//	curl localhost:8080/metrics
package main

import (
	"flag"
	"log"
	"net"
	"net/url"

	"llmmetrics/examples/gateway"
)

func main() {
	upstream := flag.String("upstream", "http://localhost:8000", "the model server's base URL")
	listen := flag.String("listen", ":8080", "address to serve on")
	flag.Parse()
	target, err := url.Parse(*upstream)
	if err != nil || target.Host == "" {
		log.Fatalf("llmm-gateway: -upstream %q is not a URL", *upstream)
	}
	m, err := gateway.New()
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	// the limits of every HTTP endpoint of the project (doc/exporting.md)
	limits := gateway.DefaultLimits()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("llmm-gateway: %s -> %s, metrics on /metrics", *listen, target)
	log.Fatal(limits.Server(m.Handler(target)).Serve(limits.Listener(ln)))
}
