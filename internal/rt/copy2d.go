package rt

import (
	"context"

	"github.com/gocann/gocann/hal"
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

// check2D checks a 2-D copy of at least one byte.
func (c *Context) check2D(p *Copy2D, kinds ...CopyKind) (dstPinned, srcPinned bool, err error) {
	ok := false
	for _, k := range kinds {
		ok = ok || k == p.Kind
	}
	if !ok {
		return false, false, hal.Errorf(hal.KindBadArgument, "kind %s is not supported for a 2-D copy, expected one of %v", p.Kind, kinds)
	}
	if _, err := c.d.resolveKind(p.Dst, p.Src, p.Kind, p.Kind); err != nil {
		return false, false, err
	}
	switch {
	case p.Width > p.DPitch:
		return false, false, hal.Errorf(hal.KindInvalidParam, "width %d is invalid, expected <= dpitch %d", p.Width, p.DPitch)
	case p.Width > p.SPitch:
		return false, false, hal.Errorf(hal.KindInvalidParam, "width %d is invalid, expected <= spitch %d", p.Width, p.SPitch)
	case p.Width > maxWidth2D:
		return false, false, hal.Errorf(hal.KindInvalidParam, "width %d is invalid, expected <= %d", p.Width, maxWidth2D)
	case p.Height > maxHeight2D:
		return false, false, hal.Errorf(hal.KindInvalidParam, "height %d is invalid, expected <= %d", p.Height, maxHeight2D)
	}
	dstN, srcN, err := check2DExtents(p)
	if err != nil {
		return false, false, err
	}
	if dstPinned, err = c.d.checkLoc("dst", p.Dst, dstN); err != nil {
		return false, false, pitchContext(err, "dpitch", p.DPitch, p.Height)
	}
	srcPinned, err = c.d.checkLoc("src", p.Src, srcN)
	return dstPinned, srcPinned, pitchContext(err, "spitch", p.SPitch, p.Height)
}

func (p *Copy2D) task(site uintptr) hal.Task {
	return hal.Task{Kind: hal.TaskCopy2D, Dst: p.Dst, Src: p.Src, DPitch: p.DPitch, SPitch: p.SPitch,
		Width: p.Width, Height: p.Height, Site: site}
}

// Memcpy2D copies a pitched region synchronously (aclrtMemcpy2d);
// capture modes may refuse it. No rows, or rows of no bytes, succeed at
// once, as zero bytes do for Memcpy.
func (c *Context) Memcpy2D(caller Caller, p Copy2D) error {
	if p.Width == 0 || p.Height == 0 {
		return nil
	}
	if err := c.check(); err != nil {
		return err
	}
	if err := c.d.r.CheckUnsafe(caller, "a synchronous 2-D copy"); err != nil {
		return err
	}
	if _, _, err := c.check2D(&p, HostToDevice, DeviceToHost); err != nil {
		return err
	}
	return c.hd.Run(p.task(0))
}

// Memcpy2DAsync queues a pitched copy (aclrtMemcpy2dAsync). A pageable host
// end makes the call wait for the copy. No rows, or rows of no bytes,
// succeed at once, as for Memcpy2D.
func (s *Stream) Memcpy2DAsync(caller Caller, p Copy2D, site uintptr) error {
	if p.Width == 0 || p.Height == 0 {
		return nil
	}
	if err := s.c.check(); err != nil {
		return err
	}
	if err := s.check(); err != nil {
		return err
	}
	dstPinned, srcPinned, err := s.c.check2D(&p, HostToDevice, DeviceToHost, DeviceToDevice)
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
