package ckernel_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann"
	"github.com/gocann/gocann/ckernel"
	"github.com/gocann/gocann/kernel"
)

// Kernels whose code faults: a fault fails the task with an AI-core
// exception and the process goes on.
const faultSrc = `
#include <stdint.h>
#include <stdexcept>
extern "C" int64_t GetBlockIdx(void);
extern "C" int64_t GetBlockNum(void);

extern "C" void read_at(uint64_t *out, uint64_t addr) { *out = *(volatile uint64_t *)addr; }
extern "C" void write_at(uint64_t addr, uint64_t v) { *(volatile uint64_t *)addr = v; }
/* Block b writes addr + b*4096 when b is odd (or every block, with all set). */
extern "C" void write_blocks(uint64_t addr, uint64_t all) {
	int64_t b = GetBlockIdx();
	if (all || b % 2) *(volatile uint64_t *)(addr + (uint64_t)b * 4096) = 1;
}
/* The pointer is read from device memory: no argument slot holds it. */
extern "C" void chase(uint64_t *table) { table[1] = *(volatile uint64_t *)table[0]; }
extern "C" void divide(int32_t *out, int32_t a, int32_t b) { volatile int32_t x = a, y = b; *out = x / y; }
extern "C" void index_far(float *x, uint64_t i) { x[i] = 1.0f; }
extern "C" void illegal(void) {
#if defined(__x86_64__)
	__asm__ volatile("ud2");
#elif defined(__aarch64__)
	__asm__ volatile(".inst 0x00000000");
#endif
}
extern "C" void throws(uint64_t v) {
	if (v) throw std::runtime_error("boom " + std::to_string(v));
}
extern "C" void throws_int(void) { throw 42; }
extern "C" void store(uint64_t *out, uint64_t v) { out[GetBlockIdx()] = v; }
extern "C" void gocann_report_overflow(void);
extern "C" void overflows(void) { gocann_report_overflow(); }
`

// buildCXX compiles a C++ kernel binary.
func buildCXX(t *testing.T, src string) string { return buildSrc(t, "g++", "k.cpp", src) }

// buildSrc compiles src, in file name, into a kernel binary with
// compiler, with the kernel headers.
func buildSrc(t *testing.T, compiler, name, src string) string {
	t.Helper()
	if _, err := exec.LookPath(compiler); err != nil {
		t.Skipf("%s is not installed", compiler)
	}
	dir := t.TempDir()
	file, so := filepath.Join(dir, name), filepath.Join(dir, "k.so")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(compiler, "-O2", "-Wall", "-Werror", "-shared", "-fPIC", "-I"+filepath.Join("..", "include"),
		"-o", so, file).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", compiler, err, out)
	}
	return so
}

type faultKit struct {
	r   *gocann.Runtime
	c   *gocann.Context
	s   *gocann.Stream
	bin *ckernel.Binary
}

func newFaultKit(t *testing.T) *faultKit {
	t.Helper()
	so := buildCXX(t, faultSrc)
	r, c, s := setup(t)
	bin, err := ckernel.LoadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bin.Unload() })
	return &faultKit{r: r, c: c, s: s, bin: bin}
}

func (k *faultKit) kernel(t *testing.T, name string) *gocann.Kernel {
	t.Helper()
	hk, err := k.bin.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return gocann.NewKernel(hk)
}

// launch runs kernel name on blocks blocks and returns what synchronizing
// the stream reports.
func (k *faultKit) launch(t *testing.T, name string, blocks uint32, args ...gocann.Arg) error {
	t.Helper()
	if err := k.s.Launch(k.kernel(t, name), blocks, args...); err != nil {
		t.Fatalf("launching %s: %v", name, err)
	}
	return k.s.Synchronize(context.Background())
}

// works checks that the device still runs correct work, on a new stream.
func (k *faultKit) works(t *testing.T) {
	t.Helper()
	s, err := k.c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err := k.c.Malloc(8*4, gocann.NormalOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer k.c.Free(out)
	if err := s.Launch(k.kernel(t, "store"), 4, gocann.Ptr(out), gocann.U64(0x5eed)); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(context.Background()); err != nil {
		t.Fatalf("work after a fault: %v", err)
	}
	buf := make([]byte, 8*4)
	if err := k.c.CopyFromDevice(buf, out); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if v := *(*uint64)(unsafe.Pointer(&buf[8*i])); v != 0x5eed {
			t.Fatalf("after a fault, block %d stored %#x, want 0x5eed", i, v)
		}
	}
}

