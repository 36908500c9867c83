package llmmetrics

/*
#include <llmmetrics/core.h>
*/
import "C"

import "fmt"

// Status is a libllmmetrics status code: 0 is success, errors are negative. Values are
// pinned by the C library forever; a newer library may return codes this package has no
// constant for, and [Status.Name] still names them.
type Status int32

// The status codes of the C library (llmm_status).
const (
	StatusOK            Status = C.LLMM_OK               // success
	StatusInvalid       Status = C.LLMM_E_INVALID        // bad argument
	StatusNoMem         Status = C.LLMM_E_NOMEM          // the allocator failed; nothing changed
	StatusRange         Status = C.LLMM_E_RANGE          // value outside a configured range
	StatusEmpty         Status = C.LLMM_E_EMPTY          // no data to answer from
	StatusCorrupt       Status = C.LLMM_E_CORRUPT        // damaged or truncated encoding
	StatusVersion       Status = C.LLMM_E_VERSION        // unknown format version
	StatusBuffer        Status = C.LLMM_E_BUFFER         // caller buffer too small
	StatusUnknownOption Status = C.LLMM_E_UNKNOWN_OPTION // option key not known to the object
	StatusState         Status = C.LLMM_E_STATE          // call not valid in the current state
	StatusNotConverged  Status = C.LLMM_E_NOT_CONVERGED  // an iterative method did not converge
	StatusABI           Status = C.LLMM_E_ABI            // struct_size of a struct not understood
)

// Name is the symbolic name of the status from the C library, such as "LLMM_E_INVALID"
// ("LLMM_E_UNKNOWN_STATUS" for a value the library does not know).
func (s Status) Name() string {
	return C.GoString(C.llmm_status_name(C.llmm_status(s)))
}

// Message is the human-readable message of the status from the C library, such as
// "invalid argument".
func (s Status) Message() string {
	return C.GoString(C.llmm_strerror(C.llmm_status(s)))
}

// String returns [Status.Name].
func (s Status) String() string { return s.Name() }

// Error is the error returned for every failure: the status of the C library with its name
// and message, the call that failed and, for checks made on the Go side, a detail.
//
// Two *Error values match under errors.Is when their statuses are equal, so
// errors.Is(err, ErrEmpty) holds for any error carrying StatusEmpty, whatever its Op.
type Error struct {
	Status  Status // the status code
	Name    string // its symbolic name (llmm_status_name)
	Message string // its message (llmm_strerror)
	Op      string // the C function that failed, empty for the sentinel values
	Detail  string // extra context added by the Go binding, often empty
}

// Error formats the error as "llmmetrics: op: message (NAME): detail".
func (e *Error) Error() string {
	msg := "llmmetrics: "
	if e.Op != "" {
		msg += e.Op + ": "
	}
	msg += fmt.Sprintf("%s (%s)", e.Message, e.Name)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Is reports whether target is an *Error with the same status, which makes
// errors.Is(err, ErrInvalid) and friends work.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status
}

func newError(op string, s Status, detail string) *Error {
	return &Error{Status: s, Name: s.Name(), Message: s.Message(), Op: op, Detail: detail}
}

// Sentinel errors, one per status, for errors.Is. They are never returned themselves: the
// errors returned carry the failing call in Op.
var (
	ErrInvalid       = newError("", StatusInvalid, "")
	ErrNoMem         = newError("", StatusNoMem, "")
	ErrRange         = newError("", StatusRange, "")
	ErrEmpty         = newError("", StatusEmpty, "")
	ErrCorrupt       = newError("", StatusCorrupt, "")
	ErrVersion       = newError("", StatusVersion, "")
	ErrBuffer        = newError("", StatusBuffer, "")
	ErrUnknownOption = newError("", StatusUnknownOption, "")
	ErrState         = newError("", StatusState, "")
	ErrNotConverged  = newError("", StatusNotConverged, "")
	ErrABI           = newError("", StatusABI, "")
)

// check turns a C status into nil or an *Error naming op.
func check(op string, st C.llmm_status) error {
	if st == C.LLMM_OK {
		return nil
	}
	return newError(op, Status(st), "")
}

// errClosed is the error of a method called on a closed (or zero) handle.
func errClosed(op, what string) error {
	return newError(op, StatusState, what+" is closed")
}

// errArg is an argument error detected on the Go side before calling op.
func errArg(op, detail string) error {
	return newError(op, StatusInvalid, detail)
}
