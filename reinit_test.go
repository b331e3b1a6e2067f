package gocann_test

import (
	"runtime"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann"
)

// initSmall initializes r with smallConfig and returns device id's default
// context and a new stream in it.
func initSmall(t *testing.T, r *gocann.Runtime, id int) (*gocann.Context, *gocann.Stream) {
	t.Helper()
	cfg, err := gocann.ParseConfig([]byte(smallConfig))
	check(t, err)
	check(t, r.InitConfig(cfg))
	d, err := r.SetDevice(id)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	return c, s
}

// stalePointerCalls makes every call that can take p, device memory of an
// earlier initialization, and returns their errors by name; launches only
// with launches.
func stalePointerCalls(t *testing.T, r *gocann.Runtime, c *gocann.Context, s *gocann.Stream, p unsafe.Pointer, launches bool) map[string]error {
	t.Helper()
	host := make([]byte, 64)
	h := unsafe.Pointer(&host[0])
	k, err := r.Kernel("stale_touch")
	if err != nil {
		k, err = r.RegisterKernel("stale_touch", func(b *gocann.Block) { b.Store64(b.Arg(0).Ptr(), 1) })
		check(t, err)
	}
	slots := []uint64{uint64(uintptr(p))}
	dp := gocann.DevPtr(uintptr(p))
	errs := map[string]error{
		"Memcpy DEFAULT":               c.Raw().Memcpy(gocann.CaptureThread{}, h, 64, p, 64, gocann.MemcpyDefault),
		"Memcpy HOST_TO_HOST from":     c.Raw().Memcpy(gocann.CaptureThread{}, h, 64, p, 64, gocann.MemcpyHostToHost),
		"Memcpy HOST_TO_HOST to":       c.Raw().Memcpy(gocann.CaptureThread{}, p, 64, h, 64, gocann.MemcpyHostToHost),
		"MemcpyAsync DEFAULT":          s.Raw().MemcpyAsync(gocann.CaptureThread{}, h, 64, p, 64, gocann.MemcpyDefault),
		"MemcpyAsync HOST_TO_HOST":     s.Raw().MemcpyAsync(gocann.CaptureThread{}, p, 64, h, 64, gocann.MemcpyHostToHost),
		"Memcpy2D DEVICE_TO_HOST":      c.Raw().Memcpy2D(gocann.CaptureThread{}, h, 16, p, 16, 16, 4, gocann.MemcpyDeviceToHost),
		"Memcpy2DAsync HOST_TO_DEVICE": s.Raw().Memcpy2DAsync(gocann.CaptureThread{}, p, 16, h, 16, 16, 4, gocann.MemcpyHostToDevice),
		"Memset":                       c.Raw().Memset(gocann.CaptureThread{}, p, 64, 1, 64),
		"MemsetAsync":                  s.Raw().MemsetAsync(p, 64, 1, 64),
		"WriteValue":                   s.WriteValue(dp, 1),
		"Free":                         r.Raw().Free(p),
	}
	if launches {
		errs["Launch"] = s.Launch(k, 1, gocann.Ptr(dp))
		errs["LaunchArgs"] = s.Raw().LaunchArgs(k, 1, unsafe.Pointer(&slots[0]), 8, 0)
	}
	syncOK(t, s)
	return errs
}

