package ckernel

/*
#cgo LDFLAGS: -ldl -rdynamic
#include <dlfcn.h>
#include <stdlib.h>
#include "shim.h"
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
	installFaults()
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
	var k *kernel.Func
	if fp != 0 || simt {
		// The batch and direct paths pass integer slots only, to one thread.
		k = &kernel.Func{Name: name, Fn: func(blk *kernel.Block) { b.runFP(fn, name, blk, fp) }, SIMT: simt, Emit: emit}
	} else {
		k = &kernel.Func{Name: name, Fn: func(blk *kernel.Block) { b.run(fn, name, blk) }, Batch: b, Entry: uintptr(fn), Emit: emit}
	}
	markGang(k, b.gangFlags(name))
	if skfn := b.lookup(skMarker + name); skfn != nil {
		k.SK = &kernel.Func{Name: name, Fn: func(blk *kernel.Block) { b.runSK(skfn, name, blk) }, Emit: emit, Gang: k.Gang, Cores: k.Cores}
		if capp := b.lookup(skCapMarker + name); capp != nil {
			k.SK.SKCap = *(*uint64)(capp)
		}
	}
	return k, nil
}

// skMarker is the prefix of the function SK_BIND defines for a kernel's
// SuperKernel sub-function (gocann/ascendc/gocann_superkernel.h).
const skMarker = "gocann_sk_"

// skCapMarker is the prefix of SK_BIND's cap symbol.
const skCapMarker = "gocann_skcap_"

// lookup returns the address of b's symbol name, nil if it has none. b.mu
// read-held.
func (b *Binary) lookup(name string) unsafe.Pointer {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.dlsym(b.handle, cname)
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

// symbol reports whether b exports name. b.mu read-held.
func (b *Binary) symbol(name string) bool {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.dlsym(b.handle, cname) != nil
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
