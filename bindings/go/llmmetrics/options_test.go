package llmmetrics

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// optionObject reaches one object's typed option calls by listing entry, so that one loop
// checks every kind against Options. Nothing here restates a default or a bound.
type optionObject struct {
	set   func(o OptionInfo, f float64, u uint64, i int32) error
	get   func(o OptionInfo) (f float64, u uint64, i int32, err error)
	close func() error
}

// floatObject reaches an object whose options are all floats.
func floatObject[K ~int32](set func(K, float64) error, get func(K) (float64, error), c func() error) optionObject {
	return optionObject{
		set: func(o OptionInfo, f float64, _ uint64, _ int32) error { return set(K(o.Key), f) },
		get: func(o OptionInfo) (float64, uint64, int32, error) {
			f, err := get(K(o.Key))
			return f, 0, 0, err
		},
		close: c,
	}
}

// typedOptions is an object with float and integer option calls keyed by K.
type typedOptions[K ~int32] interface {
	SetFloat64(K, float64) error
	Float64(K) (float64, error)
	SetUint64(K, uint64) error
	Uint64(K) (uint64, error)
	Close() error
}

// typedObject dispatches on the listed type to the float and integer pairs of methods of obj,
// just made (err from making it).
func typedObject[K ~int32](obj typedOptions[K], err error) (optionObject, error) {
	if err != nil {
		return optionObject{}, err
	}
	fl := floatObject(obj.SetFloat64, obj.Float64, obj.Close)
	return optionObject{
		set: func(o OptionInfo, f float64, u uint64, i int32) error {
			if o.Type == OptionUint64 {
				return obj.SetUint64(K(o.Key), u)
			}
			return fl.set(o, f, u, i)
		},
		get: func(o OptionInfo) (float64, uint64, int32, error) {
			if o.Type == OptionUint64 {
				u, err := obj.Uint64(K(o.Key))
				return 0, u, 0, err
			}
			return fl.get(o)
		},
		close: obj.Close,
	}, nil
}

func newOptionObject(t *testing.T, kind ObjectKind) optionObject {
	t.Helper()
	obj, err := makeOptionObject(kind)
	mustOK(t, err)
	return obj
}

func makeOptionObject(kind ObjectKind) (optionObject, error) {
	switch kind {
	case KindSpike:
		return typedObject[SpikeOption](NewSpikeDetector())
	case KindCollapse:
		return typedObject[CollapseOption](NewCollapseDetector())
	case KindStability:
		return typedObject[StabilityOption](NewStabilityGate())
	case KindSaturation:
		return typedObject[SaturationOption](NewSaturationSignal())
	case KindLIIMonitor:
		m, err := NewLIIMonitor(0)
		if err != nil {
			return optionObject{}, err
		}
		return floatObject(m.SetThreshold, m.Threshold, m.Close), nil
	case KindScorecard:
		sc, err := NewScorecard(ScenarioCodeAssistant)
		if err != nil {
			return optionObject{}, err
		}
		return optionObject{
			set: func(_ OptionInfo, _ float64, _ uint64, i int32) error {
				return sc.SetMissingPolicy(MissingPolicy(i))
			},
			get: func(OptionInfo) (float64, uint64, int32, error) {
				p, err := sc.MissingPolicy()
				return 0, 0, int32(p), err
			},
			close: sc.Close,
		}, nil
	case KindGoodput:
		g, err := NewGoodput()
		if err != nil {
			return optionObject{}, err
		}
		return floatObject(g.SetFloat64, g.Float64, g.Close), nil
	case KindBurn:
		return typedObject[BurnOption](NewBurnAlerter(0.999, 0, 0))
	case KindErrorTrigger:
		return typedObject[ErrorTriggerOption](NewErrorTrigger(0))
	case KindHostSampler:
		s, err := NewHostSampler("")
		if err != nil {
			return optionObject{}, err
		}
		return floatObject(s.SetFloat64, s.Float64, s.Close), nil
	}
	return optionObject{}, fmt.Errorf("no object for kind %d", kind)
}

