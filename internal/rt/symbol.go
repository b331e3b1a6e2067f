package rt

import (
	"context"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Device symbols: the global variables kernels share with the host
// (aclrtBinaryGetGlobal, aclrtGetSymbolAddress, aclrtMemcpyToSymbol, ...).
//
// A C kernel binary is a host shared object, so its globals are process
// memory that its kernels read and write directly: that memory is the
// symbol's device address (host is true), and the symbol copies move bytes
// there as the device's DMA would, in stream order. A Go kernel's global is
// device memory the runtime lends the caller, found by name; kernels reach
// it by its address.

// Symbol is one device global.
type Symbol struct {
	// Front holds the API layer's object for this one, set once.
	Front atomic.Value

	name       string
	addr, size uint64
	host       bool           // process memory of a loaded C binary
	p          unsafe.Pointer // host: its first byte
	dev        int            // host: the device current when its binary loaded
	c          *Context       // a Go global: the context its memory came from
	dead       atomic.Bool

	// mu guards pending.
	mu      sync.Mutex
	pending map[*Stream]uint64 // the last copy each stream queued on it
}

func (s *Symbol) Name() string { return s.name }
func (s *Symbol) Addr() uint64 { return s.addr }
func (s *Symbol) Size() uint64 { return s.size }

// symbolTable finds symbols by the address a program names them by and,
// for Go globals, by name.
type symbolTable struct {
	// mu guards the fields below.
	mu     sync.RWMutex
	byAddr map[uint64]*Symbol
	byName map[string]*Symbol
	hosts  hostSymbols // the host symbols by range (symbolrange.go)
}

func (t *symbolTable) add(s *Symbol, named bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byAddr == nil {
		t.byAddr, t.byName = make(map[uint64]*Symbol), make(map[string]*Symbol)
	}
	if named && t.byName[s.name] != nil {
		return rterr.Errorf(rterr.KindInvalidParam, "name %q is invalid: a device global of that name is already registered", s.name)
	}
	if t.byAddr[s.addr] != nil {
		return rterr.Errorf(rterr.KindInvalidParam, "a device global at %#x is already registered", s.addr)
	}
	t.byAddr[s.addr] = s
	if s.host {
		t.hosts.add(s)
	}
	if named {
		t.byName[s.name] = s
	}
	return nil
}

func (t *symbolTable) remove(s *Symbol) {
	t.mu.Lock()
	if t.byAddr[s.addr] == s {
		delete(t.byAddr, s.addr)
	}
	if t.byName[s.name] == s {
		delete(t.byName, s.name)
	}
	if s.host {
		t.hosts.remove(s)
	}
	t.mu.Unlock()
}

// reset forgets every symbol, at aclFinalize: their handles end with it.
func (t *symbolTable) reset() {
	t.mu.Lock()
	for _, s := range t.byAddr {
		s.dead.Store(true)
	}
	t.byAddr, t.byName = nil, nil
	t.hosts.reset()
	t.mu.Unlock()
}

// RegisterHostSymbol registers size bytes of process memory at addr, a
// global of a loaded C kernel binary loaded while device dev was current,
// as a device symbol.
func (r *Runtime) RegisterHostSymbol(name string, p unsafe.Pointer, size uint64, dev int) (*Symbol, error) {
	b, err := r.live()
	if err != nil {
		return nil, err
	}
	s := &Symbol{name: name, addr: uint64(uintptr(p)), size: size, host: true, p: p, dev: dev}
	if err := r.symbols.add(s, false); err != nil {
		return nil, err
	}
	// Mapped for the device, so value operations and Go kernels reach it
	// by its address as C kernels do.
	if m, ok := b.(hal.HostMapper); ok && size > 0 {
		if err := m.MapHost(p, size); err != nil {
			r.symbols.remove(s)
			return nil, err
		}
	}
	return s, nil
}

// NewGlobal makes a Go kernels' global of size bytes named name, in device
// memory of c's device: the caller copies and launches with it, never
// frees it.
func (c *Context) NewGlobal(name string, size uint64) (*Symbol, error) {
	if name == "" {
		return nil, rterr.Errorf(rterr.KindBadArgument, "name is empty, expected the global's name")
	}
	a, err := c.lend(size)
	if err != nil {
		return nil, err
	}
	s := &Symbol{name: name, addr: a.Addr, size: size, c: c}
	if err := c.d.r.symbols.add(s, true); err != nil {
		c.FreeInternal(a.Addr)
		return nil, err
	}
	return s, nil
}

// lookupSymbol reads one of the symbol table's maps (m, a field of
// r.symbols, read under its lock since a reset replaces it) once the
// runtime is known live; nil without an error is no such symbol, which each
// caller words for its own key.
func lookupSymbol[K comparable](r *Runtime, m *map[K]*Symbol, key K) (*Symbol, error) {
	if _, err := r.live(); err != nil {
		return nil, err
	}
	r.symbols.mu.RLock()
	defer r.symbols.mu.RUnlock()
	return (*m)[key], nil
}

// Global finds a Go kernels' global by name.
func (r *Runtime) Global(name string) (*Symbol, error) {
	s, err := lookupSymbol(r, &r.symbols.byName, name)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, rterr.Errorf(rterr.KindSymbolNotFound, "no device global named %q is registered", name)
	}
	return s, nil
}