func TestPointerOfEarlierInitRefused(t *testing.T) {
	// Device memory kept from before a Finalize is refused by every call
	// after the next Init, never touched: while its device is not open it
	// is that device's memory, which is not open; once the device opens
	// again, at the same addresses, it is memory not allocated there.
	r := gocann.New()
	defer r.Close()
	c, _ := initSmall(t, r, 0)
	p, err := c.Raw().Malloc(4096, gocann.NormalOnly)
	check(t, err)
	check(t, r.Finalize())
	// Any mapping of the process may take an address range that was given
	// back; the stale pointer would then be taken for host memory there.
	page := unsafe.Pointer(uintptr(p) &^ 4095)
	if q, err := unix.MmapPtr(-1, 0, page, 4096, unix.PROT_NONE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_FIXED_NOREPLACE); err == nil {
		defer unix.MunmapPtr(q, 4096)
		if q == page {
			t.Errorf("after Finalize, another mapping took %p, in device 0's memory range", q)
		}
	}

	c, s := initSmall(t, r, 1)
	for what, err := range stalePointerCalls(t, r, c, s, p, true) {
		t.Run("device closed/"+what, func(t *testing.T) {
			wantErr(t, err, gocann.CodeRTParamInvalid, "memory of device 0, which is not open")
		})
	}
	loc, _, _, err := r.PointerAttributes(uintptr(p))
	check(t, err)
	if loc != gocann.LocationUnregistered {
		t.Errorf("a pointer of an earlier initialization: location %v, want unregistered", loc)
	}

	d0, err := r.SetDevice(0)
	check(t, err)
	c0, err := d0.Context()
	check(t, err)
	s0, err := c0.NewStream()
	check(t, err)
	for what, err := range stalePointerCalls(t, r, c0, s0, p, false) {
		t.Run("device open/"+what, func(t *testing.T) {
			wantErr(t, err, gocann.CodeRTParamInvalid)
		})
	}
	// A kernel reaching it meets memory not allocated on the device, as
	// with any freed pointer: a fault, not a crash.
	k, err := r.Kernel("stale_touch")
	check(t, err)
	check(t, s0.Launch(k, 1, gocann.Ptr(gocann.DevPtr(uintptr(p)))))
	wantErr(t, s0.SynchronizeTimeout(long), gocann.CodeRTAICoreException, "no live allocation on device 0")
	again, err := c0.Raw().Malloc(4096, gocann.NormalOnly)
	check(t, err)
	if again != p {
		t.Errorf("first allocation of the next initialization at %p, want %p: device 0 keeps its addresses", again, p)
	}
	check(t, r.Raw().Free(again))
	check(t, r.Finalize())
}

// rangeFree reports whether nothing is mapped at the page holding p: a
// mapping of one page fixed there succeeds.
func rangeFree(t *testing.T, p unsafe.Pointer) bool {
	t.Helper()
	page := unsafe.Pointer(uintptr(p) &^ 4095)
	q, err := unix.MmapPtr(-1, 0, page, 4096, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_FIXED_NOREPLACE)
	if err != nil {
		return false
	}
	check(t, unix.MunmapPtr(q, 4096))
	if q != page {
		t.Skip("the kernel does not honour MAP_FIXED_NOREPLACE")
	}
	return true
}

func TestCloseGivesBackAddressSpace(t *testing.T) {
	// Finalize keeps the devices' address ranges for the next Init; Close
	// ends the Runtime for good and gives them back.
	r := gocann.New()
	c, _ := initSmall(t, r, 0)
	p, err := c.Raw().Malloc(4096, gocann.NormalOnly)
	check(t, err)
	check(t, r.Finalize())
	if rangeFree(t, p) {
		t.Error("after Finalize, device 0's address range was given back")
	}
	check(t, r.Close())
	if !rangeFree(t, p) {
		t.Error("after Close, device 0's address range is still reserved")
	}
	check(t, r.Close())
	wantErr(t, r.Init(""), gocann.CodeRTInvalidHandle, "closed for good")
}

func TestDroppedRuntimeGivesBackAddressSpace(t *testing.T) {
	// A Runtime finalized but never closed gives its address ranges back
	// once it is garbage.
	p := func() unsafe.Pointer {
		r := gocann.New()
		c, _ := initSmall(t, r, 0)
		p, err := c.Raw().Malloc(4096, gocann.NormalOnly)
		check(t, err)
		check(t, r.Finalize())
		return p
	}()
	deadline := time.Now().Add(long)
	for !rangeFree(t, p) {
		if time.Now().After(deadline) {
			t.Fatalf("device 0's address range is still reserved %v after its Runtime became garbage", long)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}
