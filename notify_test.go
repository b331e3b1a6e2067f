package gocann_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func TestNotifyOneRecordReleasesOneWait(t *testing.T) {
	// "Notify Wait auto-resets, so one Record notifies exactly one Wait."
	e := setup(t)
	n, err := e.c.NewNotify()
	check(t, err)
	var passed atomic.Int32
	waiters := []*gocann.Stream{e.newStream(t), e.newStream(t)}
	for _, s := range waiters {
		check(t, s.WaitNotify(n, 0))
		check(t, s.LaunchHostFunc(func() { passed.Add(1) }))
	}
	stays(t, 20*time.Millisecond, "no waiter passes before a record", func() bool { return passed.Load() == 0 })
	check(t, e.s.RecordNotify(n))
	eventually(t, "one waiter passes", func() bool { return passed.Load() >= 1 })
	stays(t, 30*time.Millisecond, "only one waiter passes", func() bool { return passed.Load() == 1 })
	check(t, e.s.RecordNotify(n))
	for _, s := range waiters {
		syncOK(t, s)
	}
	if passed.Load() != 2 {
		t.Fatalf("%d waiters passed after two records, want 2", passed.Load())
	}
}

func TestNotifyRecordBeforeWait(t *testing.T) {
	// The record may come first: the notify stays set until a wait takes it,
	// and only that one wait.
	e := setup(t)
	n, err := e.c.NewNotify()
	check(t, err)
	check(t, e.s.RecordNotify(n))
	syncOK(t, e.s)
	s2 := e.newStream(t)
	check(t, s2.WaitNotify(n, 0))
	syncOK(t, s2)
	check(t, s2.WaitNotify(n, 20*time.Millisecond)) // reset by the first wait
	wantErr(t, s2.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, "timed out after 20ms")
}

func TestNotifyWaitTimeout(t *testing.T) {
	// A wait that times out is a task fault (ACL_ERROR_RT_WAIT_TIMEOUT)
	// reported at the next synchronize; the stream moves on.
	e := setup(t)
	n, err := e.c.NewNotify()
	check(t, err)
	var after atomic.Bool
	start := time.Now()
	check(t, e.s.WaitNotify(n, 30*time.Millisecond))
	check(t, e.s.LaunchHostFunc(func() { after.Store(true) }))
	err = e.s.SynchronizeTimeout(long)
	wantErr(t, err, gocann.CodeRTWaitTimeout, "notify", "timed out after 30ms")
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Errorf("wait timed out after %v, want at least 30ms", el)
	}
	if !errors.Is(err, gocann.ErrTimeout) || !errors.Is(err, gocann.ErrDevice) {
		t.Errorf("errors.Is(%v, ErrTimeout/ErrDevice) = %v/%v, want both", err,
			errors.Is(err, gocann.ErrTimeout), errors.Is(err, gocann.ErrDevice))
	}
	if !after.Load() {
		t.Fatal("the task after a timed-out wait did not run")
	}
	syncOK(t, e.s) // reported once
	// A record after the timeout is still there for the next wait.
	check(t, e.s.RecordNotify(n))
	check(t, e.s.WaitNotify(n, long))
	syncOK(t, e.s)
	wantErr(t, e.s.WaitNotify(n, -time.Second), gocann.CodeRTParamInvalid, "timeout -1s is invalid", ">= 0")
}

func TestNotifyTimeoutCountsFromWaitStart(t *testing.T) {
	// The timeout bounds the wait itself, not the time the wait task spent
	// queued behind earlier tasks.
	e := setup(t)
	n, err := e.c.NewNotify()
	check(t, err)
	g := block(t, e.s)
	head := make(chan struct{})
	check(t, e.s.LaunchHostFunc(func() { close(head) })) // the wait is next
	check(t, e.s.WaitNotify(n, 200*time.Millisecond))
	time.Sleep(300 * time.Millisecond) // longer than the timeout, while queued
	g.Open()
	<-head
	time.Sleep(20 * time.Millisecond)
	check(t, e.newStream(t).RecordNotify(n))
	syncOK(t, e.s)
}

func TestNotifyAcrossDevices(t *testing.T) {
	// "Purpose: mostly cross-device sync."
	e := setup(t)
	c1, s1 := onDevice(t, e.r, 1)
	n0, err := e.c.NewNotify()
	check(t, err)
	n1, err := c1.NewNotify()
	check(t, err)
	var log recorder
	// Device 1 waits for device 0, then device 0 waits for device 1.
	check(t, s1.WaitNotify(n0, 0))
	check(t, s1.LaunchHostFunc(func() { log.add("dev1") }))
	check(t, s1.RecordNotify(n1))
	check(t, e.s.WaitNotify(n1, 0))
	check(t, e.s.LaunchHostFunc(func() { log.add("dev0 after") }))
	other := e.newStream(t)
	check(t, other.LaunchHostFunc(func() { log.add("dev0 before") }))
	check(t, other.RecordNotify(n0))
	syncOK(t, e.s)
	syncOK(t, s1)
	if got := log.String(); got != "dev0 before,dev1,dev0 after" {
		t.Fatalf("order %s, want dev0 before,dev1,dev0 after", got)
	}
}

func TestNotifyClose(t *testing.T) {
	e := setup(t)
	n, err := e.c.NewNotify()
	check(t, err)
	n2, err := e.c.NewNotify()
	check(t, err)
	if n.ID() == n2.ID() {
		t.Errorf("two notifies share id %d", n.ID())
	}
	// "queued tasks using it still run"
	s2 := e.newStream(t)
	check(t, s2.WaitNotify(n, 0))
	check(t, e.s.RecordNotify(n))
	check(t, n.Close())
	syncOK(t, e.s)
	syncOK(t, s2)
	wantErr(t, n.Close(), gocann.CodeRTInvalidHandle, "already destroyed")
	wantErr(t, e.s.RecordNotify(n), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, e.s.WaitNotify(n, 0), gocann.CodeRTInvalidHandle, "destroyed")
	wantErr(t, e.s.RecordNotify(nil), gocann.CodeInvalidParam, "notify is nil")
	wantErr(t, e.s.WaitNotify(nil, 0), gocann.CodeInvalidParam, "notify is nil")
}

func TestNotifyPool(t *testing.T) {
	// Notifies are limited per device (ACL_ERROR_RT_NO_NOTIFY_RESOURCE).
	e := setup(t, `{"simulator":{"hbm_size":1073741824,"notify_limit":2}}`)
	a, err := e.c.NewNotify()
	check(t, err)
	_, err = e.c.NewNotify()
	check(t, err)
	_, err = e.c.NewNotify()
	wantErr(t, err, gocann.CodeRTNoNotifyResource, "all 2 notifies")
	if !errors.Is(err, gocann.ErrNoResource) {
		t.Errorf("errors.Is(%v, ErrNoResource) = false", err)
	}
	check(t, a.Close())
	_, err = e.c.NewNotify()
	check(t, err)
}
