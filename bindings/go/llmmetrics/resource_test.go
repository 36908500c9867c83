package llmmetrics

import (
	"math"
	"testing"
	"time"
)

func liiRef(cpu, gpu []float64) float64 {
	c, g := means(cpu, gpu)
	return math.Abs(c-g) / math.Max(math.Max(c, g), 1e-6)
}

func TestLII(t *testing.T) {
	cases := []struct {
		cpu, gpu []float64
		want     float64
	}{
		{[]float64{0.5}, []float64{0.5}, 0},
		{[]float64{0, 0}, []float64{0, 0}, 0},
		{[]float64{1}, []float64{0}, 1},
		{[]float64{0.25, 0.75}, []float64{1, 1}, 0.5},
		{[]float64{0.9, 0.8, 0.7}, []float64{0.3, 0.4, 0.5}, liiRef([]float64{0.9, 0.8, 0.7}, []float64{0.3, 0.4, 0.5})},
	}
	for _, c := range cases {
		got, err := LII(c.cpu, c.gpu)
		mustOK(t, err)
		if math.Abs(got-c.want) > 1e-15 {
			t.Errorf("LII(%v, %v) = %v, want %v", c.cpu, c.gpu, got, c.want)
		}
	}
	_, err := LII(nil, nil)
	wantStatus(t, err, ErrEmpty)
	_, err = LII([]float64{0.5}, []float64{0.5, 0.5})
	wantStatus(t, err, ErrInvalid)
	_, err = LII([]float64{1.5}, []float64{0.5})
	wantStatus(t, err, ErrInvalid)
	_, err = LII([]float64{math.NaN()}, []float64{0.5})
	wantStatus(t, err, ErrInvalid)
}

func TestLIIMonitor(t *testing.T) {
	m, err := NewLIIMonitor(4)
	mustOK(t, err)
	defer m.Close()
	_, err = m.Read()
	wantStatus(t, err, ErrEmpty)
	defaults := map[LIIOption]float64{LIIPrefetchAt: 0.2, LIIAdaptAt: 0.4, LIIScaleAt: 0.3}
	wantOptions(t, m.Threshold, defaults)
	cpu := []float64{0.9, 0.9, 0.8, 0.8, 0.6, 0.5}
	gpu := []float64{0.3, 0.5, 0.6, 0.8, 0.6, 0.5}
	for i := range cpu {
		mustOK(t, m.Add(cpu[i], gpu[i]))
		lo := i - 3
		if lo < 0 {
			lo = 0
		}
		want := liiRef(cpu[lo:i+1], gpu[lo:i+1])
		r, err := m.Read()
		mustOK(t, err)
		tier := LIIKeep
		if want >= 0.4 {
			tier = LIIAdapt
		} else if want >= 0.2 {
			tier = LIIPrefetch
		}
		if math.Abs(r.LII-want) > 1e-12 || r.Samples != i+1-lo || r.Tier != tier || r.Scale != (want >= 0.3) {
			t.Errorf("after %d samples: %+v, want LII %v tier %v", i+1, r, want, tier)
		}
	}
	wantStatus(t, m.Add(1.1, 0.5), ErrInvalid)
	wantStatus(t, m.Add(0.5, math.NaN()), ErrInvalid)
	wantStatus(t, m.SetThreshold(LIIPrefetchAt, 0.5), ErrRange)
	wantStatus(t, m.SetThreshold(LIIScaleAt, 1.5), ErrRange)
	wantStatus(t, m.SetThreshold(LIIOption(9), 0.5), ErrUnknownOption)
	_, err = m.Threshold(LIIOption(9))
	wantStatus(t, err, ErrUnknownOption)
	mustOK(t, m.SetThreshold(LIIAdaptAt, 0.6))
	mustOK(t, m.SetThreshold(LIIPrefetchAt, 0.5))
	mustOK(t, m.Reset())
	_, err = m.Read()
	wantStatus(t, err, ErrEmpty)
	if got, _ := m.Threshold(LIIPrefetchAt); got != 0.5 {
		t.Errorf("Reset changed a threshold: %v", got)
	}
	mustOK(t, m.Close())
	mustOK(t, m.Close())
	wantStatus(t, m.Add(0.5, 0.5), ErrState)

	_, err = NewLIIMonitor(-1)
	wantStatus(t, err, ErrInvalid)
	_, err = NewLIIMonitor(1 << 40)
	wantStatus(t, err, ErrRange)
	if LIIWindowDefault != 64 || LIIWindowMax != 1048576 {
		t.Error("window constants")
	}
	if LIIKeep.String() != "keep" || LIIAdapt.String() != "adapt" || LIITier(5).String() != "LIITier(5)" {
		t.Error("tier names")
	}
}

