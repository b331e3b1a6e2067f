package gocann_test

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
)

// The runtime's own device memory (AI core stacks, condition words, task
// argument blocks, placeholder copies) comes from the device's allocator,
// which hands a freed block of the same size straight back: it may take
// the address of memory the caller freed. Such an address is never the
// caller's again.

func TestStaleFreeSparesConditionWord(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	u := malloc(t, e.c, 8)
	check(t, e.c.Free(u))
	m, h, _ := condModel(t, e, k, gocann.CondIf, 2, 0, false, p)
	if h.Ptr() != u {
		t.Fatalf("the condition word is at %#x, not at the freed %#x: this test no longer reaches its case", h.Ptr(), u)
	}
	stale := e.c.Free(u)
	v := malloc(t, e.c, 8)
	if v == h.Ptr() {
		t.Errorf("a new allocation at %#x took the condition word's address", v)
	}
	// The word is still the caller's to read, write and describe.
	loc, dev, _, err := e.r.PointerAttributes(uintptr(h.Ptr()))
	check(t, err)
	if loc != gocann.LocationDevice || dev != 0 {
		t.Errorf("the condition word: location %v on device %d, want device memory of device 0", loc, dev)
	}
	writeU64(t, e.c, v, 99)
	runCond(t, e, m, h, 1, p, 10, "IF after the refused free, value 1")
	runCond(t, e, m, h, 0, p, 20, "IF after the refused free, value 0")
	wantU64(t, e, v, 99, "the caller's new allocation")
	check(t, m.Close())
	check(t, e.c.Free(v))
	wantErr(t, stale, gocann.CodeRTParamInvalid, "devPtr", "not from aclrtMalloc")
}

func TestStaleFreeSparesTaskArgs(t *testing.T) {
	e := setup(t)
	k := registerKernels(t, e)
	p := word(t, e, 0)
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Launch(k.store, 1, gocann.Ptr(p), gocann.U64(5))
	})
	check(t, err)
	u := malloc(t, e.c, 256)
	check(t, e.c.Free(u))
	task := kernelTask(t, m)
	args, err := task.ArgsDevice()
	check(t, err)
	if args != u {
		t.Fatalf("the task's argument block is at %#x, not at the freed %#x: this test no longer reaches its case", args, u)
	}
	stale := e.c.Free(u)
	v := malloc(t, e.c, 256)
	if v == args {
		t.Errorf("a new allocation at %#x took the argument block's address", v)
	}
	// Destroying the model frees its block, not the caller's memory.
	check(t, m.Close())
	writeU64(t, e.c, v, 7)
	wantU64(t, e, v, 7, "the caller's allocation after the model was destroyed")
	check(t, e.c.Free(v))
	wantErr(t, stale, gocann.CodeRTParamInvalid, "devPtr", "not from aclrtMalloc")
}

func TestStackIsNotTheCallers(t *testing.T) {
	// The AI core stacks take the start of the device's memory when it
	// opens; the first allocation of the caller's follows them.
	e := setup(t)
	free, total, err := e.d.MemInfo()
	check(t, err)
	first, err := e.c.Raw().Malloc(64, gocann.NormalOnly)
	check(t, err)
	base := unsafe.Add(first, -int(total-free))
	loc, _, _, err := e.r.PointerAttributes(uintptr(base))
	check(t, err)
	if loc != gocann.LocationUnregistered {
		t.Errorf("the AI core stack at %p: location %v, want unregistered", base, loc)
	}
	wantErr(t, e.r.Raw().Free(base), gocann.CodeRTParamInvalid, "devPtr", "not a live device allocation")
	_, _, err = e.r.Raw().AddressRange(base)
	wantErr(t, err, gocann.CodeRTParamInvalid, "not in a live allocation")
	host := make([]byte, 64)
	wantErr(t, e.c.Raw().Memcpy(gocann.CaptureThread{}, unsafe.Pointer(&host[0]), 64, base, 64, gocann.MemcpyDeviceToHost),
		gocann.CodeRTParamInvalid, "src", "not in a live device allocation")
	_, _, err = e.d.ShareMemory(gocann.DevPtr(uintptr(base)))
	wantErr(t, err, gocann.CodeRTParamInvalid, "not in a live allocation")
	check(t, e.r.Raw().Free(first))
}

// kernelTask returns the one kernel task of a captured model.
func kernelTask(t *testing.T, m *gocann.ModelRI) gocann.ModelTask {
	t.Helper()
	streams, err := m.Streams()
	check(t, err)
	for _, s := range streams {
		for _, task := range s.Tasks() {
			if task.Type() == gocann.TaskKernel {
				return task
			}
		}
	}
	t.Fatal("the model has no kernel task")
	return gocann.ModelTask{}
}

func TestPlaceholderCopyGoesWithKernelOrModel(t *testing.T) {
	// A launch with placeholders copies its block to device memory of the
	// runtime's, freed after the kernel; recorded into a model, it stays
	// for every run and goes with the model.
	e := setup(t)
	out := word(t, e, 0)
	k, err := e.r.RegisterKernel("ph_sum", func(b *gocann.Block) {
		b.Store64(b.Arg(0).Ptr(), b.Load64(b.Arg(1).Ptr())+b.Load64(b.Arg(1).Ptr().Add(8)))
	})
	check(t, err)
	block := make([]byte, 32)
	binary.LittleEndian.PutUint64(block[0:], uint64(out))
	binary.LittleEndian.PutUint64(block[16:], 40)
	binary.LittleEndian.PutUint64(block[24:], 2)
	phs := []gocann.Placeholder{{AddrOffset: 8, DataOffset: 16}}
	free0, _, err := e.d.MemInfo()
	check(t, err)
	check(t, e.s.Raw().LaunchPlaceholders(k, 1, block, 16, phs, 0))
	syncOK(t, e.s)
	wantU64(t, e, out, 42, "the eager launch")
	if free, _, err := e.d.MemInfo(); err != nil || free != free0 {
		t.Errorf("free device memory %d after the kernel (%v), want %d: the copy was freed", free, err, free0)
	}
	m, err := e.s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		return s.Raw().LaunchPlaceholders(k, 1, block, 16, phs, 0)
	})
	check(t, err)
	for run := range 2 {
		writeU64(t, e.c, out, 0)
		runOK(t, m, e.s)
		wantU64(t, e, out, 42, "run "+itoa(int32(run))+" of the captured launch")
	}
	check(t, m.Close())
	if free, _, err := e.d.MemInfo(); err != nil || free != free0 {
		t.Errorf("free device memory %d after the model went (%v), want %d", free, err, free0)
	}
}
