package llmmetrics

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// The names, values and messages are those documented in core.h (LLMM_STATUS_LIST).
func TestStatusTable(t *testing.T) {
	cases := []struct {
		s       Status
		value   int32
		name    string
		message string
		err     *Error
	}{
		{StatusOK, 0, "LLMM_OK", "success", nil},
		{StatusInvalid, -1, "LLMM_E_INVALID", "invalid argument", ErrInvalid},
		{StatusNoMem, -2, "LLMM_E_NOMEM", "out of memory", ErrNoMem},
		{StatusRange, -3, "LLMM_E_RANGE", "value outside the configured range", ErrRange},
		{StatusEmpty, -4, "LLMM_E_EMPTY", "no data", ErrEmpty},
		{StatusCorrupt, -5, "LLMM_E_CORRUPT", "damaged or truncated encoding", ErrCorrupt},
		{StatusVersion, -6, "LLMM_E_VERSION", "unknown format version", ErrVersion},
		{StatusBuffer, -7, "LLMM_E_BUFFER", "buffer too small", ErrBuffer},
		{StatusUnknownOption, -8, "LLMM_E_UNKNOWN_OPTION", "unknown option", ErrUnknownOption},
		{StatusState, -9, "LLMM_E_STATE", "call not valid in the current state", ErrState},
		{StatusNotConverged, -10, "LLMM_E_NOT_CONVERGED", "iteration did not converge", ErrNotConverged},
		{StatusABI, -11, "LLMM_E_ABI", "struct_size not understood", ErrABI},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if int32(c.s) != c.value {
				t.Errorf("value %d, want %d", c.s, c.value)
			}
			if c.s.Name() != c.name || c.s.String() != c.name {
				t.Errorf("Name %q String %q, want %q", c.s.Name(), c.s.String(), c.name)
			}
			if c.s.Message() != c.message {
				t.Errorf("Message %q, want %q", c.s.Message(), c.message)
			}
			if c.err == nil {
				return
			}
			if c.err.Status != c.s || c.err.Name != c.name || c.err.Message != c.message {
				t.Errorf("sentinel %+v", *c.err)
			}
			got := newError("llmm_x", c.s, "")
			if !errors.Is(got, c.err) {
				t.Errorf("errors.Is(%v, %v) is false", got, c.err)
			}
			wrapped := fmt.Errorf("outer: %w", got)
			var e *Error
			if !errors.As(wrapped, &e) || e.Status != c.s || e.Op != "llmm_x" {
				t.Errorf("errors.As through a wrap: %v", e)
			}
			for _, other := range []*Error{ErrInvalid, ErrEmpty} {
				if other != c.err && errors.Is(got, other) {
					t.Errorf("%v matches %v", got, other)
				}
			}
		})
	}
}

func TestUnknownStatus(t *testing.T) {
	s := Status(-1000)
	if s.Name() != "LLMM_E_UNKNOWN_STATUS" || s.Message() != "unknown status" {
		t.Fatalf("unknown status: %q %q", s.Name(), s.Message())
	}
}

func TestErrorText(t *testing.T) {
	cases := []struct {
		err  *Error
		want string
	}{
		{ErrEmpty, "llmmetrics: no data (LLMM_E_EMPTY)"},
		{newError("llmm_sketch_add", StatusInvalid, ""), "llmmetrics: llmm_sketch_add: invalid argument (LLMM_E_INVALID)"},
		{newError("llmm_sketch_add", StatusState, "sketch is closed"),
			"llmmetrics: llmm_sketch_add: call not valid in the current state (LLMM_E_STATE): sketch is closed"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// Errors returned by real calls carry the C function and match their sentinel.
func TestErrorsFromCalls(t *testing.T) {
	s := testSketch(t)
	err := s.Add(math.NaN())
	var e *Error
	if !errors.As(err, &e) || e.Op != "llmm_sketch_add" || !errors.Is(err, ErrInvalid) {
		t.Fatalf("Add(NaN): %v", err)
	}
	_, err = s.Quantile(0.5)
	if !errors.As(err, &e) || e.Op != "llmm_sketch_quantile" || !errors.Is(err, ErrEmpty) {
		t.Fatalf("Quantile on empty: %v", err)
	}
	if _, err := NewSketch(ScaleMax + 1); !errors.Is(err, ErrInvalid) {
		t.Fatalf("NewSketch(11): %v", err)
	}
	if _, err := NewSketch(math.MaxInt32 + 7); !errors.Is(err, ErrInvalid) {
		t.Fatalf("NewSketch(huge): %v", err)
	}
}