// wantFault checks err's code and that its message holds every part.
func wantFault(t *testing.T, what string, err error, code gocann.Code, parts ...string) {
	t.Helper()
	if gocann.CodeOf(err) != code || !errors.Is(err, gocann.ErrDevice) {
		t.Fatalf("%s: %v, want code %d", what, err, code)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %q lacks %q", what, err, p)
		}
	}
}

// inaccessiblePage returns the address of a page mapped with no access,
// kept until the test ends: an unmapped page would be taken by the next
// mapping the process makes, and a kernel's stray write would land there.
func inaccessiblePage(t *testing.T) uint64 {
	t.Helper()
	m, err := unix.Mmap(-1, 0, 4096, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Munmap(m) })
	return uint64(uintptr(unsafe.Pointer(&m[0])))
}

func TestKernelFaults(t *testing.T) {
	k := newFaultKit(t)
	out, _ := k.c.Malloc(64, gocann.NormalOnly)
	noAccess := inaccessiblePage(t)
	hex := fmt.Sprintf("%#x", noAccess)

	err := k.launch(t, "read_at", 1, gocann.Ptr(out), gocann.U64(8))
	wantFault(t, "reading the NULL page", err, gocann.CodeRTAICoreTrapReadOverflow,
		`kernel "read_at" block 0 of 1`, "read of address 0x8 faulted (SIGSEGV, address not mapped) at instruction 0x",
		"(read_at+0x", "k.so): the NULL page, in no allocation")
	k.works(t)

	err = k.launch(t, "read_at", 1, gocann.Ptr(out), gocann.U64(noAccess))
	wantFault(t, "reading an inaccessible page", err, gocann.CodeRTAICoreTrapReadOverflow, "read of address "+hex, "in no allocation")
	k.works(t)

	err = k.launch(t, "write_at", 1, gocann.U64(noAccess), gocann.U64(1))
	wantFault(t, "writing an inaccessible page", err, gocann.CodeRTAICoreTrapWriteOverflow, "write of address "+hex)
	k.works(t)

	if runtime.GOARCH == "amd64" { // arm64's division by zero gives 0
		err = k.launch(t, "divide", 1, gocann.Ptr(out), gocann.I64(7), gocann.I64(0))
		wantFault(t, "dividing by zero", err, gocann.CodeRTAICoreException, "SIGFPE, integer division by zero", `kernel "divide"`)
		k.works(t)
	}

	err = k.launch(t, "illegal", 3)
	wantFault(t, "an illegal instruction", err, gocann.CodeRTAICoreException, "SIGILL, illegal instruction", `kernel "illegal" block `)
	k.works(t)

	err = k.launch(t, "throws", 1, gocann.U64(7))
	wantFault(t, "throwing", err, gocann.CodeRTAICoreException, "a C++ exception left the kernel: std::runtime_error: boom 7")
	err = k.launch(t, "throws_int", 1)
	wantFault(t, "throwing an int", err, gocann.CodeRTAICoreException, "a C++ exception left the kernel: int")
	k.works(t)

	// A block that reports an overflow returns normally.
	if err := k.launch(t, "overflows", 2); err != nil {
		t.Errorf("a kernel reporting an overflow: %v", err)
	}
}

