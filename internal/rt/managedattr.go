package rt

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// The values a range attribute reads as when its pages disagree or have
// none (the reference's -2, and -1 for the host).
const (
	attrMixed = -2
	attrHost  = -1
)

// ManagedAttr reads one range attribute of managed memory
// (aclrtMemManagedGetAttr) into out, which has dataSize/4 words.
// ACCESSED_BY fills it with the ids set, then -2; every other attribute is
// one word.
func (r *Runtime) ManagedAttr(attr uint32, addr, size uint64, out []int32) error {
	if err := r.checkManagedRange(addr, size); err != nil {
		return err
	}
	if attr < AttrReadMostly || attr > AttrLastPrefetchLocationID {
		return rterr.Errorf(rterr.KindInvalidParam, "attribute %d is invalid, expected %d..%d", attr, AttrReadMostly, AttrLastPrefetchLocationID)
	}
	if attr == AttrAccessedBy {
		if len(out) == 0 {
			return rterr.Errorf(rterr.KindInvalidParam, "dataSize is invalid for ACCESSED_BY, expected a positive multiple of 4")
		}
	} else if len(out) != 1 {
		return rterr.Errorf(rterr.KindInvalidParam, "dataSize %d is invalid for attribute %d, expected 4", 4*len(out), attr)
	}
	r.managed.mu.Lock()
	defer r.managed.mu.Unlock()
	pages, err := r.managedPages("ptr", addr, size)
	if err != nil {
		return err
	}
	switch attr {
	case AttrReadMostly:
		out[0] = 1
		for _, p := range pages {
			if !p.readMostly {
				out[0] = 0
			}
		}
	case AttrAccessedBy:
		set := ^uint64(0)
		for _, p := range pages {
			set &= p.accessedBy
		}
		n := 0
		for bit := range 64 {
			if set&(1<<bit) != 0 && n < len(out) {
				if bit == hostBit {
					out[n] = attrHost
				} else {
					out[n] = int32(bit)
				}
				n++
			}
		}
		for ; n < len(out); n++ {
			out[n] = attrMixed
		}
	default:
		loc, same := pages[0].pref, true
		if attr >= AttrLastPrefetchLocation {
			loc = pages[0].last
		}
		for _, p := range pages {
			l := p.pref
			if attr >= AttrLastPrefetchLocation {
				l = p.last
			}
			same = same && l == loc
		}
		if !same {
			loc = ManagedLoc{}
		}
		switch attr {
		case AttrPreferredLocation, AttrLastPrefetchLocation:
			switch loc.Type {
			case ManagedLocInvalid:
				out[0] = attrMixed
			case ManagedLocHost:
				out[0] = attrHost
			default:
				out[0] = loc.ID
			}
		case AttrPreferredLocationType, AttrLastPrefetchLocationTyp:
			out[0] = int32(loc.Type)
		default: // the IDs
			out[0] = attrMixed
			if loc.Type == ManagedLocDevice || loc.Type == ManagedLocHostNUMA {
				out[0] = loc.ID
			}
		}
	}
	return nil
}

// Prefetch is one range of a prefetch and where it goes.
type Prefetch struct {
	Addr, Size uint64
	Loc        ManagedLoc
}

// ManagedPrefetch queues a prefetch of managed memory on s
// (aclrtMemManagedPrefetchAsync, and BatchAsync with several): a task that,
// when it runs, makes each range's last prefetch location its location.
// The simulated memory is coherent and one copy serves every device, so no
// byte moves. Every range is checked before the task is queued.
func (s *Stream) ManagedPrefetch(ps []Prefetch, flags uint64, site uintptr) error {
	if err := s.usable(); err != nil {
		return err
	}
	r := s.c.d.r
	if _, _, err := r.vmm(); err != nil {
		return err
	}
	if flags != 0 {
		return rterr.Errorf(rterr.KindBadArgument, "flags %d is invalid, expected 0", flags)
	}
	for i := range ps {
		p := &ps[i]
		switch {
		case p.Addr == 0 && len(ps) == 1:
			return rterr.Errorf(rterr.KindBadArgument, "ptr is NULL, expected managed memory")
		case p.Addr == 0:
			// The runtime checks a batch's pointers (RT_ERROR_INVALID_VALUE).
			return rterr.Errorf(rterr.KindInvalidParam, "ptrs[%d] is NULL, expected managed memory", i)
		case p.Size == 0:
			return rterr.Errorf(rterr.KindBadArgument, "size (range %d) is 0, expected > 0", i)
		}
		if p.Size%managedPage != 0 {
			return rterr.Errorf(rterr.KindInvalidParam, "size %d (range %d) is invalid, expected a multiple of 2 MiB", p.Size, i)
		}
		loc, err := r.managedLoc("location", p.Loc)
		if err != nil {
			return err
		}
		p.Loc = loc
	}
	r.managed.mu.Lock()
	for i, p := range ps {
		if _, err := r.managedPages("ptr", p.Addr, p.Size); err != nil {
			r.managed.mu.Unlock()
			return rterr.Errorf(rterr.KindOf(err), "range %d: %s", i, err.Error())
		}
	}
	r.managed.mu.Unlock()
	apply := func() {
		r.managed.mu.Lock()
		defer r.managed.mu.Unlock()
		for _, p := range ps {
			// Freed since it was queued: there is nothing left to note.
			if pages, err := r.managedPages("ptr", p.Addr, p.Size); err == nil {
				for i := range pages {
					pages[i].last = p.Loc
				}
			}
		}
	}
	_, err := s.submit(&hal.Task{Kind: hal.TaskHostFunc, Host: apply, Site: site})
	return err
}
