package rt

import (
	"fmt"
	"strings"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Capability groups (aclrtSetGroup and the group queries): the device's AI
// cores split into groups an administrator created (hal.Props.Groups).
// As on CANN's Atlas inference chips, the group set is the device's, for
// every thread of the process, until the device closes. A stream created
// while a group is set is bound to it for good; the default stream and
// streams created before any group was set take, at each launch, the
// group set then, else the default group, else the whole device. The
// scheduler keeps each group's kernels to its cores.

// GroupInfo is one group as CANN reports it (rtGroupInfo_t).
type GroupInfo struct {
	ID            int32
	Flag          uint32 // bit 0: the default group
	AICores       uint32
	AICPUs        uint32
	VectorCores   uint32
	SDMAs         uint32
	ActiveStreams uint32
}

// maxGroupID is the largest group id aclrtSetGroup takes.
const maxGroupID = hal.MaxCoreGroups - 1

// groups are the device's groups in id order.
func (d *Device) groups() []GroupInfo {
	var gs []GroupInfo
	for id, g := range d.props.Groups {
		if !g.Exists() {
			continue
		}
		i := GroupInfo{ID: int32(id), AICores: g.AICores, AICPUs: g.AICPUs, VectorCores: g.VectorCores,
			SDMAs: g.SDMAs, ActiveStreams: g.ActiveStreams}
		if g.Default {
			i.Flag = 1
		}
		gs = append(gs, i)
	}
	return gs
}

// defaultGroup is 1 + the id of the device's default group, 0 if none.
func defaultGroup(p *hal.Props) uint8 {
	for id, g := range p.Groups {
		if g.Exists() && g.Default {
			return uint8(id + 1)
		}
	}
	return 0
}

// GroupCount is the number of groups of c's device (aclrtGetGroupCount).
func (c *Context) GroupCount() (uint32, error) {
	if err := c.check(); err != nil {
		return 0, err
	}
	return uint32(len(c.d.groups())), nil
}

// Groups are the groups of c's device in id order (aclrtGetAllGroupInfo);
// a device without groups is refused, as CANN refuses it.
func (c *Context) Groups() ([]GroupInfo, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	gs := c.d.groups()
	if len(gs) == 0 {
		return nil, rterr.Errorf(rterr.KindGroupNotCreate, "device %d has no capability groups: none was created", c.d.id)
	}
	return gs, nil
}

// SetGroup makes group id the device's for the kernels launched from now
// on, and for the streams created from now on (aclrtSetGroup).
func (c *Context) SetGroup(id int32) error {
	if err := c.check(); err != nil {
		return err
	}
	if id < 0 || id > maxGroupID {
		return rterr.Errorf(rterr.KindInvalidParam, "groupId %d is invalid, expected a group id in [0, %d]", id, maxGroupID)
	}
	d := c.d
	if !d.props.Groups[id].Exists() {
		return rterr.Errorf(rterr.KindGroupNotCreate, "group %d does not exist: device %d has groups %s", id, d.id, groupIDs(d.groups()))
	}
	d.group.Store(uint32(id + 1))
	d.refreshDirect()
	return nil
}

func groupIDs(gs []GroupInfo) string {
	if len(gs) == 0 {
		return "none"
	}
	ids := make([]string, len(gs))
	for i, g := range gs {
		ids[i] = fmt.Sprint(g.ID)
	}
	return "[" + strings.Join(ids, ", ") + "]"
}

// checkGroupSet refuses a stream on a device with several groups, none of
// them the default, before a group is set: CANN cannot tell whose cores
// it should use.
func (d *Device) checkGroupSet() error {
	if d.group.Load() != 0 || d.defGroup != 0 {
		return nil
	}
	if n := len(d.groups()); n > 1 {
		return rterr.Errorf(rterr.KindGroupNotSet, "device %d has %d capability groups and no default one: call aclrtSetGroup before creating a stream", d.id, n)
	}
	return nil
}

// groupOf is the hal.Task.Group of a kernel launched on s now.
func (s *Stream) groupOf() uint8 {
	if s.group != 0 {
		return s.group
	}
	if g := s.c.d.group.Load(); g != 0 {
		return uint8(g)
	}
	return s.c.d.defGroup
}
