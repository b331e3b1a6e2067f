package main

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
)

// argParamModel is what a list parameter should hold.
type argParamModel struct {
	val []byte // padded to 8
	ph  bool
	buf []byte // the placeholder's buffer as written
	at  unsafe.Pointer
}

// argsModel drives one argument list through the Go entry points of the
// aclrtKernelArgs* calls and checks it against argParamModel values.
type argsModel struct {
	t      *testing.T
	a      *cArgs
	h      unsafe.Pointer // the list's handle as C holds it
	params []argParamModel
	final  bool
	cap    uint64 // the bytes the list may hold
}

// used mirrors cArgs.used: the bytes of the parameters and placeholder
// buffers, the buffer of parameter skip counted as extra bytes instead.
func (m *argsModel) used(skip int, extra uint64) uint64 {
	n := extra
	for i, p := range m.params {
		n += uint64(len(p.val))
		if i != skip {
			n += pad8(uint64(len(p.buf)))
		}
	}
	return n
}

// want checks err is nil when ok, and otherwise carries kind k's code.
func (m *argsModel) want(what string, err error, ok bool, k gocann.Kind) {
	m.t.Helper()
	if ok && err != nil {
		m.t.Fatalf("%s: %v, expected success", what, err)
	}
	if !ok && gocann.CodeOf(err) != gocann.CodeOf(gocann.Errorf(what, k, "")) {
		m.t.Fatalf("%s: (%v), expected kind %v", what, err, k)
	}
}

// ptr is h as the pointer C holds.
func ptr(h handle) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&h)) }

// param returns the handle of parameter i, which may be past the end.
func param(i int) unsafe.Pointer { return ptr(makeHandle(kindParam, 0, uint32(i))) }

// bytesAt is where val's bytes are: a byte of its own when val is empty,
// so a size of 0 comes with a valid pointer.
func bytesAt(val []byte) unsafe.Pointer {
	if len(val) == 0 {
		return unsafe.Pointer(new(byte))
	}
	return unsafe.Pointer(unsafe.SliceData(val))
}

func (m *argsModel) append(val []byte, nilParam bool) {
	m.t.Helper()
	p := bytesAt(val)
	if nilParam {
		p = nil
	}
	h, err := argsAppend(m.h, p, uintptr(len(val)))
	switch {
	case p == nil:
		m.want("append with param NULL", err, false, gocann.KindBadArgument)
	case len(val) == 0 || len(val) > 8*gocann.MaxArgs:
		m.want("append of too many bytes", err, false, gocann.KindInvalidParam)
	case len(m.params) == maxListParams:
		m.want("append to a full list", err, false, gocann.KindInvalidParam)
	case m.used(-1, pad8(uint64(len(val)))) > m.cap:
		m.want("append past the list's memory", err, false, gocann.KindInvalidParam)
	default:
		m.want("append", err, true, 0)
		if h != makeHandle(kindParam, 0, uint32(len(m.params))) {
			m.t.Fatalf("append returned parameter handle %#x for parameter %d", uintptr(h), len(m.params))
		}
		v := make([]byte, (len(val)+7)&^7)
		copy(v, val)
		m.params = append(m.params, argParamModel{val: v})
	}
}

func (m *argsModel) placeholder() {
	m.t.Helper()
	_, err := argsAppendPlaceHolder(m.h)
	m.want("append a placeholder", err, len(m.params) < maxListParams && m.used(-1, 8) <= m.cap, gocann.KindInvalidParam)
	if err == nil {
		m.params = append(m.params, argParamModel{val: make([]byte, 8), ph: true})
	}
}

func (m *argsModel) buffer(i int, size uintptr, fill byte) {
	m.t.Helper()
	buf, err := argsPlaceHolderBuffer(m.h, param(i), size)
	switch {
	case size == 0:
		m.want("placeholder buffer of 0 bytes", err, false, gocann.KindInvalidParam)
	case i >= len(m.params):
		m.want("placeholder buffer of a parameter past the end", err, false, gocann.KindInvalidHandle)
	case !m.params[i].ph:
		m.want("placeholder buffer of a value parameter", err, false, gocann.KindInvalidParam)
	case uintptr(len(m.params[i].buf)) < size && m.used(i, pad8(uint64(size))) > m.cap:
		m.want("placeholder buffer past the list's memory", err, false, gocann.KindInvalidParam)
	default:
		m.want("placeholder buffer", err, true, 0)
		p := &m.params[i]
		if uintptr(len(p.buf)) < size {
			p.buf = make([]byte, size) // a new, zeroed buffer
		} else if buf != p.at {
			m.t.Fatalf("a request of %d bytes moved the %d-byte buffer of parameter %d", size, len(p.buf), i)
		}
		p.at = buf
		b := unsafe.Slice((*byte)(buf), size)
		for j := range b {
			b[j] = fill + byte(j)
			p.buf[j] = b[j]
		}
	}
}