// TestKernelFaultBlocks: one block of several faults, then every block at
// once; each is contained on its own thread.
func TestKernelFaultBlocks(t *testing.T) {
	k := newFaultKit(t)
	m, err := unix.Mmap(-1, 0, 64*4096, unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	base := uint64(uintptr(unsafe.Pointer(&m[0])))
	err = k.launch(t, "write_blocks", 2, gocann.U64(base), gocann.U64(0))
	wantFault(t, "block 1 of 2 writing a read-only page", err, gocann.CodeRTAICoreTrapWriteOverflow,
		"block 1 of 2", "(SIGSEGV, access not permitted)")
	err = k.launch(t, "write_blocks", 64, gocann.U64(base), gocann.U64(1))
	wantFault(t, "all 64 blocks writing read-only pages", err, gocann.CodeRTAICoreTrapWriteOverflow, "of 64: write of address")
	k.works(t)
}

// TestKernelFaultPlaces: the message says where the address is: past the
// end of an argument's allocation (into the guard after device memory),
// or in memory of a device that was reset.
func TestKernelFaultPlaces(t *testing.T) {
	k := newFaultKit(t)
	x, _ := k.c.Malloc(4096, gocann.NormalOnly)
	// setup's device has 1 GiB: 2^28 floats past x is past its memory.
	err := k.launch(t, "index_far", 1, gocann.Ptr(x), gocann.U64(1<<28))
	wantFault(t, "indexing past device memory", err, gocann.CodeRTAICoreTrapWriteOverflow,
		fmt.Sprintf("past the end of argument 0, the 4096-byte allocation at %#x (memory of device 0)", uint64(x)))

	d1, err := k.r.SetDevice(1)
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := d1.Context()
	y, err := c1.Malloc(4096, gocann.NormalOnly)
	if err != nil {
		t.Fatal(err)
	}
	if err := d1.Reset(); err != nil {
		t.Fatal(err)
	}
	table, _ := k.c.Malloc(16, gocann.NormalOnly)
	var ptr [16]byte
	*(*uint64)(unsafe.Pointer(&ptr[0])) = uint64(y)
	if err := k.c.CopyToDevice(table, ptr[:]); err != nil {
		t.Fatal(err)
	}
	err = k.launch(t, "chase", 1, gocann.Ptr(table))
	wantFault(t, "reading memory of a reset device", err, gocann.CodeRTAICoreTrapReadOverflow,
		fmt.Sprintf("read of address %#x", uint64(y)), "freed device memory: memory of device 1, which was reset since")
	k.works(t)
}

// TestKernelFaultsInARow: twenty faulting launches, on streams running at
// once, leave the device as it was.
func TestKernelFaultsInARow(t *testing.T) {
	k := newFaultKit(t)
	var wg sync.WaitGroup
	for g := range 4 {
		s, err := k.c.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		wg.Go(func() {
			for i := range 5 {
				if err := s.Launch(k.kernel(t, "write_at"), 3, gocann.U64(uint64(16+g)), gocann.U64(uint64(i))); err != nil {
					t.Error(err)
					return
				}
				if err := s.Synchronize(context.Background()); gocann.CodeOf(err) != gocann.CodeRTAICoreTrapWriteOverflow {
					t.Errorf("stream %d launch %d: %v", g, i, err)
				}
			}
		})
	}
	wg.Wait()
	k.works(t)
}

// TestKernelFaultInModel: a fault in a captured model fails the run that
// met it, every time it is replayed, and the model's other work is done.
func TestKernelFaultInModel(t *testing.T) {
	k := newFaultKit(t)
	out, _ := k.c.Malloc(8*4, gocann.NormalOnly)
	m, err := k.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		if err := s.Launch(k.kernel(t, "store"), 1, gocann.Ptr(out), gocann.U64(1)); err != nil {
			return err
		}
		if err := s.Launch(k.kernel(t, "store"), 1, gocann.Ptr(out), gocann.U64(2)); err != nil {
			return err
		}
		return s.Launch(k.kernel(t, "read_at"), 1, gocann.Ptr(out), gocann.U64(24))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for i := range 3 {
		if err := m.Run(k.s); err != nil {
			t.Fatal(err)
		}
		err := k.s.Synchronize(context.Background())
		wantFault(t, fmt.Sprintf("replay %d", i), err, gocann.CodeRTAICoreTrapReadOverflow, "read of address 0x18")
	}
	if v := k.word(t, out); v != 2 {
		t.Errorf("the model's kernels before the fault stored %d, want 2", v)
	}

	// A C++ exception in the middle of a run of one-block C kernels, which
	// the graph runner hands to the binary as one batch: the fault names
	// the kernel that threw, and the model goes on past it, as a stream in
	// ACL_CONTINUE_ON_FAILURE mode does.
	m2, err := k.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		for _, l := range []struct {
			name string
			args []gocann.Arg
		}{{"store", []gocann.Arg{gocann.Ptr(out), gocann.U64(5)}}, {"throws", []gocann.Arg{gocann.U64(9)}},
			{"store", []gocann.Arg{gocann.Ptr(out), gocann.U64(6)}}} {
			if err := s.Launch(k.kernel(t, l.name), 1, l.args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if err := m2.Run(k.s); err != nil {
		t.Fatal(err)
	}
	err = k.s.Synchronize(context.Background())
	wantFault(t, "a model's batch", err, gocann.CodeRTAICoreException, `"throws"`, "std::runtime_error: boom 9")
	if v := k.word(t, out); v != 6 {
		t.Errorf("around the exception the batch stored %d, want 6 (the last kernel's)", v)
	}
	k.works(t)
}

// word reads the first 8 bytes at p.
func (k *faultKit) word(t *testing.T, p gocann.DevPtr) uint64 {
	t.Helper()
	buf := make([]byte, 8)
	if err := k.c.CopyFromDevice(buf, p); err != nil {
		t.Fatal(err)
	}
	return *(*uint64)(unsafe.Pointer(&buf[0]))
}

// TestFaultValue: a Fault describes itself for the task's message.
func TestFaultValue(t *testing.T) {
	f := &kernel.Fault{Signal: unix.SIGSEGV, Code: 1, Addr: 0x10, AddrKnown: true, Access: kernel.AccessWrite, Where: "the NULL page"}
	if got, want := f.Error(), "write of address 0x10 faulted (SIGSEGV, address not mapped): the NULL page"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestKernelFaultSIMT: one thread of a SIMT block faults before the
// block's barrier; it leaves the barrier, the others go on, and the launch
// fails with the fault.
func TestKernelFaultSIMT(t *testing.T) {
	so := buildSrc(t, "gcc", "k.c", `
#include <gocann/kernel.h>
void simt_fault(uint64_t *out, uint64_t bad) {
	gocann_dim3 t = gocann_thread_idx();
	if (t.x == 3) *(volatile uint64_t *)bad = 1;
	asc_syncthreads();
	out[t.x] = 1;
}
GOCANN_SIMT_KERNEL(simt_fault);
`)
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend950PR_9599"}}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, _ := r.SetDevice(0)
	c, _ := d.Context()
	s, _ := c.NewStream()
	bin, err := ckernel.LoadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Unload()
	hk, err := bin.Kernel("simt_fault")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := c.Malloc(8*32, gocann.NormalOnly)
	if err := s.LaunchSIMT(gocann.NewKernel(hk), gocann.Dim3{X: 2, Y: 1, Z: 1}, gocann.Dim3{X: 32, Y: 1, Z: 1}, gocann.Ptr(out), gocann.U64(24)); err != nil {
		t.Fatal(err)
	}
	wantFault(t, "a SIMT thread writing the NULL page", s.Synchronize(context.Background()), gocann.CodeRTAICoreTrapWriteOverflow,
		`kernel "simt_fault"`, "write of address 0x18 faulted")
}

// TestGoFaultsStayGo: with kernel faults contained, a fault in Go code is
// still Go's: a nil dereference panics, and recover stops it.
func TestGoFaultsStayGo(t *testing.T) {
	k := newFaultKit(t) // loads a kernel binary: the handler is installed
	wantFault(t, "a kernel fault first", k.launch(t, "read_at", 1, gocann.U64(0), gocann.U64(8)),
		gocann.CodeRTAICoreTrapReadOverflow, "read of address 0x8")
	var got any
	func() {
		defer func() { got = recover() }()
		var p *struct{ x [64]int }
		p.x[3] = 1
	}()
	if err, ok := got.(error); !ok || !strings.Contains(err.Error(), "nil pointer dereference") {
		t.Fatalf("a nil dereference in Go code recovered %v, want Go's runtime error", got)
	}
	k.works(t)
}

// TestHostFaultEndsProcess: a fault outside kernel code, in a program
// whose kernel faults are contained, ends it as Go ends it: a panic
// report naming the signal, exit status 2.
func TestHostFaultEndsProcess(t *testing.T) {
	if os.Getenv("GOCANN_HOST_FAULT_CHILD") == "1" {
		k := newFaultKit(t)
		if err := k.launch(t, "read_at", 1, gocann.U64(0), gocann.U64(8)); gocann.CodeOf(err) != gocann.CodeRTAICoreTrapReadOverflow {
			t.Fatalf("the kernel fault: %v", err)
		}
		fmt.Println("kernel fault contained")
		var p *[64]int
		p[5] = 1 // the program's own bug, on no goroutine that recovers
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostFaultEndsProcess$", "-test.v")
	cmd.Env = append(os.Environ(), "GOCANN_HOST_FAULT_CHILD=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "kernel fault contained") ||
		!strings.Contains(string(out), "panic: runtime error: invalid memory address or nil pointer dereference") ||
		!strings.Contains(string(out), "[signal SIGSEGV: segmentation violation") {
		t.Fatalf("a host fault in the child: %v, want Go's panic report and exit status 2\n%s", err, out)
	}
}
