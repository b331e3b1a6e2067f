package gocann_test

import (
	"testing"

	"github.com/gocann/gocann"
)

// groupConfig is an Atlas inference chip (8 AI cores) split into the given
// capability groups.
func groupConfig(groups string) string {
	return `{"simulator":{"hbm_size":1073741824,"soc_name":"Ascend310P3","core_groups":[` + groups + `]}}`
}

// TestGroupsQueried: the groups configured, as the queries report them.
func TestGroupsQueried(t *testing.T) {
	e := setup(t, groupConfig(`{"group_id":2,"aicore_num":3,"aivector_num":2,"aicpu_num":1,"sdma_num":4,"active_stream_num":16},
		{"group_id":0,"aicore_num":2,"aivector_num":2,"default":true}`))
	n, err := e.c.GroupCount()
	check(t, err)
	if n != 2 {
		t.Fatalf("GroupCount = %d, want 2", n)
	}
	gs, err := e.c.Groups()
	check(t, err)
	want := []gocann.GroupInfo{
		{ID: 0, Default: true, AICores: 2, VectorCores: 2},
		{ID: 2, AICores: 3, VectorCores: 2, AICPUs: 1, SDMAs: 4, ActiveStreams: 16},
	}
	if len(gs) != 2 || gs[0] != want[0] || gs[1] != want[1] {
		t.Errorf("Groups = %+v, want %+v", gs, want)
	}
	wantErr(t, e.c.SetGroup(1), gocann.CodeRTGroupNotCreate, "group 1 does not exist", "groups [0, 2]")
	wantErr(t, e.c.SetGroup(4), gocann.CodeRTParamInvalid, "groupId 4 is invalid", "[0, 3]")
	wantErr(t, e.c.SetGroup(-1), gocann.CodeRTParamInvalid, "groupId -1")

	// A chip with no groups created: none counted, none to list or set.
	plain := setup(t, profileConfig("Ascend310P3"))
	n, err = plain.c.GroupCount()
	check(t, err)
	if n != 0 {
		t.Errorf("GroupCount without groups = %d, want 0", n)
	}
	_, err = plain.c.Groups()
	wantErr(t, err, gocann.CodeRTGroupNotCreate, "no capability groups")
	wantErr(t, plain.c.SetGroup(0), gocann.CodeRTGroupNotCreate, "group 0 does not exist", "groups none")
}

// TestGroupsRunKernels: kernels run on their group's cores only: the
// default group's before any is set, the set group's after, and a stream
// created under a group keeps it.
func TestGroupsRunKernels(t *testing.T) {
	e := setup(t, groupConfig(`{"group_id":0,"aicore_num":2},{"group_id":1,"aicore_num":4,"default":true}`))
	p := newPeak(t, e.r, "peak")
	def, err := e.c.DefaultStream()
	check(t, err)
	if n := p.run(t, def); n != 4 {
		t.Errorf("before SetGroup: %d blocks at once on the default stream, want the default group's 4", n)
	}
	if n := p.run(t, e.s); n != 4 {
		t.Errorf("before SetGroup: %d blocks at once on a stream, want the default group's 4", n)
	}
	check(t, e.c.SetGroup(0))
	bound := e.newStream(t)
	for _, s := range []*gocann.Stream{def, e.s, bound} {
		if n := p.run(t, s); n != 2 {
			t.Errorf("group 0 set: %d blocks at once, want 2", n)
		}
	}
	check(t, e.c.SetGroup(1))
	if n := p.run(t, bound); n != 2 {
		t.Errorf("a stream created under group 0 ran %d blocks at once after SetGroup(1), want 2", n)
	}
	if n := p.run(t, def); n != 4 {
		t.Errorf("group 1 set: %d blocks at once on the default stream, want 4", n)
	}
	// A stream limit tighter than the group bounds further.
	check(t, e.s.SetResLimit(gocann.ResCubeCore, 3))
	if n := p.run(t, e.s); n != 3 {
		t.Errorf("group 1 under a 3-core limit: %d blocks at once, want 3", n)
	}
}

// TestGroupsNotSet: with several groups and no default one, no stream can
// be created before a group is set; the default stream still runs on the
// whole device.
func TestGroupsNotSet(t *testing.T) {
	r := newRuntime(t, groupConfig(`{"group_id":0,"aicore_num":2},{"group_id":3,"aicore_num":2}`))
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	_, err = c.NewStream()
	wantErr(t, err, gocann.CodeRTGroupNotSet, "2 capability groups and no default one")
	p := newPeak(t, r, "peak")
	def, err := c.DefaultStream()
	check(t, err)
	if n := p.run(t, def); n < 3 {
		t.Errorf("no group: %d blocks at once on the default stream, want the whole device's (3..8)", n)
	}
	check(t, c.SetGroup(3))
	s, err := c.NewStream()
	check(t, err)
	if n := p.run(t, s); n != 2 {
		t.Errorf("group 3: %d blocks at once, want 2", n)
	}
	// The device's last reset ends the setting.
	check(t, s.Close())
	check(t, d.Reset())
	d, err = r.SetDevice(0)
	check(t, err)
	c, err = d.Context()
	check(t, err)
	_, err = c.NewStream()
	wantErr(t, err, gocann.CodeRTGroupNotSet)
}

// TestGroupsRefused: chips other than the Atlas inference series have no
// groups: the calls are refused, and so is a configuration creating them.
func TestGroupsRefused(t *testing.T) {
	e := setup(t)
	_, err := e.c.GroupCount()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtGetGroupCount")
	_, err = e.c.Groups()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtGetAllGroupInfo")
	wantErr(t, e.c.SetGroup(0), gocann.CodeRTFeatureNotSupport, "aclrtSetGroup")

	_, err = gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"hbm_size":1073741824,"core_groups":[{"group_id":0,"aicore_num":2}]}}`)))
	wantErr(t, err, gocann.CodeFileAttrInvalid, "Ascend910B1 has no capability groups")
	for cfg, msg := range map[string]string{
		`{"group_id":4,"aicore_num":1}`:                               "group_id is invalid, expected [0, 3]",
		`{"group_id":1,"aicore_num":1},{"group_id":1,"aicore_num":1}`: "already listed",
		`{"group_id":0}`: "aicore_num is invalid",
		`{"group_id":0,"aicore_num":5},{"group_id":1,"aicore_num":4}`:                               "take 9 AI cores, expected at most the chip's 8",
		`{"group_id":0,"aicore_num":1,"default":true},{"group_id":1,"aicore_num":1,"default":true}`: "both the default",
	} {
		_, err := gocann.Open(gocann.WithConfigJSON([]byte(groupConfig(cfg))))
		wantErr(t, err, gocann.CodeFileAttrInvalid, msg)
	}
}
