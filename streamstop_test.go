package gocann_test

import (
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// A stopped stream starts nothing more and keeps its queued tasks until
// Abort drops them; then it runs again.
func TestStreamStop(t *testing.T) {
	e := setup(t)
	p := malloc(t, e.c, 8)
	g := block(t, e.s)
	g.waitStarted(t)
	check(t, e.s.WriteValue(p, 7))
	check(t, e.s.Stop())
	check(t, e.s.Stop()) // stopping a stopped stream changes nothing
	g.Open()
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTStreamAbort, "is stopped", "abort the stream")
	stays(t, 20*time.Millisecond, "the queued write stays unrun", func() bool { return readU64(t, e.c, p) == 0 })
	wantErr(t, e.s.WriteValue(p, 8), gocann.CodeRTStreamAbort, "is stopped")
	if done, _ := e.s.Query(); done {
		t.Error("Query of a stopped stream with a queued task says done")
	}
	check(t, e.s.Abort())
	check(t, e.s.WriteValue(p, 5))
	syncOK(t, e.s)
	if v := readU64(t, e.c, p); v != 5 {
		t.Errorf("word after Abort and a new write = %d, want 5 (the stopped write dropped)", v)
	}
	def, err := e.c.DefaultStream()
	check(t, err)
	wantErr(t, def.Stop(), gocann.CodeRTParamInvalid, "default stream")
	check(t, e.s.Close())
	wantErr(t, e.s.Stop(), gocann.CodeRTInvalidHandle, "destroyed")
}

func TestStreamStopUnsupported(t *testing.T) {
	e := setup(t, profileConfig("Ascend310B1"))
	wantErr(t, e.s.Stop(), gocann.CodeRTFeatureNotSupport, "aclrtStreamStop", "Ascend310B1")
}
