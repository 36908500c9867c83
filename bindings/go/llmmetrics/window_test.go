package llmmetrics

import (
	"math"
	"testing"
	"time"
)

const sec = uint64(time.Second)

// Values recorded at known seconds; each span covers the current slot and the ones before
// it, and its quantiles are those of exactly the values in those slots.
func TestWindowSpans(t *testing.T) {
	w, err := NewWindow(time.Second, 10, ScaleDefault)
	mustOK(t, err)
	defer w.Close()
	slot, slots, err := w.Geometry()
	mustOK(t, err)
	if slot != time.Second || slots != 10 {
		t.Fatalf("geometry %v × %d", slot, slots)
	}
	perSecond := make(map[int][]float64)
	for s := 0; s < 15; s++ {
		vals := lognormal(int64(200+s), 200, 0.05*float64(s+1), 0.5)
		perSecond[s] = vals
		now := uint64(s)*sec + 250*uint64(time.Millisecond)
		if s%2 == 0 {
			mustOK(t, w.AddMany(now, vals))
		} else {
			for _, v := range vals {
				mustOK(t, w.Add(now, v))
			}
		}
	}
	now := 14*sec + 900*uint64(time.Millisecond)
	for _, span := range []time.Duration{1, time.Second, 2500 * time.Millisecond, 5 * time.Second, 10 * time.Second} {
		nslots := int(math.Ceil(float64(span) / float64(time.Second)))
		var vals []float64
		for s := 14 - nslots + 1; s <= 14; s++ {
			vals = append(vals, perSecond[s]...)
		}
		n, err := w.Count(now, span)
		mustOK(t, err)
		if n != uint64(len(vals)) {
			t.Errorf("span %v: count %d, want %d", span, n, len(vals))
		}
		qs, err := w.Quantiles(now, span, probes)
		mustOK(t, err)
		sorted := sortedCopy(vals)
		for i, q := range probes {
			if want := exactQuantile(sorted, q); !withinRel(qs[i], want, RelativeError(ScaleDefault)) {
				t.Errorf("span %v q=%v: %v, exact %v", span, q, qs[i], want)
			}
			one, err := w.Quantile(now, span, q)
			mustOK(t, err)
			if one != qs[i] {
				t.Errorf("span %v q=%v: Quantile %v, Quantiles %v", span, q, one, qs[i])
			}
		}
		snap, err := w.Snapshot(now, span)
		mustOK(t, err)
		if snap.Count() != uint64(len(vals)) {
			t.Errorf("span %v: snapshot count %d", span, snap.Count())
		}
		mx, _ := snap.Max()
		if mx != sorted[len(sorted)-1] {
			t.Errorf("span %v: snapshot max %v, want %v", span, mx, sorted[len(sorted)-1])
		}
		snap.Close()
	}
	_, err = w.Count(now, 11*time.Second)
	wantStatus(t, err, ErrRange)
	_, err = w.Count(now, 0)
	wantStatus(t, err, ErrInvalid)
	_, err = w.Count(now, -time.Second)
	wantStatus(t, err, ErrInvalid)
	// Time does not go backwards; a refused call changes nothing.
	wantStatus(t, w.Add(now-1, 1), ErrInvalid)
	wantStatus(t, w.Add(now, -1), ErrInvalid)
	wantStatus(t, w.AddMany(now, []float64{1, math.NaN()}), ErrInvalid)
	// Far in the future every slot has expired.
	later := now + 100*sec
	_, err = w.Quantile(later, 10*time.Second, 0.5)
	wantStatus(t, err, ErrEmpty)
	empty, err := w.Snapshot(later, 10*time.Second)
	mustOK(t, err)
	if empty.Count() != 0 {
		t.Error("snapshot of an expired window is not empty")
	}
	empty.Close()
	mustOK(t, w.Reset())
	mustOK(t, w.Add(0, 1)) // the clock was forgotten
	mustOK(t, w.Close())
	mustOK(t, w.Close())
	wantStatus(t, w.Add(0, 1), ErrState)

	d, err := NewWindow(0, 0, ScaleDefault)
	mustOK(t, err)
	slot, slots, _ = d.Geometry()
	if slot != WindowSlotDefault || slots != WindowSlotsDefault {
		t.Errorf("default geometry %v × %d", slot, slots)
	}
	d.Close()
	if WindowSlotDefault != time.Second || WindowSlotsDefault != 60 || WindowSlotsMax != 100000 {
		t.Errorf("window constants %v %d %d", WindowSlotDefault, WindowSlotsDefault, WindowSlotsMax)
	}
	_, err = NewWindow(time.Second, WindowSlotsMax+1, ScaleDefault)
	wantStatus(t, err, ErrInvalid)
	_, err = NewWindow(-time.Second, 10, ScaleDefault)
	wantStatus(t, err, ErrInvalid)
	_, err = NewWindow(time.Second, 10, 11)
	wantStatus(t, err, ErrInvalid)
}

func TestRatioWindow(t *testing.T) {
	rw, err := NewRatioWindow(time.Second, 5)
	mustOK(t, err)
	defer rw.Close()
	// Second s: s errors out of 10 requests.
	for s := uint64(0); s < 8; s++ {
		for i := uint64(0); i < 10; i++ {
			ev := uint64(0)
			if i < s {
				ev = 1
			}
			mustOK(t, rw.Add(s*sec+i, ev, 1))
		}
	}
	now := 7*sec + 500
	cases := []struct {
		span          time.Duration
		events, total uint64
	}{
		{time.Second, 7, 10}, {2 * time.Second, 13, 20}, {5 * time.Second, 3 + 4 + 5 + 6 + 7, 50},
	}
	for _, c := range cases {
		e, tot, err := rw.Counts(now, c.span)
		mustOK(t, err)
		if e != c.events || tot != c.total {
			t.Errorf("span %v: %d/%d, want %d/%d", c.span, e, tot, c.events, c.total)
		}
		r, err := rw.Ratio(now, c.span)
		mustOK(t, err)
		if r != float64(c.events)/float64(c.total) {
			t.Errorf("span %v: ratio %v", c.span, r)
		}
	}
	wantStatus(t, rw.Add(now, 2, 1), ErrInvalid)
	wantStatus(t, rw.Add(now-sec, 0, 1), ErrInvalid)
	_, err = rw.Ratio(now+100*sec, time.Second)
	wantStatus(t, err, ErrEmpty)
	_, _, err = rw.Counts(now+100*sec, 6*time.Second)
	wantStatus(t, err, ErrRange)
	mustOK(t, rw.Reset())
	_, err = rw.Ratio(0, time.Second)
	wantStatus(t, err, ErrEmpty)
	mustOK(t, rw.Close())
	mustOK(t, rw.Close())
	wantStatus(t, rw.Add(0, 0, 1), ErrState)
}