// SymbolAt finds the symbol a program names by its address
// (aclrtGetSymbolAddress, aclrtGetSymbolSize and the symbol copies).
func (r *Runtime) SymbolAt(addr uint64) (*Symbol, error) {
	s, err := lookupSymbol(r, &r.symbols.byAddr, addr)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return nil, rterr.Errorf(rterr.KindInvalidSymbol, "symbol %#x is not a device symbol (a global of a loaded kernel binary, or a registered Go global)", addr)
	}
	return s, nil
}

// Drop ends the symbol once the copies queued on it are done: before its
// binary is unloaded, or to free a Go global.
func (r *Runtime) Drop(s *Symbol) error {
	s.mu.Lock()
	if s.dead.Swap(true) {
		s.mu.Unlock()
		return rterr.Errorf(rterr.KindInvalidSymbol, "symbol %q was already dropped", s.name)
	}
	r.symbols.remove(s)
	pending := s.pending
	s.pending = nil
	s.mu.Unlock()
	for st, seq := range pending {
		_ = st.q.Wait(context.Background(), seq, 0) // a fault is the stream's to report
	}
	if s.c != nil {
		return s.c.FreeInternal(s.addr)
	}
	if b, err := r.live(); err == nil && s.size > 0 {
		if m, ok := b.(hal.HostMapper); ok {
			return m.UnmapHost(s.p)
		}
	}
	return nil
}

// SymbolPointer is the symbol's address as a pointer for C code.
func (r *Runtime) SymbolPointer(s *Symbol) (unsafe.Pointer, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if s.host {
		return s.p, nil
	}
	return r.DevicePointer(s.addr)
}

func (s *Symbol) check() error {
	if s.dead.Load() {
		return rterr.Errorf(rterr.KindInvalidSymbol, "symbol %q was dropped (its binary unloaded, or the runtime finalized)", s.name)
	}
	return nil
}

// at is the symbol's bytes [off, off+count) as a copy end, checked.
func (s *Symbol) at(off, count uint64) (hal.Loc, error) {
	if err := s.check(); err != nil {
		return hal.Loc{}, err
	}
	if off > s.size || count > s.size-off {
		return hal.Loc{}, rterr.Errorf(rterr.KindBadArgument, "offset %d + count %d is invalid, expected <= the symbol's size %d", off, count, s.size)
	}
	if s.host {
		return hal.HostLoc(unsafe.Add(s.p, off)), nil
	}
	return hal.DevLoc(s.addr + off), nil
}

// symbolKind checks the kind a symbol copy was given: the direction into
// (to) or out of the symbol, or the default.
func symbolKind(kind CopyKind, to bool) error {
	want := DeviceToHost
	if to {
		want = HostToDevice
	}
	if kind != want && kind != CopyDefault {
		return rterr.Errorf(rterr.KindBadArgument, "kind %s is invalid, expected %s or ACL_MEMCPY_DEFAULT", kind, want)
	}
	return nil
}

// other checks the copy's other end: host memory for an explicit kind,
// else host memory or device memory of d.
func (d *Device) otherEnd(param string, l hal.Loc, n uint64, kind CopyKind) (pinned bool, err error) {
	if kind != CopyDefault && !l.IsHost() {
		return false, rterr.Errorf(rterr.KindInvalidParam, "%s %#x is device memory, expected host memory for %s", param, l.Dev, kind)
	}
	return d.checkLoc(param, l, n)
}

// CopyToSymbol copies count bytes from src to the symbol at off,
// synchronously (aclrtMemcpyToSymbol).
func (c *Context) CopyToSymbol(caller Caller, s *Symbol, off uint64, src hal.Loc, count uint64, kind CopyKind) error {
	return c.symbolCopy(caller, s, off, src, count, count, kind, true)
}

