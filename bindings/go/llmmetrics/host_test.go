package llmmetrics

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

const hostStep = 500_000_000 // ns between the captured trees' steps

// hostTree copies tests/data/host/<name>/t0 into a scratch directory; step writes a later
// step's files over it in place (the sampler keeps its files open).
type hostTree struct {
	t    *testing.T
	src  string
	root string
}

func newHostTree(t *testing.T, name string) *hostTree {
	h := &hostTree{t: t, src: filepath.Join(sourceRoot(t), "tests", "data", "host", name),
		root: t.TempDir()}
	h.step("t0")
	return h
}

func (h *hostTree) step(step string) {
	from := filepath.Join(h.src, step)
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		to := filepath.Join(h.root, p[len(from):])
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644) // truncates in place: same inode
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

// The 5.10 layout, t0 → t1 in 0.5 s: ctxt +100000, wait +50 ms, pgmigrate_success +7, memory
// PSI +30 ms, throttled_usec +20000, frequency 3000 → 2000 MHz; t2 refuses the vmstat signals
// (a cut line) and the context switches (the counter went back).
func TestHostSamplerCapturedTree(t *testing.T) {
	tree := newHostTree(t, "linux-5.10")
	s, err := NewHostSampler(tree.root)
	mustOK(t, err)
	defer s.Close()
	log, err := NewEventLog(0)
	mustOK(t, err)
	defer log.Close()
	mustOK(t, s.Sample(1e9, log))
	if _, err := s.Rate(HostCtxSwitches); !errors.Is(err, ErrEmpty) {
		t.Fatalf("rate before two samples: %v", err)
	}
	tree.step("t1")
	mustOK(t, s.Sample(1e9+hostStep, log))
	want := map[HostSignal]float64{HostTCPRetrans: 0, HostMajorFaults: 0, HostCtxSwitches: 200000,
		HostRunDelay: 0.1, HostNUMAMigrations: 14, HostPSICPU: 0, HostPSIMemory: 0.06, HostPSIIO: 0,
		HostCPUFreqMHz: 2000, HostCPUThrottle: 0.04}
	for _, sig := range HostSignals {
		v, err := s.Rate(sig)
		mustOK(t, err)
		if v != want[sig] {
			t.Errorf("%v: %v, want %v", sig, v, want[sig])
		}
	}
	evs, err := log.Lookback(1e9+hostStep, 0)
	mustOK(t, err)
	wantEv := []struct {
		typ EventType
		v   float64
	}{{EventCPUThrottle, 0.04}, {EventCPUFreqDrop, 2000}, {EventMemoryPressure, 0.06},
		{EventNUMAMigration, 14}, {EventSchedJitter, 0.1}}
	if len(evs) != len(wantEv) {
		t.Fatalf("events %v", evs)
	}
	for i, e := range evs {
		if e.Type != wantEv[i].typ || e.Value != wantEv[i].v {
			t.Errorf("event %d: %+v", i, e)
		}
	}
	tree.step("t2")
	mustOK(t, s.Sample(2e9, nil))
	for _, sig := range []HostSignal{HostMajorFaults, HostNUMAMigrations, HostCtxSwitches} {
		if _, err := s.Rate(sig); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%v after t2: %v", sig, err)
		}
	}
	wantStatus(t, s.Sample(2e9, nil), ErrInvalid) // time must move on
}

func TestHostSamplerUnavailableAndOptions(t *testing.T) {
	s, err := NewHostSampler(filepath.Join(sourceRoot(t), "tests", "data", "host", "garbage", "t0"))
	mustOK(t, err)
	defer s.Close()
	mustOK(t, s.Sample(1, nil))
	for _, sig := range HostSignals {
		if _, err := s.Rate(sig); !errors.Is(err, ErrState) {
			t.Errorf("%v: %v", sig, err)
		}
	}
	wantStatus(t, s.SetFloat64(HostCPUFreqDrop, 1.5), ErrRange)
	mustOK(t, s.SetFloat64(HostCtxSwitchesAbove, math.Inf(1)))
	if v, _ := s.Float64(HostPSICPUAbove); v != 0.2 {
		t.Errorf("psi_cpu_above default %v", v)
	}
	if HostPSICPU.Name() != "psi_cpu" || HostRunDelay.EventType() != EventSchedJitter ||
		HostSignal(0).String() != "HostSignal(0)" || HostSignal(99).EventType() != 0 {
		t.Error("names and event types")
	}
	if EventCPUPressure.AttrName() != "cpu.pressure" {
		t.Error(EventCPUPressure.AttrName())
	}
	s.Close()
	wantStatus(t, s.Sample(2, nil), ErrState) // closed
}

// Two OS threads hand a token back and forth 500 times: each blocks 500 times, so the host's
// context-switch count grows by at least 500.
func TestHostSamplerRealContextSwitches(t *testing.T) {
	s, err := NewHostSampler("")
	mustOK(t, err)
	defer s.Close()
	ping, pong := make(chan struct{}), make(chan struct{})
	t0 := Now()
	mustOK(t, s.Sample(t0, nil))
	go func() {
		runtime.LockOSThread()
		for i := 0; i < 500; i++ {
			<-ping
			pong <- struct{}{}
		}
	}()
	runtime.LockOSThread()
	for i := 0; i < 500; i++ {
		ping <- struct{}{}
		<-pong
	}
	runtime.UnlockOSThread()
	t1 := Now()
	mustOK(t, s.Sample(t1, nil))
	r, err := s.Rate(HostCtxSwitches)
	mustOK(t, err)
	if n := r * float64(t1-t0) / 1e9; n < 500*(1-1e-9) {
		t.Errorf("%v context switches counted for 500 round trips", n)
	}
}
