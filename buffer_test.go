package gocann_test

import (
	"bytes"
	"testing"

	"github.com/gocann/gocann"
)

func allocBuf(t *testing.T, c *gocann.Context, n uint64) *gocann.Buf {
	t.Helper()
	b, err := c.AllocBuf(n)
	check(t, err)
	return b
}

func TestBufDataAndLength(t *testing.T) {
	// "After aclrtAllocBuf the data area is size bytes and the valid length
	// is 0 until aclrtSetBufDataLen."
	e := setup(t)
	b := allocBuf(t, e.c, 64)
	p, size, err := b.Data()
	check(t, err)
	if p == 0 || size != 64 {
		t.Fatalf("Data = %#x, %d, want a device address and 64", p, size)
	}
	if n, err := b.DataLen(); err != nil || n != 0 {
		t.Fatalf("DataLen before SetDataLen = %d, %v, want 0", n, err)
	}
	want := bytes.Repeat([]byte{0xA5}, 64)
	check(t, e.c.CopyToDevice(p, want))
	check(t, b.SetDataLen(40))
	check(t, b.SetDataLen(64)) // the whole area
	if n, _ := b.DataLen(); n != 64 {
		t.Fatalf("DataLen = %d, want 64", n)
	}
	wantErr(t, b.SetDataLen(65), gocann.CodeRTParamInvalid, "len 65", "at most the data area's size 64")
	got := make([]byte, 64)
	check(t, e.c.CopyFromDevice(got, p))
	if !bytes.Equal(got, want) {
		t.Fatal("the data area does not hold the bytes copied in")
	}
	// The data area is the runtime's: aclrtFree refuses it.
	wantErr(t, e.c.Free(p), gocann.CodeRTParamInvalid, "shared buffer's data")
	check(t, b.Free())
}

func TestBufAllocRefusals(t *testing.T) {
	e := setup(t)
	_, err := e.c.AllocBuf(0)
	wantErr(t, err, gocann.CodeInvalidParam, "size 0", "expected > 0")
	_, err = e.c.AllocBuf(gocann.BufMaxSize + 1)
	wantErr(t, err, gocann.CodeRTParamInvalid, "size 4294967297", "at most 4 GiB")
}

func TestBufCopyRefSharesData(t *testing.T) {
	// "aclrtCopyBufRef makes a new buffer over the same data area"; the
	// area lives until the last buffer over it is freed.
	e := setup(t)
	a := allocBuf(t, e.c, 32)
	p, _, _ := a.Data()
	check(t, e.c.CopyToDevice(p, []byte("shared buffer data, 32 bytes..!")))
	check(t, a.SetDataLen(31))
	check(t, a.SetUserData([]byte("ctl"), 10))
	b, err := a.CopyRef()
	check(t, err)
	if b == a {
		t.Fatal("CopyRef returned the same buffer")
	}
	q, size, _ := b.Data()
	if q != p || size != 32 {
		t.Fatalf("copy's Data = %#x, %d, want %#x, 32", q, size, p)
	}
	if n, _ := b.DataLen(); n != 31 {
		t.Fatalf("copy's DataLen = %d, want 31", n)
	}
	u := make([]byte, 3)
	check(t, b.UserData(u, 10))
	if string(u) != "ctl" {
		t.Fatalf("copy's user data = %q, want ctl", u)
	}
	// Headers are separate: the copy's length and user data are its own.
	check(t, b.SetDataLen(5))
	check(t, b.SetUserData([]byte("new"), 10))
	check(t, a.UserData(u, 10))
	if n, _ := a.DataLen(); n != 31 || string(u) != "ctl" {
		t.Fatalf("original after changing the copy: len %d, user %q, want 31, ctl", n, u)
	}

	check(t, a.Free())
	_, _, err = a.Data()
	wantErr(t, err, gocann.CodeRTInvalidHandle, "buffer was freed")
	got := make([]byte, 31)
	check(t, e.c.CopyFromDevice(got, q))
	if string(got) != "shared buffer data, 32 bytes..!" {
		t.Fatalf("data after freeing the original = %q", got)
	}
	c, err := b.CopyRef()
	check(t, err)
	check(t, b.Free())
	check(t, e.c.CopyFromDevice(got, q)) // c still holds it
	check(t, c.Free())
	wantErr(t, e.c.CopyFromDevice(got, q), gocann.CodeRTParamInvalid, "not in a live device allocation")
}

