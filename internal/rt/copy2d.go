package rt

import (
	"context"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// 2-D copy limits from the CANN reference.
const (
	maxWidth2D  = 5000000
	maxHeight2D = 5 * 1024 * 1024
)

// Copy2D describes a pitched copy of height rows of width bytes.
type Copy2D struct {
	Dst           hal.Loc
	DPitch        uint64
	Src           hal.Loc
	SPitch        uint64
	Width, Height uint64
	Kind          CopyKind
}

// check2D checks a 2-D copy of at least one byte, asynchronous or not.
// Kinds follow CANN: its acl layer takes HOST_TO_DEVICE, DEVICE_TO_HOST,
// DEVICE_TO_DEVICE and DEFAULT (CheckMemcpy2dParam), and its runtime has
// no synchronous DEVICE_TO_DEVICE and holds the direction DEFAULT infers
// to those the call copies in (ApiErrorDecorator::MemCopy2DSync and
// MemCopy2DAsync).
func (c *Context) check2D(p *Copy2D, async bool) (dstPinned, srcPinned bool, err error) {
	switch p.Kind {
	case HostToDevice, DeviceToHost, DeviceToDevice, CopyDefault:
	default:
		return false, false, rterr.Errorf(rterr.KindBadArgument, "kind %s is not supported for a 2-D copy, expected one of %v",
			p.Kind, []CopyKind{HostToDevice, DeviceToHost, DeviceToDevice, CopyDefault})
	}
	if p.Kind == DeviceToDevice && !async {
		return false, false, rterr.Errorf(rterr.KindNotSupported, "kind %s is not supported by a synchronous 2-D copy; aclrtMemcpy2dAsync copies device to device", p.Kind)
	}
	kind, err := c.d.resolveKind(p.Dst, p.Src, p.Kind, p.Kind)
	if err != nil {
		return false, false, err
	}
	switch {
	case p.Width > p.DPitch:
		return false, false, rterr.Errorf(rterr.KindInvalidParam, "width %d is invalid, expected <= dpitch %d", p.Width, p.DPitch)
	case p.Width > p.SPitch:
		return false, false, rterr.Errorf(rterr.KindInvalidParam, "width %d is invalid, expected <= spitch %d", p.Width, p.SPitch)
	case p.Width > maxWidth2D:
		return false, false, rterr.Errorf(rterr.KindInvalidParam, "width %d is invalid, expected <= %d", p.Width, maxWidth2D)
	case p.Height > maxHeight2D:
		return false, false, rterr.Errorf(rterr.KindInvalidParam, "height %d is invalid, expected <= %d", p.Height, maxHeight2D)
	}
	dstN, srcN, err := check2DExtents(p)
	if err != nil {
		return false, false, err
	}
	if dstPinned, err = c.d.checkLoc("dst", p.Dst, dstN); err != nil {
		return false, false, pitchContext(err, "dpitch", p.DPitch, p.Height)
	}
	if srcPinned, err = c.d.checkLoc("src", p.Src, srcN); err != nil {
		return false, false, pitchContext(err, "spitch", p.SPitch, p.Height)
	}
	if kind == HostToHost || (kind == DeviceToDevice && !async) {
		want := "host to device or device to host"
		if async {
			want = "host to device, device to host or device to device"
		}
		return false, false, rterr.Errorf(rterr.KindInvalidParam, "kind %s gives a %s copy for these dst and src, expected %s", p.Kind, direction(kind), want)
	}
	return dstPinned, srcPinned, nil
}

// direction names the way a copy of kind goes.
func direction(k CopyKind) string {
	switch k {
	case HostToHost:
		return "host to host"
	case HostToDevice:
		return "host to device"
	case DeviceToHost:
		return "device to host"
	}
	return "device to device"
}

func (p *Copy2D) task(site uintptr) hal.Task {
	return hal.Task{Kind: hal.TaskCopy2D, Dst: p.Dst, Src: p.Src, DPitch: p.DPitch, SPitch: p.SPitch,
		Width: p.Width, Height: p.Height, Site: site}
}

// Memcpy2D copies a pitched region synchronously (aclrtMemcpy2d);
// capture modes may refuse it. No rows, or rows of no bytes, succeed at
// once, as zero bytes do for Memcpy.
func (c *Context) Memcpy2D(caller Caller, p Copy2D) error {
	c.d.r.waitUnlocked()
	if p.Width == 0 || p.Height == 0 {
		return nil
	}
	if err := c.checkSync(caller, "a synchronous 2-D copy"); err != nil {
		return err
	}
	if _, _, err := c.check2D(&p, false); err != nil {
		return err
	}
	t := p.task(0)
	c.settle(t.Dst, t.Src)
	return c.hd.Run(t)
}

// Memcpy2DAsync queues a pitched copy (aclrtMemcpy2dAsync). A pageable host
// end makes the call wait for the copy. No rows, or rows of no bytes,
// succeed at once, as for Memcpy2D.
func (s *Stream) Memcpy2DAsync(caller Caller, p Copy2D, site uintptr) error {
	if p.Width == 0 || p.Height == 0 {
		return nil
	}
	if err := s.usable(); err != nil {
		return err
	}
	dstPinned, srcPinned, err := s.c.check2D(&p, true)
	if err != nil {
		return err
	}
	t := p.task(site)
	pageable := (p.Dst.IsHost() && !dstPinned) || (p.Src.IsHost() && !srcPinned)
	if pageable {
		if bound, err := s.pageableDiverted(caller, "an asynchronous 2-D copy"); bound || err != nil {
			if err != nil {
				return err
			}
			_, err = s.submit(&t)
			return err
		}
	}
	seq, err := s.submit(&t)
	if err != nil {
		return err
	}
	if pageable {
		return s.q.Wait(context.Background(), seq, 0)
	}
	return nil
}
