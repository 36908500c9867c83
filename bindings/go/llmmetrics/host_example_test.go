package llmmetrics_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"llmmetrics"
)

// Sample host signals from a captured tree that stands for "/" ("" samples the host itself).
// Between two samples 0.5 s apart the tree's context-switch counter grows by 500 and its CPU
// pressure stall total by 150 ms: 1000 switches/s (no event by default) and 0.3 stall s/s,
// above the default 0.2, so one cpu.pressure event. The tree has no other signal.
func ExampleHostSampler() {
	root, err := os.MkdirTemp("", "host")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	write := func(rel, text string) { // in place: the sampler keeps its files open
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	write("proc/stat", "cpu  1 0 1 100 0 0 0 0 0 0\nctxt 1000\n")
	write("proc/pressure/cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000000\n")

	s, err := llmmetrics.NewHostSampler(root)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	events, _ := llmmetrics.NewEventLog(0)
	defer events.Close()

	sec := uint64(time.Second)
	_ = s.Sample(10*sec, events)
	write("proc/stat", "cpu  1 0 1 150 0 0 0 0 0 0\nctxt 1500\n")
	write("proc/pressure/cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 total=1150000\n")
	_ = s.Sample(10*sec+sec/2, events)

	for _, sig := range []llmmetrics.HostSignal{llmmetrics.HostCtxSwitches, llmmetrics.HostPSICPU,
		llmmetrics.HostTCPRetrans} {
		rate, err := s.Rate(sig)
		fmt.Println(sig, rate, err != nil)
	}
	caused, _ := events.Lookback(10*sec+sec/2, 0)
	for _, e := range caused {
		fmt.Println(e.Type, e.Value)
	}
	// Output:
	// ctx_switches 1000 false
	// psi_cpu 0.3 false
	// tcp_retrans 0 true
	// cpu.pressure 0.3
}
