package llmmetrics

/*
#include <llmmetrics/resource.h>
*/
import "C"

import (
	"math"
	"runtime"
	"time"
	"unsafe"
)

// LII window limits of an [LIIMonitor], in samples.
const (
	LIIWindowDefault = 64      // window used when 0 is passed
	LIIWindowMax     = 1048576 // largest window
)

// LIITier is the action tier of a load imbalance index.
type LIITier int32

// The LII action tiers; each lower bound belongs to its tier.
const (
	LIIKeep     LIITier = C.LLMM_LII_KEEP     // LII < prefetch threshold (0.2): keep the batch size
	LIIPrefetch LIITier = C.LLMM_LII_PREFETCH // prefetch ≤ LII < adapt threshold (0.4): prefetch buffering
	LIIAdapt    LIITier = C.LLMM_LII_ADAPT    // LII ≥ adapt threshold: adapt the batch size
)

// String names the tier ("keep", "prefetch", "adapt").
func (t LIITier) String() string {
	return enumName(t, "LIITier", "keep", "prefetch", "adapt")
}

// LIIOption is a threshold of an [LIIMonitor]; bounds and defaults: Options(KindLIIMonitor).
type LIIOption int32

// The thresholds of an LIIMonitor.
const (
	LIIPrefetchAt LIIOption = C.LLMM_LII_PREFETCH_AT // lower bound of the prefetch tier; ≤ the adapt threshold
	LIIAdaptAt    LIIOption = C.LLMM_LII_ADAPT_AT    // lower bound of the adapt tier
	LIIScaleAt    LIIOption = C.LLMM_LII_SCALE_AT    // scaling decision when LII ≥ this
)

// LII is the load imbalance index of paired CPU and GPU utilisations in [0, 1]:
// |mean_cpu − mean_gpu| / max(mean_cpu, mean_gpu, 1e-6). The slices must have equal,
// non-zero length (ErrEmpty for none).
func LII(cpu, gpu []float64) (float64, error) {
	if len(cpu) != len(gpu) {
		return 0, errArg("llmm_lii", "cpu and gpu differ in length")
	}
	if len(cpu) == 0 {
		return 0, newError("llmm_lii", StatusEmpty, "")
	}
	var out C.double
	st := C.llmm_lii(f64ptr(cpu), f64ptr(gpu), C.size_t(len(cpu)), &out)
	runtime.KeepAlive(cpu)
	runtime.KeepAlive(gpu)
	return float64(out), check("llmm_lii", st)
}

// LIIReading is what an [LIIMonitor] reads over its window.
type LIIReading struct {
	Tier    LIITier // the action tier of LII
	Scale   bool    // LII ≥ the scaling threshold
	Samples int     // samples in the window
	LII     float64 // load imbalance index over the window, in [0, 1]
	MeanCPU float64 // mean CPU utilisation over the window
	MeanGPU float64 // mean GPU utilisation over the window
}

// LIIMonitor is a streaming load imbalance index over the last W (CPU, GPU) utilisation
// samples, O(1) per sample, with keep / prefetch / adapt tiers and a scaling trigger.
//
// An LIIMonitor is used by one goroutine at a time. Close it when done; a finalizer closes a
// forgotten one.
type LIIMonitor struct{ handle[C.llmm_lii_monitor] }

// NewLIIMonitor creates a monitor keeping window samples (0 for [LIIWindowDefault], at most
// [LIIWindowMax]) with the default thresholds.
func NewLIIMonitor(window int, opts ...Option) (*LIIMonitor, error) {
	const op = "llmm_lii_monitor_new"
	if window < 0 {
		return nil, errArg(op, "negative window")
	}
	if uint64(window) > math.MaxUint32 {
		return nil, newError(op, StatusRange, "")
	}
	m := &LIIMonitor{}
	return owned(m, m.open(op, opts, func(cctx *C.llmm_ctx, out **C.llmm_lii_monitor) C.llmm_status {
		return C.llmm_lii_monitor_new(cctx, C.uint32_t(window), out)
	}))
}

// SetThreshold sets a threshold in [0, 1]; the prefetch threshold may not exceed the adapt
// threshold (ErrRange, nothing changed).
func (m *LIIMonitor) SetThreshold(opt LIIOption, value float64) error {
	return m.call("llmm_lii_monitor_set_f64", func(c *C.llmm_lii_monitor) C.llmm_status {
		return C.llmm_lii_monitor_set_f64(c, C.llmm_lii_option(opt), C.double(value))
	})
}

// Threshold reads a threshold.
func (m *LIIMonitor) Threshold(opt LIIOption) (float64, error) {
	return m.getF64("llmm_lii_monitor_get_f64", func(c *C.llmm_lii_monitor, v *C.double) C.llmm_status {
		return C.llmm_lii_monitor_get_f64(c, C.llmm_lii_option(opt), v)
	})
}

// Add adds one (CPU, GPU) utilisation sample, each in [0, 1]; the oldest sample leaves once
// the window is full.
func (m *LIIMonitor) Add(cpu, gpu float64) error {
	return m.call("llmm_lii_monitor_add", func(c *C.llmm_lii_monitor) C.llmm_status {
		return C.llmm_lii_monitor_add(c, C.double(cpu), C.double(gpu))
	})
}

