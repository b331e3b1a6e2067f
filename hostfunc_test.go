package gocann_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func TestHostFuncThreadsProducts(t *testing.T) {
	// The reference offers the host-function thread model on IPV350 only:
	// every other modelled chip answers ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
	for _, soc := range []string{"Ascend910B1", "Ascend950PR_9599", "Ascend310B1", "Ascend310P3", "Ascend910A"} {
		e := setup(t, profileConfig(soc))
		wantErr(t, e.r.SubscribeHostFunc(1, e.s), gocann.CodeRTFeatureNotSupport, "aclrtSubscribeHostFunc", soc)
		wantErr(t, e.r.ProcessHostFunc(context.Background(), 1, time.Millisecond), gocann.CodeRTFeatureNotSupport, "aclrtProcessHostFunc")
		wantErr(t, e.r.UnsubscribeHostFunc(1, e.s), gocann.CodeRTFeatureNotSupport, "aclrtUnSubscribeHostFunc")
	}
	// IPV350 offers them, and lacks aclrtLaunchHostFunc (its host functions
	// are its models' CPU operators) and aclrtCreateStreamWithConfig: its
	// streams come from aclrtCreateStreamV2, made as RawContext.NewStream.
	r := newRuntime(t, profileConfig("Ascend035"))
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	_, err = c.NewStream()
	wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtCreateStreamWithConfig is not supported on Ascend035 (IPV350)")
	s, err := c.Raw().NewStream()
	check(t, err)
	check(t, r.SubscribeHostFunc(1, s))
	wantErr(t, s.LaunchHostFunc(func() {}), gocann.CodeRTFeatureNotSupport, "aclrtLaunchHostFunc is not supported on Ascend035")
	wantErr(t, r.ProcessHostFunc(context.Background(), 1, time.Millisecond), gocann.CodeRTReportTimeout)
	check(t, r.UnsubscribeHostFunc(1, s))
	check(t, s.Close())
}

func TestHostFuncThreads(t *testing.T) {
	// On a chip of no product the reference restricts (the fake backend's),
	// a subscribed thread runs the stream's host functions, one per
	// ProcessHostFunc, and the stream waits for each.
	fb := newFakeBackend()
	r, err := gocann.Open(gocann.WithBackend(fb.open))
	check(t, err)
	t.Cleanup(func() { r.Close() })
	d, err := r.SetDevice(0)
	check(t, err)
	c, err := d.Context()
	check(t, err)
	s, err := c.NewStream()
	check(t, err)
	const me = 42

	wantErr(t, r.ProcessHostFunc(context.Background(), me, time.Millisecond), gocann.CodeRTThreadSubscribe, "not a host-function thread")
	wantErr(t, r.SubscribeHostFunc(me, nil), gocann.CodeInvalidParam, "exeStream is nil")
	check(t, r.SubscribeHostFunc(me, s))
	wantErr(t, r.SubscribeHostFunc(7, s), gocann.CodeRepeatSubscribe, "already subscribed to host-function thread 0x2a")
	wantErr(t, r.ProcessHostFunc(context.Background(), me, 0), gocann.CodeRTParamInvalid, "timeout 0 is invalid")

	var ran, after atomic.Int32
	check(t, s.LaunchHostFunc(func() { ran.Add(1) }))
	check(t, s.LaunchHostFunc(func() { after.Store(ran.Load()) }))
	stays(t, 20*time.Millisecond, "nothing runs before the thread processes", func() bool { return ran.Load() == 0 })
	if done, _ := s.Query(); done {
		t.Fatal("stream done before its host function ran")
	}
	check(t, r.ProcessHostFunc(context.Background(), me, time.Second))
	if ran.Load() != 1 {
		t.Fatalf("ProcessHostFunc ran %d host functions, want 1", ran.Load())
	}
	check(t, r.ProcessHostFunc(context.Background(), me, -1))
	check(t, s.Synchronize(context.Background()))
	if after.Load() != 1 {
		t.Fatalf("second host function saw %d runs of the first, want 1: they run in order", after.Load())
	}
	wantErr(t, r.ProcessHostFunc(context.Background(), me, 10*time.Millisecond), gocann.CodeRTReportTimeout, "no host function arrived within 10ms")

	wantErr(t, r.UnsubscribeHostFunc(7, s), gocann.CodeRTStreamNoCbReg, "not subscribed to host-function thread 0x7")
	check(t, r.UnsubscribeHostFunc(me, s))
	// Unsubscribed, host functions run on the runtime's own again.
	check(t, s.LaunchHostFunc(func() { ran.Add(1) }))
	check(t, s.Synchronize(context.Background()))
	if ran.Load() != 2 {
		t.Fatal("host function after UnsubscribeHostFunc did not run")
	}
}
