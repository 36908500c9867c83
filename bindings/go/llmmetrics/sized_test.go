package llmmetrics

import "testing"

// Every caller-sized struct is set up by llmm_struct_init at the package's own size: the
// library writes exactly that many bytes with struct_size = size, and refuses sizes it never
// released without writing anything.
func TestCallerSizedStructs(t *testing.T) {
	for i, s := range sizedStructs {
		kind, size := s.kind, s.size
		if kind != int32(i+1) {
			t.Errorf("kinds not numbered 1, 2, ...: %d at %d", kind, i)
		}
		st, written, tail := structInitProbe(kind, size)
		if st != StatusOK || written != size || !tail {
			t.Errorf("kind %d size %d: status %v, struct_size %d, tail kept %v", kind, size, st,
				written, tail)
		}
		for _, wrong := range []uint32{0, 4, size + 1, size + 8} {
			st, _, tail := structInitProbe(kind, wrong)
			if st != StatusABI || !tail {
				t.Errorf("kind %d size %d: status %v (want StatusABI), untouched %v", kind, wrong,
					st, tail)
			}
		}
	}
	// the kinds listed are every kind the library knows: the next one is refused at any size
	next := int32(len(sizedStructs) + 1)
	for _, s := range sizedStructs {
		if st, _, _ := structInitProbe(next, s.size); st != StatusABI {
			t.Errorf("kind %d size %d: status %v, want StatusABI", next, s.size, st)
		}
	}
	if st, _, _ := structInitProbe(99, 32); st != StatusABI {
		t.Errorf("unknown kind: status %v, want StatusABI", st)
	}
}

func TestDefaultsComeFromTheLibrary(t *testing.T) {
	k := DefaultKneeOptions()
	if k.Trim != 0.1 || k.CollapseFraction != 0.5 || k.KneedleSensitivity != 1 || k.Smooth != 0 {
		t.Errorf("DefaultKneeOptions() = %+v", k)
	}
	o := DefaultOTLPOptions()
	if o.UnitToSeconds != 1 || o.Temporality != OTLPCumulative {
		t.Errorf("DefaultOTLPOptions() = %+v", o)
	}
}
