package ckernel

/*
#cgo LDFLAGS: -ldl -rdynamic
#include <dlfcn.h>
#include <stdlib.h>
#include "shim.h"

// call_kernel takes its pointers as integers: the arguments are in Go
// memory the caller keeps alive, and pointer arguments would cost a cgo
// pointer check on every block.
static int call_kernel(uintptr_t fn, int64_t idx, int64_t num, uintptr_t args, int n) {
	return gocann_call_kernel((void *)fn, idx, num, (const uint64_t *)args, n);
}

static int call_kernel_fp(uintptr_t fn, int64_t idx, int64_t num, uintptr_t args, int n, uint32_t fpmask) {
	return gocann_call_kernel_fp((void *)fn, idx, num, (const uint64_t *)args, n, fpmask);
}

static int call_kernels(uintptr_t calls, int n) {
	return gocann_call_kernels((const gocann_native_call *)calls, n);
}
*/
import "C"

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"unsafe"

	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
	"golang.org/x/sys/unix"
)

// Binary is a loaded kernel binary.
type Binary struct {
	name  string
	image []byte // the ELF file, for reading parameter information

	// mu is held shared while a block runs and exclusively to unload, so
	// the code is never unmapped under a running block.
	mu     sync.RWMutex
	handle unsafe.Pointer // nil once unloaded

	calls sync.Pool // *[kernel.MaxBatch]C.gocann_native_call, RunBatch's buffers
}

// LoadFile loads the kernel binary at path.
func LoadFile(path string) (*Binary, error) {
	if path == "" {
		return nil, rterr.Errorf(rterr.KindBadArgument, "binPath is empty, expected a kernel binary path")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, rterr.Wrap(rterr.KindInvalidFile, err, "kernel binary %s cannot be opened", path)
	}
	defer f.Close()
	if err := checkELF(f, path); err != nil {
		return nil, err
	}
	image, err := os.ReadFile(path)
	if err != nil {
		return nil, rterr.Wrap(rterr.KindInvalidFile, err, "kernel binary %s cannot be read", path)
	}
	// dlopen searches the library path for a name without a slash; a
	// relative binPath names a file from the working directory.
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, rterr.Wrap(rterr.KindInvalidFile, err, "kernel binary %s cannot be located", path)
	}
	return open(abs, path, image)
}

// LoadData loads a kernel binary from memory.
func LoadData(data []byte) (*Binary, error) {
	if len(data) == 0 {
		return nil, rterr.Errorf(rterr.KindBadArgument, "kernel binary data is empty, expected an ELF shared object")
	}
	fd, err := unix.MemfdCreate("gocann-kernel", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, rterr.Wrap(rterr.KindInternal, err, "creating a file for the kernel binary")
	}
	f := os.NewFile(uintptr(fd), "kernel binary")
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return nil, rterr.Wrap(rterr.KindInternal, err, "writing the kernel binary")
	}
	if err := checkELF(f, "kernel binary data"); err != nil {
		return nil, err
	}
	return open(fmt.Sprintf("/proc/self/fd/%d", fd), fmt.Sprintf("kernel binary data (%d bytes)", len(data)), append([]byte(nil), data...))
}

// hostMachine is the ELF machine of binaries this process can run.
func hostMachine() elf.Machine {
	switch runtime.GOARCH {
	case "arm64":
		return elf.EM_AARCH64
	case "riscv64":
		return elf.EM_RISCV
	}
	return elf.EM_X86_64
}

// checkELF refuses anything but a shared object for this host, such as a
// real Ascend device binary.
func checkELF(f *os.File, name string) error {
	ef, err := elf.NewFile(f)
	if err != nil {
		return rterr.Wrap(rterr.KindInvalidParam, err, "%s is not an ELF shared object; kernel binaries for the simulated NPU are host shared objects (gcc -shared -fPIC)", name)
	}
	defer ef.Close()
	if ef.Machine != hostMachine() {
		return rterr.Errorf(rterr.KindInvalidParam, "%s is for machine %v, not this host's %v: a device binary for a real Ascend NPU cannot run on the simulated NPU; build the kernel for the host (gcc -shared -fPIC)", name, ef.Machine, hostMachine())
	}
	if ef.Type != elf.ET_DYN {
		return rterr.Errorf(rterr.KindInvalidParam, "%s is an ELF %v, expected a shared object (ET_DYN)", name, ef.Type)
	}
	return nil
}

func open(path, name string, image []byte) (*Binary, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	h := C.dlopen(cpath, C.RTLD_NOW|C.RTLD_LOCAL)
	if h == nil {
		return nil, rterr.Errorf(rterr.KindInvalidParam, "loading %s: %s", name, C.GoString(C.dlerror()))
	}
	return &Binary{name: name, image: image, handle: h}, nil
}

// Name describes the binary in messages.
func (b *Binary) Name() string { return b.name }