func TestBufUserDataLimits(t *testing.T) {
	// "The private data area is 96 bytes; offset + size must be at most 96."
	e := setup(t)
	b := allocBuf(t, e.c, 8)
	all := make([]byte, gocann.BufUserDataSize)
	check(t, b.UserData(all, 0))
	if !bytes.Equal(all, make([]byte, 96)) {
		t.Fatal("a new buffer's user data is not zero")
	}
	check(t, b.SetUserData([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 88))
	check(t, b.SetUserData(nil, 96))
	check(t, b.UserData(all, 0))
	if !bytes.Equal(all[88:], []byte{1, 2, 3, 4, 5, 6, 7, 8}) || !bytes.Equal(all[:88], make([]byte, 88)) {
		t.Fatalf("user data = %v, want 8 bytes at 88", all)
	}
	wantErr(t, b.SetUserData(make([]byte, 8), 89), gocann.CodeInvalidParam, "size 8 at offset 89", "at most 96")
	wantErr(t, b.UserData(make([]byte, 97), 0), gocann.CodeInvalidParam, "size 97 at offset 0")
	wantErr(t, b.UserData(nil, 97), gocann.CodeInvalidParam, "size 0 at offset 97")
	wantErr(t, b.Raw().SetUserData(nil, 4, 0), gocann.CodeInvalidParam, "dataPtr is NULL")
	wantErr(t, b.Raw().UserData(nil, 4, 1<<63), gocann.CodeInvalidParam, "size 4 at offset 9223372036854775808")
}

func TestBufChain(t *testing.T) {
	// "A chain holds at most 128 buffers"; buffers come back in the order
	// appended, the first buffer at index 0.
	e := setup(t)
	head := allocBuf(t, e.c, 16)
	if n, err := head.ChainNum(); err != nil || n != 1 {
		t.Fatalf("ChainNum of a lone buffer = %d, %v, want 1", n, err)
	}
	var members []*gocann.Buf
	for range 3 {
		m := allocBuf(t, e.c, 16)
		check(t, head.Append(m))
		members = append(members, m)
	}
	if n, _ := head.ChainNum(); n != 4 {
		t.Fatalf("ChainNum = %d, want 4", n)
	}
	for i, want := range append([]*gocann.Buf{head}, members...) {
		got, err := head.ChainAt(uint32(i))
		check(t, err)
		if got != want {
			t.Fatalf("ChainAt(%d) is not the buffer appended %d", i, i)
		}
	}
	_, err := head.ChainAt(4)
	wantErr(t, err, gocann.CodeRTParamInvalid, "index 4", "4 buffers")
	wantErr(t, head.Append(head), gocann.CodeRTParamInvalid, "headBuf itself")
	other := allocBuf(t, e.c, 16)
	wantErr(t, other.Append(members[1]), gocann.CodeRTParamInvalid, "already buffer 2 of a chain")
	wantErr(t, members[0].Append(other), gocann.CodeRTParamInvalid, "headBuf is buffer 1 of a chain")
	wantErr(t, other.Append(head), gocann.CodeRTParamInvalid, "heads a chain of 4 buffers")
	_, err = members[2].ChainNum()
	wantErr(t, err, gocann.CodeRTParamInvalid, "headBuf is buffer 3", "expected a chain's first buffer")
	wantErr(t, members[0].Free(), gocann.CodeRTParamInvalid, "buf is buffer 1 of a chain")

	// A copy of a member is in no chain.
	cp, err := members[0].CopyRef()
	check(t, err)
	if n, _ := cp.ChainNum(); n != 1 {
		t.Fatalf("ChainNum of a member's copy = %d, want 1", n)
	}

	freed, err := head.FreeChain()
	check(t, err)
	if len(freed) != 4 || freed[0] != head || freed[3] != members[2] {
		t.Fatalf("FreeChain freed %d buffers, want the 4 of the chain, head first", len(freed))
	}
	for _, m := range members {
		_, _, err := m.Data()
		wantErr(t, err, gocann.CodeRTInvalidHandle, "buffer was freed")
	}
	// The member's data lives on in its copy.
	p, _, err := cp.Data()
	check(t, err)
	check(t, e.c.CopyToDevice(p, []byte{1}))
	wantErr(t, other.Append(members[0]), gocann.CodeRTInvalidHandle, "buf was freed")
	wantErr(t, head.Free(), gocann.CodeRTInvalidHandle, "buffer was freed")
	check(t, cp.Free())
	check(t, other.Free())
}

func TestBufChainLimit(t *testing.T) {
	e := setup(t)
	head := allocBuf(t, e.c, 1)
	for i := 1; i < gocann.BufMaxChain; i++ {
		check(t, head.Append(allocBuf(t, e.c, 1)))
	}
	if n, _ := head.ChainNum(); n != 128 {
		t.Fatalf("ChainNum = %d, want 128", n)
	}
	extra := allocBuf(t, e.c, 1)
	wantErr(t, head.Append(extra), gocann.CodeRTParamInvalid, "holds 128 buffers")
	freed, err := head.FreeChain()
	check(t, err)
	if len(freed) != 128 {
		t.Fatalf("FreeChain freed %d, want 128", len(freed))
	}
	check(t, extra.Free())
}

func TestBufAfterDeviceReset(t *testing.T) {
	// The data area is device memory: a reset of the device takes it, and
	// freeing the buffer afterwards frees only the header.
	r := newRuntime(t, smallConfig)
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	b := allocBuf(t, c, 16)
	ref, err := b.CopyRef()
	check(t, err)
	check(t, d.Reset())
	_, _, err = b.Data()
	wantErr(t, err, gocann.CodeRTParamInvalid, "went with device 0 when it was reset")
	if n, err := ref.DataLen(); err != nil || n != 0 {
		t.Fatalf("the header after the reset: DataLen = %d, %v, want 0", n, err)
	}
	check(t, b.Free())
	check(t, ref.Free())
}
