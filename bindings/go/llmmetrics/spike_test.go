package llmmetrics

import (
	"math"
	"testing"
)

func TestSpikeDetector(t *testing.T) {
	d, err := NewSpikeDetector()
	mustOK(t, err)
	defer d.Close()
	defF := map[SpikeOption]float64{SpikeBaseQuantile: 0.99, SpikeSevereQuantile: 0.999, SpikeSevereFactor: 1.2}
	wantOptions(t, d.Float64, defF)
	defU := map[SpikeOption]uint64{SpikeWarmup: 1000, SpikeSlotNs: sec, SpikeSlots: 60, SpikeScale: uint64(ScaleDefault)}
	wantOptions(t, d.Uint64, defU)
	wantStatus(t, d.SetFloat64(SpikeWarmup, 1), ErrUnknownOption)
	wantStatus(t, d.SetUint64(SpikeSevereFactor, 1), ErrUnknownOption)
	wantStatus(t, d.SetFloat64(SpikeBaseQuantile, 1), ErrRange)
	wantStatus(t, d.SetFloat64(SpikeSevereFactor, math.NaN()), ErrRange)
	wantStatus(t, d.SetUint64(SpikeSlots, 1), ErrRange)
	mustOK(t, d.SetUint64(SpikeSlots, 10))
	mustOK(t, d.SetUint64(SpikeWarmup, 500))

	// Seconds 0..4: latencies 1..1000 in a fixed shuffled order.
	var baseline []float64
	for s := uint64(0); s < 5; s++ {
		for i := 0; i < 1000; i++ {
			v := float64((i*7919)%1000 + 1)
			level, err := d.Observe(s*sec+uint64(i)*1000, v)
			mustOK(t, err)
			if s == 0 && level != SpikeNone {
				t.Fatalf("classified during warm-up: %v", level)
			}
			baseline = append(baseline, v)
		}
	}
	wantStatus(t, d.SetUint64(SpikeSlots, 20), ErrState)
	now := 5 * sec // slot 5 opens: the baselines come from slots 0..4
	st, err := d.Stats(now)
	mustOK(t, err)
	sorted := sortedCopy(baseline)
	p99, p999 := exactQuantile(sorted, 0.99), exactQuantile(sorted, 0.999)
	rel := RelativeError(ScaleDefault)
	if !st.Ready || st.BaselineSamples != 5000 || !withinRel(st.BaseThreshold, p99, rel) ||
		!withinRel(st.SevereThreshold, p999, rel) {
		t.Fatalf("stats %+v, exact P99 %v P99.9 %v", st, p99, p999)
	}
	cases := []struct {
		v    float64
		want SpikeLevel
	}{
		{500, SpikeNone},
		{st.BaseThreshold, SpikeNone},
		{math.Nextafter(st.BaseThreshold, 2000), SpikeLevel1},
		{1.2 * st.SevereThreshold, SpikeLevel1},
		{math.Nextafter(1.2*st.SevereThreshold, 5000), SpikeLevel2},
		{5000, SpikeLevel2},
	}
	for _, c := range cases {
		got, err := d.Observe(now, c.v)
		mustOK(t, err)
		if got != c.want {
			t.Errorf("Observe(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	st2, err := d.Stats(now)
	mustOK(t, err)
	if st2.TotalSamples != 5006 || st2.TotalLevel2 < 2 || st2.TotalLevel1 < 2 {
		t.Errorf("stats after the probes %+v", st2)
	}
	rate, err := d.Rate(now)
	mustOK(t, err)
	if want := float64(st2.WindowLevel1+st2.WindowLevel2) / float64(st2.WindowClassified); rate != want {
		t.Errorf("rate %v, counts give %v", rate, want)
	}
	_, err = d.Observe(now-1, 1)
	wantStatus(t, err, ErrInvalid)
	_, err = d.Observe(now, -1)
	wantStatus(t, err, ErrInvalid)
	mustOK(t, d.Reset())
	_, err = d.Rate(0)
	wantStatus(t, err, ErrEmpty)
	if w, _ := d.Uint64(SpikeSlots); w != 10 {
		t.Errorf("Reset changed an option: slots %d", w)
	}
	mustOK(t, d.Close())
	mustOK(t, d.Close())
	_, err = d.Observe(0, 1)
	wantStatus(t, err, ErrState)
	if SpikeLevel2.String() != "level2" || SpikeNone.String() != "none" || SpikeLevel(9).String() != "SpikeLevel(9)" {
		t.Error("level names")
	}
}
