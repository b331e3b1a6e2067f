package main

import "testing"

func TestHandleLayout(t *testing.T) {
	for _, c := range []struct {
		k   kind
		gen uint32
		idx uint32
	}{{kindContext, 1, 0}, {kindLabelList, 0xffffffff, maxChunks*chunkSize - 1}, {kindStream, 65536, 12345}} {
		h := makeHandle(c.k, c.gen, c.idx)
		if h.kind() != c.k || h.gen() != c.gen || h.index() != c.idx {
			t.Errorf("makeHandle(%d, %#x, %d) = %#x decodes as (%d, %#x, %d)", c.k, c.gen, c.idx, uintptr(h), h.kind(), h.gen(), h.index())
		}
		// Past user space (below 2^47, or 2^56 with 5-level paging).
		if uintptr(h) < 1<<56 {
			t.Errorf("handle %#x could be a user-space address", uintptr(h))
		}
	}
}

// One slot reused 65536 times: with a 16-bit generation its first handle
// named the object of the last reuse.
func TestStaleHandleAfter65536Reuses(t *testing.T) {
	var tb table
	first, _ := tb.add(kindStream, "first")
	if !tb.remove(first, kindStream) {
		t.Fatal("remove of a live handle failed")
	}
	var h handle
	for i := range 1 << 16 {
		h, _ = tb.add(kindStream, i)
		if h.index() != first.index() {
			t.Fatalf("reuse %d took slot %d, not the freed slot %d", i, h.index(), first.index())
		}
		if i < 1<<16-1 {
			tb.remove(h, kindStream)
		}
	}
	if obj, ok := tb.get(first, kindStream); ok {
		t.Fatalf("the handle destroyed 65536 reuses ago resolves to %v", obj)
	}
	if tb.remove(first, kindStream) {
		t.Fatal("remove of the stale handle succeeded")
	}
	if obj, ok := tb.get(h, kindStream); !ok || obj != 1<<16-1 {
		t.Fatalf("the live handle resolves to (%v, %v), expected (%d, true)", obj, ok, 1<<16-1)
	}
}

// At the last generation a slot is retired: it is never handed out again,
// so no handle of its earlier generations can name a later object.
func TestSlotRetiredAtGenerationWrap(t *testing.T) {
	var tb table
	h, _ := tb.add(kindEvent, "a")
	idx := h.index()
	tb.remove(h, kindEvent)
	tb.mu.Lock()
	tb.gens[idx] = 0xfffffffe
	tb.mu.Unlock()
	var stale []handle
	for _, want := range []uint32{0xfffffffe, 0xffffffff} {
		g, _ := tb.add(kindEvent, want)
		if g.index() != idx || g.gen() != want {
			t.Fatalf("add gave slot %d generation %#x, expected slot %d generation %#x", g.index(), g.gen(), idx, want)
		}
		if obj, ok := tb.get(g, kindEvent); !ok || obj != want {
			t.Fatalf("get of generation %#x = (%v, %v)", want, obj, ok)
		}
		tb.remove(g, kindEvent)
		stale = append(stale, g)
	}
	next, _ := tb.add(kindEvent, "next")
	if next.index() == idx {
		t.Fatalf("slot %d was handed out again after its last generation", idx)
	}
	for _, g := range append(stale, h) {
		if _, ok := tb.get(g, kindEvent); ok {
			t.Errorf("stale handle %#x resolves", uintptr(g))
		}
	}
	tb.clear()
	again, _ := tb.add(kindEvent, "again")
	if again.index() == idx {
		t.Fatalf("slot %d was handed out again after clear", idx)
	}
}
