package gocann_test

import (
	"testing"

	"github.com/gocann/gocann"
)

// A kernel fault carries the kernel and its argument slots to the
// exception callbacks, and ErrorVerbose classifies it until TaskAbort.
func TestFaultDetail(t *testing.T) {
	for _, c := range []struct {
		soc  string
		want gocann.ErrorVerbose
	}{
		{"Ascend910B1", gocann.ErrorVerbose{Type: gocann.ErrorOthers}},
		{"Ascend950PR_9599", gocann.ErrorVerbose{Type: gocann.ErrorAICore, HasDetail: true, AICore: gocann.AICoreErrorSoftware}},
	} {
		t.Run(c.soc, func(t *testing.T) {
			e := setup(t, profileConfig(c.soc))
			infos := make(chan gocann.ExceptionInfo, 2)
			defer e.r.AddExceptionCallback(func(info gocann.ExceptionInfo) { infos <- info })()
			if v, err := e.d.ErrorVerbose(); err != nil || v != (gocann.ErrorVerbose{}) {
				t.Fatalf("ErrorVerbose before any fault = %+v, %v; want ErrorNone", v, err)
			}
			boom, err := e.r.RegisterKernel("boom-detail", func(*gocann.Block) { panic("bad") })
			check(t, err)
			check(t, e.s.Launch(boom, 2, gocann.U64(11), gocann.U64(22), gocann.U64(33)))
			wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTAICoreException, "boom-detail")
			info := <-infos
			if info.Func != boom || len(info.Args) != 3 || info.Args[0] != 11 || info.Args[2] != 33 {
				t.Errorf("exception info has kernel %v and args %v, want %v and [11 22 33]", info.Func, info.Args, boom)
			}
			v, err := e.d.ErrorVerbose()
			check(t, err)
			if v != c.want {
				t.Errorf("ErrorVerbose after a kernel fault = %+v, want %+v", v, c.want)
			}
			check(t, e.d.TaskAbort(0))
			if v, err := e.d.ErrorVerbose(); err != nil || v.Type != gocann.ErrorNone {
				t.Errorf("ErrorVerbose after TaskAbort = %+v, %v; want ErrorNone", v, err)
			}
		})
	}
	e := setup(t, profileConfig("Ascend310B1"))
	_, err := e.d.ErrorVerbose()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtGetErrorVerbose", "Ascend310B1")
}

// A fault of a task that is no kernel has neither.
func TestFaultDetailNotKernel(t *testing.T) {
	e := setup(t)
	infos := make(chan gocann.ExceptionInfo, 2)
	defer e.r.AddExceptionCallback(func(info gocann.ExceptionInfo) { infos <- info })()
	check(t, e.s.LaunchHostFunc(func() { panic("host") }))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTInternalError, "host function panicked")
	if info := <-infos; info.Func != nil || info.Args != nil {
		t.Errorf("a host function's fault has kernel %v, args %v; want none", info.Func, info.Args)
	}
	v, err := e.d.ErrorVerbose()
	check(t, err)
	if v.Type != gocann.ErrorOthers {
		t.Errorf("ErrorVerbose after a host function fault = %+v, want ErrorOthers", v)
	}
}