// doc/spec.md §8 reference values.
func TestKVFormulas(t *testing.T) {
	evict := []struct{ f, want float64 }{
		{0, 0.85}, {0.2, 0.8099999999999999}, {0.6, 0.85 - 0.2*0.6}, {1, 0.65},
	}
	for _, c := range evict {
		got, err := KVEvictThreshold(c.f)
		mustOK(t, err)
		if got != c.want {
			t.Errorf("KVEvictThreshold(%v) = %v, want %v", c.f, got, c.want)
		}
	}
	ttl := []struct {
		h    float64
		want int64
	}{{0, 80}, {0.75, 128}, {1, 144}, {math.Nextafter(1.0/64, 0), 81}}
	for _, c := range ttl {
		got, err := KVTTL(c.h)
		mustOK(t, err)
		if got != c.want {
			t.Errorf("KVTTL(%v) = %d, want %d", c.h, got, c.want)
		}
	}
	for _, bad := range []float64{-0.1, 1.1, math.NaN()} {
		_, err := KVEvictThreshold(bad)
		wantStatus(t, err, ErrInvalid)
		_, err = KVTTL(bad)
		wantStatus(t, err, ErrInvalid)
	}
	frag := []struct {
		ext  []uint64
		want float64
	}{{nil, 0}, {[]uint64{10}, 0}, {[]uint64{0, 0}, 0}, {[]uint64{6, 2, 2}, 0.4}, {[]uint64{1, 1, 1, 1}, 0.75}}
	for _, c := range frag {
		got, err := KVFragmentation(c.ext)
		mustOK(t, err)
		if math.Abs(got-c.want) > 1e-15 {
			t.Errorf("KVFragmentation(%v) = %v, want %v", c.ext, got, c.want)
		}
	}
	occ, err := KVOccupancyOf(16, 100, 50, 600)
	mustOK(t, err)
	want := KVOccupancy{WastedSlots: 200, BlockOccupancy: 0.5, TokenOccupancy: 600.0 / 1600,
		Gap: 0.5 - 600.0/1600, InternalFragmentation: 1 - 600.0/800}
	if occ != want {
		t.Errorf("KVOccupancyOf = %+v, want %+v", occ, want)
	}
	for _, bad := range [][4]uint64{{0, 1, 0, 0}, {16, 0, 0, 0}, {16, 10, 11, 0}, {16, 10, 1, 17}} {
		_, err := KVOccupancyOf(bad[0], bad[1], bad[2], bad[3])
		wantStatus(t, err, ErrInvalid)
	}
}

func TestOOMPrecursors(t *testing.T) {
	rate, win, err := TLBPreset(TLBOLTPDatabase)
	mustOK(t, err)
	if rate != 0.125 || win != time.Second {
		t.Errorf("OLTP preset %v %v", rate, win)
	}
	rate, win, err = TLBPreset(TLBJavaMicroservice)
	mustOK(t, err)
	if rate != 0.082 || win != 500*time.Millisecond {
		t.Errorf("Java preset %v %v", rate, win)
	}
	_, _, err = TLBPreset(TLBWorkload(7))
	wantStatus(t, err, ErrInvalid)
	ns, err := PageWalkNanos(3000, 3e9)
	mustOK(t, err)
	if math.Abs(ns-1000) > 1e-9 {
		t.Errorf("PageWalkNanos(3000, 3 GHz) = %v", ns)
	}
	for _, bad := range [][2]float64{{-1, 3e9}, {1, 0}, {math.NaN(), 1}, {1, math.Inf(1)}} {
		_, err := PageWalkNanos(bad[0], bad[1])
		wantStatus(t, err, ErrInvalid)
	}
}
