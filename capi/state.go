package main

/*
#include <stdlib.h>
#include "acl/acl.h"
#include "thread.h"
*/
import "C"

import (
	"strings"
	"sync"
	"unsafe"

	"github.com/gocann/gocann"
)

// cContext is a context as C code sees it.
type cContext struct {
	c         *gocann.Context
	h         handle
	dev       int
	isDefault bool
	def       *cStream // the default stream, which a NULL stream means

	// mu guards the sets below, which release empties and sets to nil:
	// the objects the context ends with it, whose handles end too.
	mu       sync.Mutex
	streams  map[*cStream]struct{} // explicit streams
	events   map[*cEvent]struct{}
	notifies map[*cNotify]struct{}
	cnts     map[*cCntNotify]struct{}
}

// cStream is a stream as C code sees it.
type cStream struct {
	s   *gocann.Stream
	h   handle
	ctx *cContext
}

// process is the state of the C ABI: one runtime per process, as aclInit
// makes, and the handle tables.
type process struct {
	handles table
	direct  directState
	fronts  sync.Map // Go API object (*gocann.Event, *gocann.Kernel, *gocann.TaskGroup, *gocann.Buf) -> its handle

	// dataBufs holds the data buffers, which outlive aclFinalize.
	dataBufs dataBufTable

	// globals counts kernel binaries' device symbols (symbol.go).
	globals globalRefs

	// linked holds the function handles of kernels linked into the
	// program (linked.go).
	linked linkedTable
	// symMu guards symBins: the binary aclrtGetFuncBySymbol opened for
	// each shared object, by path (binary.go).
	symMu   sync.Mutex
	symBins map[string]*cBinary
	// groupInfos holds the arrays of aclrtCreateGroupInfo (coregroup.go).
	groupInfos groupInfoTable

	// mu guards the fields below.
	mu       sync.Mutex
	r        *gocann.Runtime // nil until the first aclInit
	inits    int             // aclInit calls not yet finalized
	implicit bool            // the one reference is aclrtSetDevice's start, not aclInit's
	cfg      gocann.Config
	defaults map[int]*cContext // default context of each set device
	msgs     []string          // err_msg_mode 1: the process's pending messages, newest last
	msgsOut  *C.char           // the string aclGetRecentErrMsg last returned
}

var proc process

// runtime returns the initialized runtime, or nil.
func (p *process) runtime() *gocann.Runtime {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inits == 0 {
		return nil
	}
	return p.r
}

func errMsgProcessWide() bool {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	return proc.inits > 0 && proc.cfg.ErrMsgMode == 1
}

// pushMsg records a process-wide message; past C.GOCANN_MAX_MSGS pending
// ones it is dropped, as for a thread's.
func (p *process) pushMsg(msg string) {
	p.mu.Lock()
	if len(p.msgs) < C.GOCANN_MAX_MSGS {
		p.msgs = append(p.msgs, msg)
	}
	p.mu.Unlock()
}

func (p *process) takeMsgs() *C.char {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	for i := len(p.msgs) - 1; i >= 0; i-- {
		b.WriteString(p.msgs[i])
		if i > 0 {
			b.WriteByte('\n')
		}
	}
	if p.msgsOut != nil {
		C.free(unsafe.Pointer(p.msgsOut))
		p.msgsOut = nil
	}
	if len(p.msgs) > 0 {
		p.msgsOut = C.CString(b.String())
	}
	p.msgs = nil
	return p.msgsOut
}

// rt returns the runtime or records ACL_ERROR_UNINITIALIZE.
func rt(t *C.gocann_thread, fn string) (*gocann.Runtime, C.aclError) {
	if r := proc.runtime(); r != nil {
		return r, 0
	}
	return nil, failf(t, fn, gocann.KindUninitialized, "aclInit has not been called (or aclFinalize already was)")
}