// Read returns the index over the window, its tier and the scaling trigger (ErrEmpty before
// the first sample).
func (m *LIIMonitor) Read() (LIIReading, error) {
	r, err := read(&m.handle, "llmm_lii_monitor_read", C.LLMM_STRUCT_LII_READING,
		func(c *C.llmm_lii_monitor, r *C.llmm_lii_reading) C.llmm_status { return C.llmm_lii_monitor_read(c, r) })
	if err != nil {
		return LIIReading{}, err
	}
	return LIIReading{
		Tier:    LIITier(r.tier),
		Scale:   r.scale != 0,
		Samples: int(r.samples),
		LII:     float64(r.lii),
		MeanCPU: float64(r.mean_cpu),
		MeanGPU: float64(r.mean_gpu),
	}, nil
}

// Reset drops every sample; the thresholds stay.
func (m *LIIMonitor) Reset() error {
	return m.call("llmm_lii_monitor_reset", func(c *C.llmm_lii_monitor) C.llmm_status {
		return C.llmm_lii_monitor_reset(c)
	})
}

// KVFragmentation is the external fragmentation of a KV-cache free pool, 1 − largest / total
// free extent, in [0, 1); 0 for no free space or a single extent.
func KVFragmentation(freeExtents []uint64) (float64, error) {
	var p *C.uint64_t
	if len(freeExtents) > 0 {
		p = (*C.uint64_t)(unsafe.Pointer(&freeExtents[0]))
	}
	var out C.double
	st := C.llmm_kv_fragmentation(p, C.size_t(len(freeExtents)), &out)
	runtime.KeepAlive(freeExtents)
	return float64(out), check("llmm_kv_fragmentation", st)
}

// KVEvictThreshold is the KV-cache eviction threshold max(0.65, 0.85 − 0.2·f) for a
// fragmentation f in [0, 1].
func KVEvictThreshold(fragmentation float64) (float64, error) {
	var out C.double
	st := C.llmm_kv_evict_threshold(C.double(fragmentation), &out)
	return float64(out), check("llmm_kv_evict_threshold", st)
}

// KVTTL is the KV-cache TTL int(128 · (1 + 0.5·(h − 0.75))) for an average hit rate h in
// [0, 1]: 80 at h = 0, 128 at 0.75, 144 at 1.
func KVTTL(avgHitRate float64) (int64, error) {
	var out C.int64_t
	st := C.llmm_kv_ttl(C.double(avgHitRate), &out)
	return int64(out), check("llmm_kv_ttl", st)
}

// KVOccupancy is the block-level vs token-level occupancy of a paged KV cache (see
// [KVOccupancyOf]).
type KVOccupancy struct {
	WastedSlots           uint64  // U·B − K: token slots reserved but empty
	BlockOccupancy        float64 // U / T
	TokenOccupancy        float64 // K / (T·B)
	Gap                   float64 // BlockOccupancy − TokenOccupancy, ≥ 0
	InternalFragmentation float64 // 1 − K / (U·B); 0 when U = 0
}

// KVOccupancyOf computes the occupancy of a pool of blocksTotal blocks (T > 0) of blockSize
// tokens (B > 0), blocksUsed (U ≤ T) of them in use holding tokensStored tokens (K ≤ U·B).
func KVOccupancyOf(blockSize, blocksTotal, blocksUsed, tokensStored uint64) (KVOccupancy, error) {
	var r C.llmm_kv_occupancy_result
	if err := initStruct(C.LLMM_STRUCT_KV_OCCUPANCY_RESULT, unsafe.Pointer(&r), C.sizeof_llmm_kv_occupancy_result); err != nil {
		return KVOccupancy{}, err
	}
	st := C.llmm_kv_occupancy(C.uint64_t(blockSize), C.uint64_t(blocksTotal), C.uint64_t(blocksUsed),
		C.uint64_t(tokensStored), &r)
	if err := check("llmm_kv_occupancy", st); err != nil {
		return KVOccupancy{}, err
	}
	return KVOccupancy{
		WastedSlots:           uint64(r.wasted_slots),
		BlockOccupancy:        float64(r.block_occupancy),
		TokenOccupancy:        float64(r.token_occupancy),
		Gap:                   float64(r.gap),
		InternalFragmentation: float64(r.internal_fragmentation),
	}, nil
}

// TLBWorkload is a TLB miss-rate alert preset.
type TLBWorkload int32

// The TLB presets.
const (
	TLBOLTPDatabase     TLBWorkload = C.LLMM_TLB_OLTP_DATABASE     // 12.5 % over 1 s
	TLBJavaMicroservice TLBWorkload = C.LLMM_TLB_JAVA_MICROSERVICE // 8.2 % over 500 ms
)

// TLBPreset returns the miss-rate threshold (a fraction: 0.125 for 12.5 %) and the window
// of a preset.
func TLBPreset(w TLBWorkload) (maxMissRate float64, window time.Duration, err error) {
	var rate C.double
	var ns C.uint64_t
	err = check("llmm_tlb_preset", C.llmm_tlb_preset(C.llmm_tlb_workload(w), &rate, &ns))
	if err != nil {
		return 0, 0, err
	}
	return float64(rate), time.Duration(ns), nil
}

// PageWalkNanos converts page-table-walk cycles at a core clock of cpuHz to nanoseconds:
// cycles / cpuHz · 1e9.
func PageWalkNanos(cycles, cpuHz float64) (float64, error) {
	var out C.double
	st := C.llmm_page_walk_ns(C.double(cycles), C.double(cpuHz), &out)
	return float64(out), check("llmm_page_walk_ns", st)
}
