package rt

import (
	"runtime/debug"
	"unsafe"

	"github.com/gocann/gocann/internal/rterr"
)

// hostMemset is a synchronous memset of pageable host memory, which CANN's
// driver runs on the host. The memory is the caller's: an address that is
// not writable host memory fails with 107000 instead of crashing.
func hostMemset(p unsafe.Pointer, v byte, n uint64) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			err = rterr.Errorf(rterr.KindInvalidAddress, "devPtr range [%p, +%d bytes) is not writable host memory, expected memory the program holds", p, n)
		}
	}()
	b := unsafe.Slice((*byte)(p), n)
	for i := range b {
		b[i] = v
	}
	return nil
}