func (m *argsModel) update(i int, val []byte) {
	m.t.Helper()
	err := argsParaUpdate(m.h, param(i), bytesAt(val), uintptr(len(val)))
	switch {
	case i >= len(m.params):
		m.want("update of a parameter past the end", err, false, gocann.KindInvalidHandle)
	case m.params[i].ph:
		m.want("update of a placeholder", err, false, gocann.KindInvalidParam)
	case (len(val)+7)&^7 != len(m.params[i].val):
		m.want("update to another size", err, false, gocann.KindInvalidParam)
	default:
		m.want("update", err, true, 0)
		clear(m.params[i].val)
		copy(m.params[i].val, val)
		m.final = false
	}
}

// check compares the list's argument block with the model's layout: the
// parameters, then each placeholder's buffer padded to 8, its slot naming
// the buffer's offset.
func (m *argsModel) check() {
	m.t.Helper()
	var want []byte
	var phs []placeholder
	for _, p := range m.params {
		want = append(want, p.val...)
	}
	slots := len(want)
	off := 0
	for _, p := range m.params {
		if p.ph {
			phs = append(phs, placeholder{AddrOffset: uint64(off), DataOffset: uint64(len(want))})
			want = append(want, p.buf...)
			want = append(want, make([]byte, (8-len(want)%8)%8)...)
		}
		off += len(p.val)
	}
	got, gotSlots, gotPhs := m.a.block()
	if !bytes.Equal(got, want) || gotSlots != slots || len(gotPhs) != len(phs) {
		m.t.Fatalf("block: %d bytes, %d in slots, %d placeholders; expected %d, %d, %d", len(got), gotSlots, len(gotPhs), len(want), slots, len(phs))
	}
	for i := range phs {
		if gotPhs[i] != phs[i] {
			m.t.Fatalf("placeholder %d is %+v, expected %+v", i, gotPhs[i], phs[i])
		}
	}
	m.a.mu.Lock()
	final := m.a.final
	m.a.mu.Unlock()
	if final != m.final {
		m.t.Fatalf("the list is finalized: %v, expected %v", final, m.final)
	}
}

// FuzzKernelArgs runs the calls that build an argument list in any order
// with any sizes and parameter handles, against a model of the list: each
// call fails with the code the model expects or does what it says, and the
// block a launch would copy is always the model's. Ops are 3 bytes: op,
// then two arguments.
func FuzzKernelArgs(f *testing.F) {
	f.Add([]byte{0, 8, 1, 0, 4, 2, 1, 0, 0, 2, 1, 16, 4, 0, 8, 5, 0, 0})
	f.Add([]byte{1, 0, 0, 2, 0, 40, 0, 12, 3, 5, 0, 0, 2, 0, 3, 4, 1, 5, 5, 0, 0})
	f.Add([]byte{0, 255, 255, 0, 0, 0, 6, 0, 0, 7, 1, 2, 3, 9, 9})
	f.Add(bytes.Repeat([]byte{0, 8, 0, 1, 0, 0}, 70))
	f.Fuzz(func(t *testing.T, data []byte) {
		// A list of CANN's 64 KiB, or in a little caller memory.
		cap := uint64(maxArgsBlock)
		if len(data) > 0 && data[0]%2 == 1 {
			cap = 8 * uint64(data[0])
		}
		a := &cArgs{cap: cap}
		h, ok := proc.handles.add(kindArgs, a)
		if !ok {
			t.Fatal("no handle for the list")
		}
		a.h = h
		defer a.release()
		m := &argsModel{t: t, a: a, h: ptr(h), cap: cap}
		fill := func(n int) []byte {
			v := make([]byte, n)
			for i := range v {
				v[i] = byte(len(data) + i)
			}
			return v
		}
		for ; len(data) >= 3; data = data[3:] {
			op, x, y := data[0], int(data[1]), int(data[2])
			switch op % 8 {
			case 0: // sizes 0..264, around the 256-byte limit too
				m.append(fill((x<<8|y)%265), false)
			case 1:
				m.append(fill(8), true)
				err := argsParaUpdate(m.h, param(0), nil, 8)
				m.want("update with param NULL", err, false, gocann.KindBadArgument)
			case 2:
				m.placeholder()
			case 3:
				m.buffer(x%(len(m.params)+2), uintptr(y)*uintptr(op>>3+1), byte(op))
			case 4:
				m.update(x%(len(m.params)+2), fill(y%265))
			case 5:
				m.final = true
				if err := argsFinalize(m.h); err != nil {
					t.Fatal(err)
				}
			case 6: // handles that are not a list or not this parameter
				stale := ptr(makeHandle(kindArgs, h.gen()+1, h.index()))
				_, err := argsAppend(stale, unsafe.Pointer(&x), 8)
				m.want("append to a stale list handle", err, false, gocann.KindInvalidHandle)
				word := binary.LittleEndian.Uint16(data[1:3])
				_, err = argsPlaceHolderBuffer(m.h, ptr(handle(word)<<8), 8)
				m.want("a made-up parameter handle", err, false, gocann.KindInvalidHandle)
			case 7: // the wrong kind of handle for a parameter
				err := argsParaUpdate(m.h, ptr(makeHandle(kindStream, 0, 0)), unsafe.Pointer(&x), 8)
				m.want("a stream handle as a parameter", err, false, gocann.KindInvalidHandle)
			}
			m.check()
		}
	})
}