// captureThread is the calling thread and its capture mode, for calls a
// capture may refuse.
func captureThread(t *C.gocann_thread) gocann.CaptureThread {
	return gocann.CaptureThread{ID: uint64(t.tid), Mode: gocann.CaptureMode(t.capture_mode)}
}

// defaultContext returns device dev's default context wrapper, creating
// it when the device was just set. proc.mu not held.
func defaultContext(dev *gocann.Device) (*cContext, error) {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	if c := proc.defaults[dev.ID()]; c != nil {
		return c, nil
	}
	gc, err := dev.Context()
	if err != nil {
		return nil, err
	}
	c, err := newCContext(gc, dev.ID(), true)
	if err != nil {
		return nil, err
	}
	if proc.defaults == nil {
		proc.defaults = make(map[int]*cContext)
	}
	proc.defaults[dev.ID()] = c
	return c, nil
}

// newCContext registers a context and its default stream.
func newCContext(gc *gocann.Context, dev int, isDefault bool) (*cContext, error) {
	c := &cContext{c: gc, dev: dev, isDefault: isDefault, streams: make(map[*cStream]struct{}),
		events: make(map[*cEvent]struct{}), notifies: make(map[*cNotify]struct{}), cnts: make(map[*cCntNotify]struct{})}
	ds, err := gc.Raw().DefaultStream()
	if err != nil {
		return nil, err
	}
	h, ok := proc.handles.add(kindContext, c)
	if !ok {
		return nil, gocann.Errorf("aclrtCreateContext", gocann.KindNoStream, "too many live handles")
	}
	c.h = h
	c.def = &cStream{s: ds, ctx: c}
	if c.def.h, ok = proc.handles.add(kindStream, c.def); !ok {
		proc.handles.remove(h, kindContext)
		return nil, gocann.Errorf("aclrtCreateContext", gocann.KindNoStream, "too many live handles")
	}
	proc.direct.openStream(c.def)
	proc.direct.set(c.h, uint64(c.def.h), nil)
	proc.fronts.Store(ds, c.def.h)
	return c, nil
}

// release drops the handles of c and of the streams, events and notifies
// that ended with it (the objects are gone).
func (c *cContext) release() {
	c.mu.Lock()
	for s := range c.streams {
		proc.fronts.Delete(s.s)
		proc.handles.remove(s.h, kindStream)
	}
	for e := range c.events {
		proc.fronts.Delete(e.e)
		proc.handles.remove(e.h, kindEvent)
	}
	for n := range c.notifies {
		proc.handles.remove(n.h, kindNotify)
	}
	for n := range c.cnts {
		proc.handles.remove(n.h, kindCntNotify)
	}
	c.streams, c.events, c.notifies, c.cnts = nil, nil, nil, nil
	c.mu.Unlock()
	proc.fronts.Delete(c.def.s)
	proc.handles.remove(c.def.h, kindStream)
	proc.handles.remove(c.h, kindContext)
}

// adopt adds x to set, the set of c's objects of its type, unless c was
// released meanwhile (set is nil then).
func adopt[T comparable](c *cContext, set *map[T]struct{}, x T) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if *set == nil {
		return false
	}
	(*set)[x] = struct{}{}
	return true
}

// contextGone records the error for an object made in context c while
// another thread destroyed c: the object ended with it.
func contextGone(t *C.gocann_thread, fn string, c *cContext) C.aclError {
	return failf(t, fn, gocann.KindInvalidHandle, "context %#x was destroyed while the call ran; what it made ended with it", uintptr(c.h))
}

// disown removes x from set, when x ends before c.
func disown[T comparable](c *cContext, set *map[T]struct{}, x T) {
	c.mu.Lock()
	delete(*set, x)
	c.mu.Unlock()
}

// dropDefault forgets device dev's default context after a reset ended it
// and returns the context's handle (0 if there was none).
func dropDefault(dev int) handle {
	proc.mu.Lock()
	c := proc.defaults[dev]
	delete(proc.defaults, dev)
	proc.mu.Unlock()
	if c == nil {
		return 0
	}
	c.release()
	return c.h
}

