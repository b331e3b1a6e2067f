package haltest

import (
	"bytes"
	"encoding/binary"

	"github.com/gocann/gocann/hal"
)

// testCopyIndirect checks TaskCopyIndirect: the ends (plus offsets) and the
// count are read from device memory when the task starts, after the tasks
// before it wrote them; an end outside device memory faults.
func testCopyIndirect(e *env) {
	t := e.t
	for _, q := range []hal.Queue{e.queue(), nil} {
		src, dst, words := e.malloc(e.d, 8192), e.malloc(e.d, 8192), e.malloc(e.d, 64)
		want := pattern(8192, 3)
		copy(devBytes(t, e.d, src.Addr, 8192), want)
		var w [24]byte
		binary.LittleEndian.PutUint64(w[0:], dst.Addr)
		binary.LittleEndian.PutUint64(w[8:], src.Addr)
		binary.LittleEndian.PutUint64(w[16:], 700)
		ind := hal.Task{Kind: hal.TaskCopyIndirect, Dst: hal.DevLoc(words.Addr), Src: hal.DevLoc(words.Addr + 8),
			DPitch: 10, SPitch: 20, Value: words.Addr + 16}
		if q != nil {
			host := e.pinned(24)
			copy(host, w[:])
			e.submit(q, copyTask(hal.DevLoc(words.Addr), hostLoc(host), 24)) // written by the queue itself
			e.submit(q, ind)
			e.wait(q)
		} else {
			copy(devBytes(t, e.d, words.Addr, 24), w[:])
			e.run(nil, ind)
		}
		got := devBytes(t, e.d, dst.Addr, 8192)
		if !bytes.Equal(got[10:710], want[20:720]) || got[9] != 0 || got[710] != 0 {
			t.Fatalf("%s: indirect copy wrong", mode(q))
		}
	}
	q := e.queue()
	words := e.malloc(e.d, 16)
	copy(devBytes(t, e.d, words.Addr, 16), make([]byte, 16)) // both ends 0: not device memory
	e.submit(q, hal.Task{Kind: hal.TaskCopyIndirect, Dst: hal.DevLoc(words.Addr), Src: hal.DevLoc(words.Addr + 8), Size: 8})
	if err := waitSeq(q, q.Submitted(), patience); err != nil {
		t.Fatal(err)
	}
	if fs := q.TakeFaults(q.Submitted()); len(fs) != 1 || fs[0].Kind != hal.KindDMAFault {
		t.Errorf("faults %+v, want one DMA fault", fs)
	}
	e.waitHandled(1)
}
