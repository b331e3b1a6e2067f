package gocann_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/gocann/gocann"
)

// A thread's last kernel launch is its last task: on a stream its number
// there, in a capture its index in the model stream; information cached on
// a captured task shows in the model's JSON and in a fault of the task.
func TestThreadLastTaskAndInfo(t *testing.T) {
	e := setup(t)
	raw := e.r.Raw()
	th := gocann.CaptureThread{ID: 4242}
	if id := raw.ThreadLastTaskID(th); id != 0 {
		t.Fatalf("ThreadLastTaskID before any launch = %d, want 0", id)
	}
	k, err := e.r.RegisterKernel("lasttask-nop", func(*gocann.Block) {})
	check(t, err)
	boom, err := e.r.RegisterKernel("lasttask-boom", func(*gocann.Block) { panic("boom") })
	check(t, err)
	args := []uint64{1}
	launch := func(s *gocann.Stream, k *gocann.Kernel) {
		t.Helper()
		check(t, s.Raw().LaunchArgs(k, 1, unsafe.Pointer(&args[0]), 8, uint32(th.ID)))
	}
	launch(e.s, k)
	launch(e.s, k)
	syncOK(t, e.s)
	if id := raw.ThreadLastTaskID(th); id != 2 {
		t.Errorf("ThreadLastTaskID after two launches = %d, want 2", id)
	}
	other := gocann.CaptureThread{ID: 4343}
	if id := raw.ThreadLastTaskID(other); id != 0 {
		t.Errorf("another thread's ThreadLastTaskID = %d, want 0", id)
	}
	wantErr(t, raw.CacheLastTaskExtendInfo(th, []byte(`{"a":1}`)), gocann.CodeRTInternalError, "in no model")

	s := e.newStream(t)
	c, err := s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	launch(s, k)
	launch(s, boom)
	if id := raw.ThreadLastTaskID(th); id != 1 {
		t.Errorf("ThreadLastTaskID after two captured launches = %d, want 1", id)
	}
	check(t, raw.CacheLastTaskExtendInfo(th, []byte(`{"op":"boom","shape":[2,3]}`)))
	check(t, raw.CacheLastTaskOpInfo(th, []byte{1, 2, 3}))
	wantErr(t, raw.CacheLastTaskOpInfo(th, nil), gocann.CodeInvalidParam, "infoSize 0")
	wantErr(t, raw.CacheLastTaskOpInfo(th, make([]byte, 64<<10+1)), gocann.CodeRTParamInvalid, "65537")
	wantErr(t, raw.CacheLastTaskExtendInfo(th, nil), gocann.CodeRTParamInvalid, "infoSize 0")
	m, err := c.End()
	check(t, err)

	var out bytes.Buffer
	check(t, m.WriteJSON(&out, false))
	var desc struct {
		Streams []struct {
			Tasks []struct {
				Kernel     string          `json:"kernel"`
				ExtendInfo json.RawMessage `json:"extend_info"`
				OpInfo     []byte          `json:"op_info"`
			} `json:"tasks"`
		} `json:"streams"`
	}
	check(t, json.Unmarshal(out.Bytes(), &desc))
	if len(desc.Streams) != 1 || len(desc.Streams[0].Tasks) < 2 {
		t.Fatalf("model description %s: want one stream of two tasks", out.String())
	}
	t0, t1 := desc.Streams[0].Tasks[0], desc.Streams[0].Tasks[1]
	if t0.ExtendInfo != nil || t0.OpInfo != nil {
		t.Errorf("the first task carries %s / %v, want nothing", t0.ExtendInfo, t0.OpInfo)
	}
	var ext bytes.Buffer
	_ = json.Compact(&ext, t1.ExtendInfo)
	if t1.Kernel != "lasttask-boom" || ext.String() != `{"op":"boom","shape":[2,3]}` || !bytes.Equal(t1.OpInfo, []byte{1, 2, 3}) {
		t.Errorf("the second task is %s with %s / %v, want lasttask-boom with the cached information", t1.Kernel, ext.String(), t1.OpInfo)
	}

	infos := make(chan gocann.ExceptionInfo, 1)
	defer e.r.AddExceptionCallback(func(info gocann.ExceptionInfo) { infos <- info })()
	check(t, m.Run(e.s))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, `extend info: {"op":"boom","shape":[2,3]}`)
	if info := <-infos; !strings.Contains(info.Msg, `extend info: {"op":"boom"`) {
		t.Errorf("the exception report says %q, want the extended information", info.Msg)
	}
}

// Extended information past 4 KiB is cut; text that is not JSON is a JSON
// string in the description.
func TestExtendInfoLimits(t *testing.T) {
	e := setup(t)
	raw := e.r.Raw()
	th := gocann.CaptureThread{ID: 777}
	k, err := e.r.RegisterKernel("lasttask-nop2", func(*gocann.Block) {})
	check(t, err)
	c, err := e.s.BeginCapture(gocann.CaptureGlobal)
	check(t, err)
	args := []uint64{1}
	check(t, e.s.Raw().LaunchArgs(k, 1, unsafe.Pointer(&args[0]), 8, uint32(th.ID)))
	check(t, raw.CacheLastTaskExtendInfo(th, []byte(strings.Repeat("x", 5000))))
	m, err := c.End()
	check(t, err)
	var out bytes.Buffer
	check(t, m.WriteJSON(&out, false))
	if want := `"` + strings.Repeat("x", 4096) + `"`; !strings.Contains(out.String(), want) {
		t.Errorf("description %s lacks the extended information cut to 4096 bytes", out.String())
	}
}

func TestLastTaskInfoUnsupported(t *testing.T) {
	e := setup(t, profileConfig("Ascend310B1"))
	th := gocann.CaptureThread{ID: 1}
	wantErr(t, e.r.Raw().CacheLastTaskOpInfo(th, []byte{1}), gocann.CodeRTFeatureNotSupport, "aclrtCacheLastTaskOpInfo")
	wantErr(t, e.r.Raw().CacheLastTaskExtendInfo(th, []byte{1}), gocann.CodeRTFeatureNotSupport, "aclrtCacheLastTaskExtendInfo")
}