var allKinds = []ObjectKind{KindSpike, KindCollapse, KindStability, KindSaturation,
	KindLIIMonitor, KindScorecard, KindGoodput, KindBurn, KindErrorTrigger, KindHostSampler}

func TestOptionsListing(t *testing.T) {
	for _, kind := range allKinds {
		opts, err := Options(kind)
		mustOK(t, err)
		if len(opts) == 0 {
			t.Fatalf("kind %d lists no option", kind)
		}
		for i, o := range opts {
			if o.Name == "" || (i > 0 && o.Key <= opts[i-1].Key) {
				t.Errorf("kind %d entry %d: %+v", kind, i, o)
			}
			if s := o.Type.String(); s != "f64" && s != "u64" && s != "i32" {
				t.Errorf("kind %d %s: type %v", kind, o.Name, o.Type)
			}
		}
	}
	if _, err := Options(ObjectKind(0)); !errors.Is(err, ErrInvalid) {
		t.Errorf("Options(0): %v, want ErrInvalid", err)
	}
	// u64 bounds are exact beyond 2^53
	burn, err := Options(KindBurn)
	mustOK(t, err)
	if burn[3].Name != "fast_long_ns" || burn[3].MaxUint64 != math.MaxUint64 || burn[0].HasDefault {
		t.Errorf("burn listing: %+v, %+v", burn[0], burn[3])
	}
}

func TestOptionsDefaultsAndBounds(t *testing.T) {
	refused := 0
	for _, kind := range allKinds {
		opts, err := Options(kind)
		mustOK(t, err)
		obj := newOptionObject(t, kind)
		for _, o := range opts {
			if o.HasDefault {
				f, u, i, err := obj.get(o)
				mustOK(t, err)
				if f != o.DefaultFloat64 || u != o.DefaultUint64 || i != o.DefaultInt32 {
					t.Errorf("kind %d %s: fresh object holds %v/%v/%v, listed default %v/%v/%v",
						kind, o.Name, f, u, i, o.DefaultFloat64, o.DefaultUint64, o.DefaultInt32)
				}
			}
			for _, up := range []bool{false, true} {
				f, u, i, ok := justOutside(o, up)
				if !ok {
					continue
				}
				if err := obj.set(o, f, u, i); !errors.Is(err, ErrRange) {
					t.Errorf("kind %d %s: %v/%v/%v just outside the bounds: %v", kind, o.Name,
						f, u, i, err)
				}
				refused++
			}
		}
		mustOK(t, obj.close())
	}
	if refused < 30 {
		t.Errorf("only %d out-of-bounds values tried", refused)
	}
}

// justOutside is the value just beyond a bound of o (the bound itself when exclusive); ok is
// false when the type has no such value or the step reaches an infinity.
func justOutside(o OptionInfo, up bool) (f float64, u uint64, i int32, ok bool) {
	excl := o.MinExclusive
	if up {
		excl = o.MaxExclusive
	}
	switch o.Type {
	case OptionFloat64:
		f, dir := o.MinFloat64, math.Inf(-1)
		if up {
			f, dir = o.MaxFloat64, math.Inf(1)
		}
		if !excl {
			f = math.Nextafter(f, dir)
		}
		return f, 0, 0, !math.IsInf(f, 0)
	case OptionUint64:
		u = o.MinUint64
		if up {
			u = o.MaxUint64
		}
		switch {
		case excl:
			return 0, u, 0, true
		case up && u < math.MaxUint64:
			return 0, u + 1, 0, true
		case !up && u > 0:
			return 0, u - 1, 0, true
		}
		return 0, 0, 0, false
	default:
		v := int64(o.MinInt32) - 1
		if up {
			v = int64(o.MaxInt32) + 1
		}
		if excl {
			v = int64(o.MinInt32)
			if up {
				v = int64(o.MaxInt32)
			}
		}
		return 0, 0, int32(v), v >= math.MinInt32 && v <= math.MaxInt32
	}
}
