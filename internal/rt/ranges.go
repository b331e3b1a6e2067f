package rt

import (
	"math"

	"github.com/gocann/gocann/internal/rterr"
)

// maxHostEnd bounds host memory ranges: no 64-bit Linux process maps
// memory at or past 2^48 (Go's own heap limit on these platforms), so a
// host range reaching past it has a size that cannot be right. It is
// refused before any slice of the memory is made.
const maxHostEnd = 1 << 48

// checkHostRange refuses host memory [addr, addr+n) that runs past the
// host address space.
func checkHostRange(param string, addr, n uint64) error {
	if n > maxHostEnd || addr > maxHostEnd-n {
		return rterr.Errorf(rterr.KindInvalidParam, "%s range [%#x, +%d bytes) is invalid, expected it inside the host address space (below %#x)",
			param, addr, n, uint64(maxHostEnd))
	}
	return nil
}

// extent2D is the bytes that height rows of width bytes, pitch apart, span:
// (height-1)*pitch + width. ok is false when that is more than a uint64
// holds.
func extent2D(pitch, width, height uint64) (n uint64, ok bool) {
	if width == 0 || height == 0 {
		return 0, true
	}
	rows := height - 1
	if rows != 0 && pitch > (math.MaxUint64-width)/rows {
		return 0, false
	}
	return rows*pitch + width, true
}

// check2DExtents returns the bytes a pitched copy spans at each end,
// refusing pitches whose rows reach past the end of the address space.
func check2DExtents(p *Copy2D) (dst, src uint64, err error) {
	dst, ok := extent2D(p.DPitch, p.Width, p.Height)
	if !ok {
		return 0, 0, rterr.Errorf(rterr.KindInvalidParam, "dpitch %d is invalid: %d rows %d bytes apart run past the end of the address space", p.DPitch, p.Height, p.DPitch)
	}
	src, ok = extent2D(p.SPitch, p.Width, p.Height)
	if !ok {
		return 0, 0, rterr.Errorf(rterr.KindInvalidParam, "spitch %d is invalid: %d rows %d bytes apart run past the end of the address space", p.SPitch, p.Height, p.SPitch)
	}
	return dst, src, nil
}

// pitchContext prefixes a 2-D copy's range error with the pitch and row
// count the range came from.
func pitchContext(err error, param string, pitch, height uint64) error {
	if err == nil {
		return nil
	}
	return rterr.Errorf(rterr.KindOf(err), "%s %d over %d rows: %s", param, pitch, height, err.Error())
}
