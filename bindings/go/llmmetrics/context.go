package llmmetrics

/*
#include <stdatomic.h>
#include <stdlib.h>
#include <llmmetrics/core.h>

// Byte and object counters of a Context, in C memory: the allocator hooks run on C stacks
// (also on recorder writer threads) and must not touch Go memory.
typedef struct llmmgo_counter {
	_Atomic uint64_t live_bytes;
	_Atomic uint64_t allocations;
} llmmgo_counter;

static void *llmmgo_alloc(void *user, size_t size) {
	void *p = malloc(size);
	if (p != NULL) {
		llmmgo_counter *c = user;
		atomic_fetch_add_explicit(&c->live_bytes, size, memory_order_relaxed);
		atomic_fetch_add_explicit(&c->allocations, 1, memory_order_relaxed);
	}
	return p;
}

static void *llmmgo_realloc(void *user, void *ptr, size_t old_size, size_t new_size) {
	void *p = realloc(ptr, new_size);
	if (p != NULL) {
		llmmgo_counter *c = user;
		atomic_fetch_add_explicit(&c->live_bytes, new_size, memory_order_relaxed);
		atomic_fetch_sub_explicit(&c->live_bytes, old_size, memory_order_relaxed);
	}
	return p;
}

static void llmmgo_free(void *user, void *ptr, size_t size) {
	llmmgo_counter *c = user;
	free(ptr);
	atomic_fetch_sub_explicit(&c->live_bytes, size, memory_order_relaxed);
}

static void llmmgo_install_hooks(llmm_allocator *a, llmmgo_counter *c) {
	a->user = c;
	a->alloc = llmmgo_alloc;
	a->realloc = llmmgo_realloc;
	a->free = llmmgo_free;
}

static uint64_t llmmgo_live_bytes(llmmgo_counter *c) {
	return atomic_load_explicit(&c->live_bytes, memory_order_relaxed);
}

static uint64_t llmmgo_allocations(llmmgo_counter *c) {
	return atomic_load_explicit(&c->allocations, memory_order_relaxed);
}
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// Context is a library context whose allocator counts the memory the library holds for the
// objects made with it: pass it to a constructor with [WithContext], then read
// [Context.LiveBytes]. Without a context, objects allocate through libc and are not counted.
//
// A Context is safe for concurrent use. It stays alive as long as an object made from it
// does; Close refuses (ErrState) while such objects are open.
type Context struct {
	mu      sync.Mutex
	c       *C.llmm_ctx
	counter *C.llmmgo_counter
	objects int // open objects made with this context
}

// NewContext creates a context with a counting, libc-backed allocator.
func NewContext() (*Context, error) {
	var a C.llmm_allocator
	if err := initStruct(C.LLMM_STRUCT_ALLOCATOR, unsafe.Pointer(&a), C.sizeof_llmm_allocator); err != nil {
		return nil, err
	}
	counter := (*C.llmmgo_counter)(C.calloc(1, C.size_t(unsafe.Sizeof(C.llmmgo_counter{}))))
	if counter == nil {
		return nil, newError("llmm_ctx_new", StatusNoMem, "")
	}
	C.llmmgo_install_hooks(&a, counter)
	var c *C.llmm_ctx
	if err := check("llmm_ctx_new", C.llmm_ctx_new(&a, &c)); err != nil {
		C.free(unsafe.Pointer(counter))
		return nil, err
	}
	ctx := &Context{c: c, counter: counter}
	runtime.SetFinalizer(ctx, (*Context).Close)
	return ctx, nil
}

// LiveBytes is the number of bytes the library currently holds through this context,
// including the context itself. It is 0 after Close.
func (ctx *Context) LiveBytes() uint64 {
	return ctx.count(func(c *C.llmmgo_counter) C.uint64_t { return C.llmmgo_live_bytes(c) })
}

// Allocations is the number of allocations the library has made through this context so far.
func (ctx *Context) Allocations() uint64 {
	return ctx.count(func(c *C.llmmgo_counter) C.uint64_t { return C.llmmgo_allocations(c) })
}

// count reads one figure of the counting allocator; 0 without one (or after Close).
func (ctx *Context) count(read func(*C.llmmgo_counter) C.uint64_t) uint64 {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if ctx.counter == nil {
		return 0
	}
	return uint64(read(ctx.counter))
}

// Close frees the context. It returns an error matching ErrState, and frees nothing, while
// an object made with the context is still open. Closing twice is a no-op.
func (ctx *Context) Close() error {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if ctx.c == nil {
		return nil
	}
	if ctx.objects > 0 {
		return newError("llmm_ctx_free", StatusState, "objects made with the context are still open")
	}
	C.llmm_ctx_free(ctx.c)
	C.free(unsafe.Pointer(ctx.counter))
	ctx.c, ctx.counter = nil, nil
	runtime.SetFinalizer(ctx, nil)
	return nil
}

// acquire hands out the C context for a new object (nil for a nil Context: libc).
func (ctx *Context) acquire(op string) (*C.llmm_ctx, error) {
	if ctx == nil {
		return nil, nil
	}
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if ctx.c == nil {
		return nil, errClosed(op, "context")
	}
	ctx.objects++
	return ctx.c, nil
}

// construct runs a C constructor with the context's C handle (nil for libc): the context is
// taken for the new object, and given back when the constructor fails.
func (ctx *Context) construct(op string, make func(*C.llmm_ctx) C.llmm_status) error {
	cctx, err := ctx.acquire(op)
	if err != nil {
		return err
	}
	if err := check(op, make(cctx)); err != nil {
		ctx.release()
		return err
	}
	return nil
}

// release ends the use of the context by an object that was closed or never made.
func (ctx *Context) release() {
	if ctx == nil {
		return
	}
	ctx.mu.Lock()
	ctx.objects--
	ctx.mu.Unlock()
}

// Option configures a constructor.
type Option func(*options)

type options struct {
	ctx *Context
}

// WithContext makes the object allocate through ctx (nil means libc).
func WithContext(ctx *Context) Option {
	return func(o *options) { o.ctx = ctx }
}

func collect(opts []Option) options {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}
