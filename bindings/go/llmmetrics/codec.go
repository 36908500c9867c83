package llmmetrics

/*
#include <llmmetrics/sketch.h>
*/
import "C"

import (
	"encoding"
	"runtime"
	"unsafe"
)

// SketchFormatVersion is the binary format version [Sketch.MarshalBinary] writes; every
// version up to it can be read.
const SketchFormatVersion = 1

var (
	_ encoding.BinaryMarshaler   = (*Sketch)(nil)
	_ encoding.BinaryUnmarshaler = (*Sketch)(nil)
)

// MarshalBinary encodes the sketch in the library's compact, versioned, checksummed binary
// form (encoding.BinaryMarshaler): scale, range, exact statistics and every bucket, so that
// [Sketch.UnmarshalBinary] or any other binding restores it exactly.
func (s *Sketch) MarshalBinary() ([]byte, error) {
	const op = "llmm_sketch_serialize"
	if s.c == nil {
		return nil, errClosed(op, "sketch")
	}
	var n C.size_t
	st := C.llmm_sketch_serialize(s.c, nil, 0, &n)
	if st != C.LLMM_E_BUFFER {
		runtime.KeepAlive(s)
		return nil, check(op, st)
	}
	buf := make([]byte, int(n))
	st = C.llmm_sketch_serialize(s.c, (*C.uint8_t)(unsafe.Pointer(&buf[0])), n, &n)
	runtime.KeepAlive(s)
	runtime.KeepAlive(buf)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return buf[:int(n)], nil
}

// decode runs llmm_sketch_deserialize over data.
func decode(cctx *C.llmm_ctx, data []byte) (*C.llmm_sketch, error) {
	const op = "llmm_sketch_deserialize"
	if len(data) == 0 {
		return nil, newError(op, StatusCorrupt, "empty input")
	}
	var c *C.llmm_sketch
	st := C.llmm_sketch_deserialize(cctx, (*C.uint8_t)(unsafe.Pointer(&data[0])), C.size_t(len(data)), &c)
	runtime.KeepAlive(data)
	if err := check(op, st); err != nil {
		return nil, err
	}
	return c, nil
}

// UnmarshalBinary replaces the sketch with the one encoded in data
// (encoding.BinaryUnmarshaler). It works on a zero Sketch, which then allocates through
// libc, and on an open one, which keeps its context. Damaged, truncated or extended input
// returns an error matching ErrCorrupt (ErrVersion for an intact encoding of an unknown
// format version) and leaves the sketch unchanged. The slice is not retained.
func (s *Sketch) UnmarshalBinary(data []byte) error {
	var cctx *C.llmm_ctx
	if s.c != nil && s.ctx != nil {
		s.ctx.mu.Lock()
		cctx = s.ctx.c
		s.ctx.mu.Unlock()
	}
	c, err := decode(cctx, data)
	if err != nil {
		return err
	}
	if s.c == nil {
		s.c = c
		runtime.SetFinalizer(s, (*Sketch).Close)
		return nil
	}
	C.llmm_sketch_free(s.c)
	s.c = c
	return nil
}

// DecodeSketch returns a new sketch decoded from data (see [Sketch.UnmarshalBinary]).
func DecodeSketch(data []byte, opts ...Option) (*Sketch, error) {
	o := collect(opts)
	cctx, err := o.ctx.acquire("llmm_sketch_deserialize")
	if err != nil {
		return nil, err
	}
	c, err := decode(cctx, data)
	if err != nil {
		o.ctx.release()
		return nil, err
	}
	return wrapSketch(c, o.ctx), nil
}
