package llmmetrics

import "testing"

// Every caller-sized struct is set up by llmm_struct_init at the package's own size: the
// library writes exactly that many bytes with struct_size = size, and refuses sizes it never
// released without writing anything.
func TestCallerSizedStructs(t *testing.T) {
	if len(sizedStructSizes) != 21 {
		t.Fatalf("%d kinds of caller-sized structs, want 21", len(sizedStructSizes))
	}
	for kind, size := range sizedStructSizes {
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