// CopyFromSymbol copies count bytes of the symbol at off to dst,
// synchronously (aclrtMemcpyFromSymbol).
func (c *Context) CopyFromSymbol(caller Caller, dst hal.Loc, destMax uint64, s *Symbol, off, count uint64, kind CopyKind) error {
	return c.symbolCopy(caller, s, off, dst, destMax, count, kind, false)
}

func (c *Context) symbolCopy(caller Caller, s *Symbol, off uint64, other hal.Loc, max, count uint64, kind CopyKind, to bool) error {
	if count == 0 {
		return nil
	}
	if err := c.checkSync(caller, "a synchronous symbol copy"); err != nil {
		return err
	}
	t, _, err := c.d.symbolTask(s, off, other, max, count, kind, to)
	if err != nil {
		return err
	}
	c.settle(t.Dst, t.Src)
	// Under mu, so that Drop, and the unload behind it, waits for it.
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.check(); err != nil {
		return err
	}
	return c.hd.Run(t)
}

// symbolTask checks a copy of count bytes between the symbol at off and
// other, its other end with room for max (into the symbol if to), and
// returns its task; pinned reports whether other is page-locked.
func (d *Device) symbolTask(s *Symbol, off uint64, other hal.Loc, max, count uint64, kind CopyKind, to bool) (t hal.Task, pinned bool, err error) {
	if err := symbolKind(kind, to); err != nil {
		return t, false, err
	}
	if count > max {
		return t, false, rterr.Errorf(rterr.KindBadArgument, "count %d is invalid, expected <= dstMax %d", count, max)
	}
	sym, err := s.at(off, count)
	if err != nil {
		return t, false, err
	}
	param := "dst"
	if to {
		param = "src"
	}
	if pinned, err = d.otherEnd(param, other, count, kind); err != nil {
		return t, false, err
	}
	t = hal.Task{Kind: hal.TaskCopy, Dst: other, Src: sym, Size: count}
	if to {
		t.Dst, t.Src = sym, other
	}
	return t, pinned, nil
}

// CopyToSymbolAsync queues a copy of count bytes from src to the symbol at
// off (aclrtMemcpyToSymbolAsync). A pageable source is staged at the call,
// as for aclrtMemcpyAsync.
func (st *Stream) CopyToSymbolAsync(s *Symbol, off uint64, src hal.Loc, count uint64, kind CopyKind, site uintptr) error {
	return st.symbolCopyAsync(s, off, src, count, count, kind, true, site)
}

// CopyFromSymbolAsync queues a copy of count bytes of the symbol at off to
// dst (aclrtMemcpyFromSymbolAsync). A pageable destination makes the call
// wait for the copy, as for aclrtMemcpyAsync.
func (st *Stream) CopyFromSymbolAsync(dst hal.Loc, destMax uint64, s *Symbol, off, count uint64, kind CopyKind, site uintptr) error {
	return st.symbolCopyAsync(s, off, dst, destMax, count, kind, false, site)
}

func (st *Stream) symbolCopyAsync(s *Symbol, off uint64, other hal.Loc, max, count uint64, kind CopyKind, to bool, site uintptr) error {
	if count == 0 {
		return nil
	}
	b, err := st.c.backend()
	if err != nil {
		return err
	}
	if err := st.check(); err != nil {
		return err
	}
	if st.divert.Load() != nil || st.persistent {
		return rterr.Errorf(rterr.KindNotSupported, "a symbol copy on stream %d, which is capturing or bound to a model, is not supported: models do not record symbol copies", st.id)
	}
	t, pinned, err := st.c.d.symbolTask(s, off, other, max, count, kind, to)
	if err != nil {
		return err
	}
	t.Site = site
	var stg staged
	if to {
		if other.IsHost() && !pinned {
			if stg, err = st.stage(b, other, count); err != nil {
				return err
			}
			t.Src = hal.HostLoc(stg.p)
		}
	}
	s.mu.Lock()
	seq, err := uint64(0), s.check()
	if err == nil {
		seq, err = st.submit(&t)
	}
	if err == nil {
		if s.pending == nil {
			s.pending = make(map[*Stream]uint64)
		}
		s.pending[st] = seq
	}
	s.mu.Unlock()
	if err != nil {
		if stg.p != nil {
			st.c.d.r.staging.put(b, stg)
		}
		return err
	}
	if stg.p != nil {
		stg.seq = seq
		st.mu.Lock()
		st.staged = append(st.staged, stg)
		st.mu.Unlock()
	}
	if !to && other.IsHost() && !pinned {
		return st.q.Wait(context.Background(), seq, 0)
	}
	return nil
}
