package rt

import (
	"slices"
	"strings"
	"testing"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// spanBackend is a backend of device spans only, which is all the closed
// span bookkeeping reads.
type spanBackend struct {
	hal.Backend // nil: any other method is a test failure
	spans       []hal.Span
}

func (b *spanBackend) Spans() []hal.Span { return b.spans }

func (b *spanBackend) Owner(addr uint64) (hal.Span, bool) {
	for _, sp := range b.spans {
		if sp.Contains(addr) {
			return sp, true
		}
	}
	return hal.Span{}, false
}

// TestClosedSpans follows a device closing and opening again: the closed
// ranges the hook is told of, kernel slots refused while their memory is
// gone and taken again once it is back, and copy ends named as memory of
// a device that is not open.
func TestClosedSpans(t *testing.T) {
	r := New(nil, nil)
	var told [][]hal.Span
	r.SetClosedHook(func(closed []hal.Span) { told = append(told, slices.Clone(closed)) })
	dev0 := hal.Span{Device: 0, Lo: 0x10000, Hi: 0x20000, Open: true}
	dev1 := hal.Span{Device: 1, Lo: 0x30000, Hi: 0x40000}
	b := &spanBackend{spans: []hal.Span{dev0, dev1}}

	r.closed.refresh(b)
	if len(told) != 1 || !slices.Equal(told[0], []hal.Span{dev1}) {
		t.Fatalf("hook told %v, want device 1's span alone", told)
	}
	err := r.closed.checkSlots([]uint64{0x10008, 7, 0x30008})
	if rterr.KindOf(err) != rterr.KindInvalidAddress || !strings.Contains(err.Error(), "slot 2") || !strings.Contains(err.Error(), "device 1") {
		t.Errorf("checkSlots with a slot in device 1's memory = %v, want an invalid address naming slot 2 and device 1", err)
	}
	if err := r.closed.checkSlots([]uint64{0x10008, 0x40000, 0x2ffff}); err != nil {
		t.Errorf("checkSlots with no slot inside a closed span = %v", err)
	}
	if err := errClosed(b, "dst", 0x3fff8); rterr.KindOf(err) != rterr.KindInvalidAddress || !strings.Contains(err.Error(), "dst 0x3fff8") {
		t.Errorf("errClosed in device 1's span = %v, want an error naming dst", err)
	}
	for _, addr := range []uint64{0x10008, 0x50000} {
		if err := errClosed(b, "dst", addr); err != nil {
			t.Errorf("errClosed(%#x), memory of an open device or of none = %v", addr, err)
		}
	}

	b.spans[1].Open = true
	r.closed.refresh(b)
	if len(told) != 2 || told[1] != nil {
		t.Fatalf("hook told %v once device 1 opened, want nil last", told)
	}
	if err := r.closed.checkSlots([]uint64{0x30008}); err != nil {
		t.Errorf("checkSlots once device 1 opened = %v", err)
	}

	r.closed.set([]hal.Span{dev0})
	r.SetClosedHook(nil)
	r.closed.set(nil)
	if len(told) != 3 || !slices.Equal(told[2], []hal.Span{dev0}) {
		t.Errorf("hook told %v; want a third call with device 0, and none after it was removed", told)
	}
}