// Kernel returns the kernel exported under name.
func (b *Binary) Kernel(name string) (*kernel.Func, error) {
	if name == "" {
		return nil, rterr.Errorf(rterr.KindBadArgument, "kernelName is empty")
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.handle == nil {
		return nil, rterr.Errorf(rterr.KindInvalidHandle, "kernel binary %s was unloaded", b.name)
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	fn := C.dlsym(b.handle, cname)
	if fn == nil {
		return nil, rterr.Errorf(rterr.KindSymbolNotFound, "kernel %q is not exported by %s", name, b.name)
	}
	fp, err := b.fpMask(name)
	if err != nil {
		return nil, err
	}
	simt := b.symbol(simtMarker + name)
	if fp != 0 || simt {
		// The batch and direct paths pass integer slots only, to one thread.
		return &kernel.Func{Name: name, Fn: func(blk *kernel.Block) { b.runFP(fn, name, blk, fp) }, SIMT: simt}, nil
	}
	return &kernel.Func{Name: name, Fn: func(blk *kernel.Block) { b.run(fn, name, blk) }, Batch: b, Entry: uintptr(fn)}, nil
}

// fpMask marks kernel name's float and double parameters (bit i for
// parameter i), which travel in floating-point registers. A kernel whose
// parameters are unknown is taken to have none.
func (b *Binary) fpMask(name string) (uint32, error) {
	ps, err := b.Parameters(name)
	if err != nil {
		return 0, nil
	}
	return floatMask(ps, name, b.name)
}

// floatMask marks the float and double parameters of ps (bit i for
// parameter i) for kernel name of where.
func floatMask(ps []Param, name, where string) (uint32, error) {
	var mask uint32
	for i, p := range ps {
		if p.Kind == ParamFloat || p.Kind == ParamDouble {
			mask |= 1 << i
		}
	}
	if mask != 0 && C.gocann_fp_supported() == 0 {
		return 0, rterr.Errorf(rterr.KindNotSupported, "kernel %q of %s takes float or double parameters, which gocann cannot pass on %s yet", name, where, runtime.GOARCH)
	}
	return mask, nil
}

// run runs one block; a trap or an unloaded binary is a kernel fault.
func (b *Binary) run(fn unsafe.Pointer, name string, blk *kernel.Block) { b.runFP(fn, name, blk, 0) }

// runFP runs one block of a kernel whose parameters fp marks as floating
// point (fpMask).
func (b *Binary) runFP(fn unsafe.Pointer, name string, blk *kernel.Block, fp uint32) {
	b.mu.RLock()
	if b.handle == nil {
		b.mu.RUnlock()
		panic(fmt.Sprintf("kernel %q: its binary %s was unloaded", name, b.name))
	}
	trapped := callBlock(fn, blk, blk.Args(), fp)
	b.mu.RUnlock()
	if trapped {
		panic(&kernel.TrapError{Msg: trapMessage()})
	}
}

// trapMessage is the message of the calling thread's last trap.
func trapMessage() string { return C.GoString(C.gocann_trap_message()) }

// callBlock calls fn for block blk with args, its parameters fp marks as
// floating point routed to their registers; it reports whether the
// kernel trapped, and passes a reported overflow on to blk. One thread of
// a SIMT launch calls it with its thread's view of the block.
func callBlock(fn unsafe.Pointer, blk *kernel.Block, args []uint64, fp uint32) bool {
	var p uintptr
	if len(args) > 0 {
		p = uintptr(unsafe.Pointer(&args[0]))
	}
	var r C.int
	switch {
	case blk.SIMT() != nil:
		r = callThread(fn, blk, args, fp)
	case fp == 0:
		r = C.call_kernel(C.uintptr_t(uintptr(fn)), C.int64_t(blk.Idx()), C.int64_t(blk.Num()), C.uintptr_t(p), C.int(len(args)))
	default:
		r = C.call_kernel_fp(C.uintptr_t(uintptr(fn)), C.int64_t(blk.Idx()), C.int64_t(blk.Num()), C.uintptr_t(p), C.int(len(args)), C.uint32_t(fp))
	}
	runtime.KeepAlive(args)
	if r&C.GOCANN_CALL_OVERFLOW != 0 {
		blk.ReportOverflow()
	}
	return r&C.GOCANN_CALL_TRAPPED != 0
}

// symbol reports whether b exports name. b.mu read-held.
func (b *Binary) symbol(name string) bool {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.dlsym(b.handle, cname) != nil
}

var _ kernel.Batcher = (*Binary)(nil)

// RunBatch runs one-block launches of kernels of b in one call into C.
func (b *Binary) RunBatch(calls []kernel.BatchCall) (int, any) {
	buf, _ := b.calls.Get().(*[kernel.MaxBatch]C.gocann_native_call)
	if buf == nil {
		buf = new([kernel.MaxBatch]C.gocann_native_call)
	}
	defer b.calls.Put(buf)
	done := 0
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.handle == nil {
		return 0, fmt.Sprintf("kernel %q: its binary %s was unloaded", calls[0].Kernel.Name, b.name)
	}
	for done < len(calls) {
		n := min(len(calls)-done, kernel.MaxBatch)
		for i, c := range calls[done : done+n] {
			buf[i] = C.gocann_native_call{fn: C.uintptr_t(c.Kernel.Entry),
				args: C.uintptr_t(uintptr(unsafe.Pointer(unsafe.SliceData(c.Args)))), nargs: C.int64_t(len(c.Args))}
		}
		// The buffer and the arguments are Go memory the calls keep
		// alive, passed as integers as call_kernel's are.
		ran := int(C.call_kernels(C.uintptr_t(uintptr(unsafe.Pointer(buf))), C.int(n)))
		runtime.KeepAlive(calls)
		done += ran
		if ran < n {
			return done, &kernel.TrapError{Msg: trapMessage()}
		}
	}
	return done, nil
}

// Unload unloads the binary once no block of it is running. Kernels of
// it queued later fault instead of running.
func (b *Binary) Unload() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.handle == nil {
		return rterr.Errorf(rterr.KindInvalidHandle, "kernel binary %s was already unloaded", b.name)
	}
	C.dlclose(b.handle)
	b.handle = nil
	return nil
}
