package gocann

import (
	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/config"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support"
)

// CoreGroup is an entry of the simulator's "core_groups" key: a
// capability group every device's cores are split into, as CANN's driver
// tools create them (dcmi_create_capability_group) on an Atlas inference
// chip (Ascend310P*), the one product with groups.
type CoreGroup = config.CoreGroup

// GroupInfo is one capability group of a device.
//
// CANN: aclrtGroupInfo (read with aclrtGetGroupInfoDetail).
type GroupInfo struct {
	ID            int  // ACL_GROUP_GROUPID_INT
	Default       bool // the group of streams none was set for
	AICores       int  // ACL_GROUP_AICORE_INT
	VectorCores   int  // ACL_GROUP_AIV_INT
	AICPUs        int  // ACL_GROUP_AIC_INT
	SDMAs         int  // ACL_GROUP_SDMANUM_INT
	ActiveStreams int  // ACL_GROUP_ASQNUM_INT
}

// GroupCount is the number of capability groups of the context's device;
// 0 when none was created.
//
// CANN: aclrtGetGroupCount.
func (c *Context) GroupCount() (int, error) {
	if err := c.r.require("aclrtGetGroupCount"); err != nil {
		return 0, err
	}
	n, err := c.c.GroupCount()
	return int(n), wrap("Context.GroupCount (aclrtGetGroupCount)", err)
}

// Groups are the capability groups of the context's device, by id. A
// device without groups is refused (ACL_ERROR_RT_GROUP_NOT_CREATE).
//
// CANN: aclrtGetAllGroupInfo.
func (c *Context) Groups() ([]GroupInfo, error) {
	if err := c.r.require("aclrtGetAllGroupInfo"); err != nil {
		return nil, err
	}
	gs, err := c.c.Groups()
	if err != nil {
		return nil, wrap("Context.Groups (aclrtGetAllGroupInfo)", err)
	}
	out := make([]GroupInfo, len(gs))
	for i, g := range gs {
		out[i] = GroupInfo{ID: int(g.ID), Default: g.Flag&1 != 0, AICores: int(g.AICores), VectorCores: int(g.VectorCores),
			AICPUs: int(g.AICPUs), SDMAs: int(g.SDMAs), ActiveStreams: int(g.ActiveStreams)}
	}
	return out, nil
}

// SetGroup makes group id the device's: the kernels launched from now on
// run on that group's AI cores only, at most as many blocks at once as it
// has, shared with the group's other kernels. Streams created from now on
// stay bound to it; the default stream, and streams created before any
// group was set, take the group set at each launch. The setting holds for
// every thread of the process until the device is reset. With several
// groups and no default one, a stream cannot be created before a group is
// set (ACL_ERROR_RT_GROUP_NOT_SET).
//
// CANN: aclrtSetGroup.
func (c *Context) SetGroup(id int) error {
	if err := c.r.require("aclrtSetGroup"); err != nil {
		return err
	}
	if id < -1<<31 || id > 1<<31-1 {
		id = -1
	}
	return wrap("Context.SetGroup (aclrtSetGroup)", c.c.SetGroup(int32(id)))
}

// checkGroupChip refuses capability groups on a chip without them,
// closing b.
func checkGroupChip(b hal.Backend) error {
	p, err := b.Props(0)
	if err == nil {
		if err = support.Check("aclrtSetGroup", p.SoCName); err != nil {
			err = rterr.Errorf(rterr.KindFileAttrInvalid, "simulator.core_groups is invalid: the %s has no capability groups, only an Atlas inference chip (Ascend310P*) has", p.SoCName)
		}
	}
	if err != nil {
		b.Close()
	}
	return err
}
