package llmmetrics

/*
#include <llmmetrics/sketch.h>
*/
import "C"

import (
	"encoding"
	"fmt"
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

// DecodeInfo is what [DecodeSketchChecked] found in a message (llmm_decode_info).
type DecodeInfo struct {
	Intact     bool    // the magic and the CRC-32C check out: the bytes are as written
	Version    int     // the format version byte of an intact message, else 0
	Rule       int     // 0, or the first broken rule of doc/format.md section 3.4 (1 to 7)
	Repaired   bool    // rule 6 alone was broken and min / max were repaired
	MessageMin float64 // the message's own min; the sketch holds the repaired one
	MessageMax float64 // the message's own max; the sketch holds the repaired one
}

// DecodeSketchChecked decodes data as [DecodeSketch] does and says what it found
// (llmm_sketch_deserialize_ex): an intact version-1 message whose only broken rule is rule 6
// of doc/format.md section 3.4 (the shape of 1.0's recorder bug) is read with its min and max
// repaired (Repaired true). On a refusal the info is returned with the error, whose Detail
// names the broken rule.
func DecodeSketchChecked(data []byte, opts ...Option) (*Sketch, DecodeInfo, error) {
	const op = "llmm_sketch_deserialize_ex"
	var ci C.llmm_decode_info
	if len(data) == 0 {
		return nil, DecodeInfo{}, newError(op, StatusCorrupt, "empty input")
	}
	if err := initStruct(C.LLMM_STRUCT_DECODE_INFO, unsafe.Pointer(&ci), C.sizeof_llmm_decode_info); err != nil {
		return nil, DecodeInfo{}, err
	}
	o := collect(opts)
	cctx, err := o.ctx.acquire(op)
	if err != nil {
		return nil, DecodeInfo{}, err
	}
	var c *C.llmm_sketch
	st := C.llmm_sketch_deserialize_ex(cctx, (*C.uint8_t)(unsafe.Pointer(&data[0])), C.size_t(len(data)), &c, &ci)
	runtime.KeepAlive(data)
	info := DecodeInfo{Intact: ci.intact != 0, Version: int(ci.version), Rule: int(ci.rule),
		Repaired: ci.repaired != 0, MessageMin: float64(ci.message_min), MessageMax: float64(ci.message_max)}
	if err := check(op, st); err != nil {
		o.ctx.release()
		if e, ok := err.(*Error); ok && info.Rule != 0 {
			e.Detail = fmt.Sprintf("rule %d of doc/format.md 3.4 broken", info.Rule)
		}
		return nil, info, err
	}
	return wrapSketch(c, o.ctx), info, nil
}
