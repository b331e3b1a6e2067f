package haltest

import (
	"bytes"
	"encoding/binary"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/kernel"
)

// testHostMap checks hal.HostMapper: a kernel writes mapped host memory in
// place at its host address; overlapping maps are refused; once unmapped,
// the address faults.
func testHostMap(e *env) {
	m, ok := e.b.(hal.HostMapper)
	if !ok {
		e.t.Skip("the backend's kernels cannot reach host memory")
	}
	t := e.t
	host := e.pinned(8192)
	p := hostLoc(host).Host
	if err := m.MapHost(p, 4096); err != nil {
		t.Fatalf("MapHost: %v", err)
	}
	wantKind(t, m.MapHost(hostLoc(host[4000:]).Host, 200), hal.KindInvalidParam, "MapHost over a mapped range")
	q := e.queue()
	fill := func(b *kernel.Block) {
		copy(b.Bytes(b.Arg(0), int(b.Arg(1))), "written by a kernel")
	}
	e.run(q, kernelTask("haltest_hostmap", 1, fill, hostAddr(host)+10, 19))
	if got := string(host[10:29]); got != "written by a kernel" {
		t.Errorf("mapped host memory after the kernel reads %q", got)
	}
	// Past the mapped range, and after unmapping, the kernel faults.
	e.submit(q, kernelTask("haltest_hostmap_oob", 1, fill, hostAddr(host)+4090, 19))
	if err := m.UnmapHost(p); err != nil {
		t.Fatalf("UnmapHost: %v", err)
	}
	wantKind(t, m.UnmapHost(p), hal.KindInvalidAddress, "UnmapHost twice")
	e.submit(q, kernelTask("haltest_hostmap_gone", 1, fill, hostAddr(host)+10, 19))
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	if fs := q.TakeFaults(q.Submitted()); len(fs) != 2 || fs[0].Kind != hal.KindAICoreException || fs[1].Kind != hal.KindAICoreException {
		t.Errorf("faults %+v, want two AI core exceptions", fs)
	}
	e.waitHandled(2)
}

// testCopyBatch checks TaskCopyBatch through a queue and Device.Run: every
// copy of the batch lands, whatever its direction, in one task.
func testCopyBatch(e *env) {
	t := e.t
	for _, q := range []hal.Queue{e.queue(), nil} {
		a, b := e.malloc(e.d, 1<<20), e.malloc(e.d, 1<<20)
		src := e.pinned(1 << 20)
		copy(src, pattern(1<<20, 9))
		dst := make([]byte, 3<<10)
		var cs []hal.Copy
		for i := range 64 {
			off := uint64(i) * 16 << 10
			cs = append(cs, hal.Copy{Dst: hal.DevLoc(a.Addr + off), Src: hostLoc(src[off:]), Size: 16 << 10})
		}
		e.run(q, hal.Task{Kind: hal.TaskCopyBatch, Batch: &hal.Batch{Copies: cs}})
		if !bytes.Equal(devBytes(t, e.d, a.Addr, 1<<20), src) {
			t.Fatalf("%s: host to device batch wrong", mode(q))
		}
		e.run(q, hal.Task{Kind: hal.TaskCopyBatch, Batch: &hal.Batch{Copies: []hal.Copy{
			{Dst: hal.DevLoc(b.Addr + 1), Src: hal.DevLoc(a.Addr + 7), Size: 5000},
			{Dst: hostLoc(dst), Src: hal.DevLoc(a.Addr + 100), Size: 3 << 10},
			{Dst: hal.DevLoc(b.Addr + 9000), Src: hostLoc(src), Size: 0},
		}}})
		if !bytes.Equal(devBytes(t, e.d, b.Addr+1, 5000), src[7:5007]) || !bytes.Equal(dst, src[100:100+3<<10]) {
			t.Fatalf("%s: mixed batch wrong", mode(q))
		}
	}
}

// testMemset32 checks TaskMemset with Width 4: a 32-bit pattern, through a
// queue and Device.Run, on sizes a backend may split.
func testMemset32(e *env) {
	t := e.t
	for _, q := range []hal.Queue{e.queue(), nil} {
		for _, n := range []uint64{4, 4096, 3<<20 + 4} {
			a := e.malloc(e.d, n+8)
			e.run(q, hal.Task{Kind: hal.TaskMemset, Dst: hal.DevLoc(a.Addr + 4), Size: n, Value: 0xA1B2C3D4, Width: 4})
			got := devBytes(t, e.d, a.Addr, n+8)
			for i := uint64(0); i < n; i += 4 {
				if w := binary.LittleEndian.Uint32(got[4+i:]); w != 0xA1B2C3D4 {
					t.Fatalf("%s, %d bytes: word at %d = %#x, want 0xa1b2c3d4", mode(q), n, i, w)
				}
			}
			if binary.LittleEndian.Uint32(got) != 0 || binary.LittleEndian.Uint32(got[n+4:]) != 0 {
				t.Fatalf("%s, %d bytes: memset wrote outside its range", mode(q), n)
			}
		}
	}
}

// testCmo checks TaskCmo: it runs in queue order, changes no bytes and is
// traced as a cmo task.
func testCmo(e *env) {
	t := e.t
	q := e.queue()
	a := e.malloc(e.d, 4096)
	e.submit(q, memsetTask(a.Addr, 5, 4096))
	e.submit(q, hal.Task{Kind: hal.TaskCmo, Dst: hal.DevLoc(a.Addr), Size: 4096, Value: hal.CmoFlush})
	e.submit(q, memsetTask(a.Addr, 6, 16))
	e.wait(q)
	got := devBytes(t, e.d, a.Addr, 4096)
	if got[0] != 6 || got[16] != 5 || got[4095] != 5 {
		t.Errorf("bytes after memset, cmo, memset: %d %d %d, want 6 5 5", got[0], got[16], got[4095])
	}
	tr, ok := e.d.(hal.Tracer)
	if !ok {
		return
	}
	var kinds []hal.TaskKind
	for _, r := range tr.Trace(nil) {
		if r.Queue == q.ID() {
			kinds = append(kinds, r.Kind)
		}
	}
	if len(kinds) != 3 || kinds[1] != hal.TaskCmo {
		t.Errorf("trace of the queue: %v, want memset, cmo, memset", kinds)
	}
}