// currentContext returns the thread's context. With none, the configured
// default device is set for the thread, as CANN does implicitly.
func currentContext(t *C.gocann_thread, fn string) (*cContext, C.aclError) {
	if t.context != 0 {
		if obj, ok := proc.handles.get(handle(t.context), kindContext); ok {
			return obj.(*cContext), 0
		}
		t.context = 0
	}
	r, code := rt(t, fn)
	if code != 0 {
		return nil, code
	}
	if dd := r.Config().DefaultDevice; dd >= 0 {
		if code := setDevice(t, fn, dd); code != 0 {
			return nil, code
		}
		obj, _ := proc.handles.get(handle(t.context), kindContext)
		return obj.(*cContext), 0
	}
	return nil, failf(t, fn, gocann.KindContextNull, "the calling thread has no current context; call aclrtSetDevice or aclrtSetCurrentContext first")
}

// setDevice is aclrtSetDevice for thread t.
func setDevice(t *C.gocann_thread, fn string, id int) C.aclError {
	if err := startImplicitly(); err != nil {
		return fail(t, fn, err)
	}
	r, code := rt(t, fn)
	if code != 0 {
		return code
	}
	dev, err := r.SetDevice(id)
	if err != nil {
		return fail(t, fn, err)
	}
	c, err := defaultContext(dev)
	if err != nil {
		return fail(t, fn, err)
	}
	t.device = C.int32_t(id)
	t.context = C.uint64_t(c.h)
	return 0
}

// stream resolves a stream handle; NULL is the current context's default
// stream.
func stream(t *C.gocann_thread, fn string, p C.aclrtStream) (*cStream, C.aclError) {
	if p == nil {
		c, code := currentContext(t, fn)
		if code != 0 {
			return nil, code
		}
		return c.def, 0
	}
	if obj, ok := proc.handles.get(handleOf(unsafe.Pointer(p)), kindStream); ok {
		return obj.(*cStream), 0
	}
	return nil, badHandle(t, fn, "stream", unsafe.Pointer(p), kindStream)
}

// queueStream is stream for calls that queue work: an explicit stream must
// belong to the thread's current context, as the device checks.
func queueStream(t *C.gocann_thread, fn string, p C.aclrtStream) (*cStream, C.aclError) {
	s, code := stream(t, fn, p)
	if code != 0 || p == nil {
		return s, code
	}
	c, code := currentContext(t, fn)
	if code != 0 {
		return nil, code
	}
	if s.ctx != c {
		return nil, failf(t, fn, gocann.KindStreamContext, "stream %p belongs to a context of device %d, not to the thread's current context (device %d); call aclrtSetCurrentContext or aclrtSetDevice first", unsafe.Pointer(p), s.ctx.dev, c.dev)
	}
	return s, 0
}

// badHandle records the error for a handle that is not live or not of the
// kind expected.
func badHandle(t *C.gocann_thread, fn, param string, p unsafe.Pointer, want kind) C.aclError {
	return fail(t, fn, badHandleError(fn, param, p, want))
}

// badHandleError is the error for a handle that is not live or not of the
// kind expected.
func badHandleError(fn, param string, p unsafe.Pointer, want kind) error {
	h := handleOf(p)
	if p == nil {
		return nullArgError(fn, param)
	}
	if k := h.kind(); k != want && k > 0 && k < numKinds {
		return gocann.Errorf(fn, gocann.KindInvalidHandle, "%s %p is %s handle, expected %s handle", param, p, article(kindNames[k]), article(kindNames[want]))
	}
	return gocann.Errorf(fn, gocann.KindInvalidHandle, "%s %p is not a live %s handle (destroyed, or never created)", param, p, kindNames[want])
}

// article puts "a" or "an" before a kind name.
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
