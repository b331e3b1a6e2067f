package gocann_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

// cntChip is the modelled chip that has counting notifies.
const cntChip = "Ascend950PR_9599"

func TestCntNotifyProducts(t *testing.T) {
	// Only the Ascend 950 has counting notifies among the modelled chips.
	for _, soc := range []string{"Ascend910B1", "Ascend910_9391", "Ascend310B1"} {
		e := setup(t, profileConfig(soc))
		_, err := e.c.NewCntNotify(0)
		wantErr(t, err, gocann.CodeRTFeatureNotSupport, "aclrtCntNotifyCreate", soc)
	}
}

func TestCntNotifyRecordModes(t *testing.T) {
	// Each record mode changes the count as aclrtCntNotifyRecordMode says;
	// a wait of the same stream checks the count the records before it left.
	e := setup(t, profileConfig(cntChip))
	n, err := e.c.NewCntNotify(0)
	check(t, err)
	var reached atomic.Int32
	step := func(mode gocann.CntRecordMode, v, want uint32) {
		check(t, e.s.RecordCntNotify(n, mode, v))
		check(t, e.s.WaitCntNotify(n, gocann.CntWait{Mode: gocann.CntEqual, Value: want, Timeout: 2 * time.Second}))
		check(t, e.s.LaunchHostFunc(func() { reached.Add(1) }))
	}
	step(gocann.CntSet, 5, 5)
	step(gocann.CntAdd, 3, 8)
	step(gocann.CntOr, 0x30, 0x38)
	step(gocann.CntAnd, 0x0f, 8)
	step(gocann.CntAdd, 0xffffffff, 7) // wraps at 32 bits
	syncOK(t, e.s)
	if reached.Load() != 5 {
		t.Fatalf("%d of 5 waits passed", reached.Load())
	}
	id, err := n.ID()
	check(t, err)
	if id == 0 {
		t.Fatal("ID() = 0")
	}
	check(t, n.Close())
	wantErr(t, e.s.RecordCntNotify(n, gocann.CntSet, 1), gocann.CodeRTInvalidHandle, "destroyed")
}

func TestCntNotifyWaitModes(t *testing.T) {
	// A wait holds its stream until the count meets its mode; with Clear the
	// count becomes 0 as the wait ends.
	e := setup(t, profileConfig(cntChip))
	for _, tc := range []struct {
		mode        gocann.CntWaitMode
		value       uint32
		holds, ends uint32 // a count that holds the wait, and one that ends it
	}{
		{gocann.CntLess, 4, 4, 3},
		{gocann.CntEqual, 4, 5, 4},
		{gocann.CntBigger, 4, 4, 5},
		{gocann.CntAtLeast, 4, 3, 4},
		{gocann.CntBits, 0x6, 0x4, 0xe},
	} {
		n, err := e.c.NewCntNotify(0)
		check(t, err)
		check(t, e.s.RecordCntNotify(n, gocann.CntSet, tc.holds))
		syncOK(t, e.s)
		w := e.newStream(t)
		var passed atomic.Bool
		check(t, w.WaitCntNotify(n, gocann.CntWait{Mode: tc.mode, Value: tc.value, Clear: true}))
		check(t, w.LaunchHostFunc(func() { passed.Store(true) }))
		stays(t, 20*time.Millisecond, "the wait holds", func() bool { return !passed.Load() })
		check(t, e.s.RecordCntNotify(n, gocann.CntSet, tc.ends))
		syncOK(t, w)
		// Cleared: a wait for 0 passes at once.
		check(t, w.WaitCntNotify(n, gocann.CntWait{Mode: gocann.CntEqual, Value: 0, Timeout: 2 * time.Second}))
		syncOK(t, w)
		check(t, n.Close())
	}
}

func TestCntNotifyResetAndTimeout(t *testing.T) {
	e := setup(t, profileConfig(cntChip))
	n, err := e.c.NewCntNotify(0)
	check(t, err)
	check(t, e.s.RecordCntNotify(n, gocann.CntSet, 9))
	check(t, e.s.ResetCntNotify(n))
	check(t, e.s.WaitCntNotify(n, gocann.CntWait{Mode: gocann.CntEqual, Value: 0, Timeout: 2 * time.Second}))
	syncOK(t, e.s)
	// A wait that expires is a task fault reported at the next synchronize.
	check(t, e.s.WaitCntNotify(n, gocann.CntWait{Mode: gocann.CntBigger, Value: 0, Timeout: time.Second}))
	start := time.Now()
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, "count notify wait", "timed out after 1s")
	if el := time.Since(start); el < 900*time.Millisecond {
		t.Errorf("wait timed out after %v, want about 1s", el)
	}
	syncOK(t, e.s)
}

func TestCntNotifyCaptured(t *testing.T) {
	// Counting-notify tasks are ordered stream tasks: captured, they run at
	// each replay.
	e := setup(t, profileConfig(cntChip))
	n, err := e.c.NewCntNotify(0)
	check(t, err)
	cs := e.newStream(t)
	m, err := cs.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		check(t, s.RecordCntNotify(n, gocann.CntAdd, 2))
		return nil
	})
	check(t, err)
	defer m.Close()
	check(t, m.Run(e.s))
	check(t, m.Run(e.s))
	check(t, e.s.WaitCntNotify(n, gocann.CntWait{Mode: gocann.CntEqual, Value: 4, Timeout: 2 * time.Second}))
	syncOK(t, e.s)
}

func TestCntNotifyRefusals(t *testing.T) {
	e := setup(t, profileConfig(cntChip))
	_, err := e.c.NewCntNotify(1)
	wantErr(t, err, gocann.CodeRTParamInvalid, "flag 0x1 is invalid", "expected 0")
	n, err := e.c.NewCntNotify(0)
	check(t, err)
	wantErr(t, e.s.RecordCntNotify(n, 3, 1), gocann.CodeRTParamInvalid, "record mode 3 is invalid")
	wantErr(t, e.s.WaitCntNotify(n, gocann.CntWait{Mode: 5}), gocann.CodeRTParamInvalid, "wait mode 5 is invalid")
	wantErr(t, e.s.WaitCntNotify(n, gocann.CntWait{Timeout: -time.Second}), gocann.CodeRTParamInvalid, "timeout -1s is invalid")
	wantErr(t, e.s.RecordCntNotify(nil, gocann.CntSet, 1), gocann.CodeInvalidParam, "cntNotify is nil")
	wantErr(t, e.s.WaitCntNotify(nil, gocann.CntWait{}), gocann.CodeInvalidParam, "cntNotify is nil")
	wantErr(t, e.s.ResetCntNotify(nil), gocann.CodeInvalidParam, "cntNotify is nil")
	check(t, n.Close())
	wantErr(t, n.Close(), gocann.CodeRTInvalidHandle, "already destroyed")
}

func TestNotifyBatchReset(t *testing.T) {
	// aclrtNotifyBatchReset clears records no wait has taken: a wait after it
	// waits for a new record.
	e := setup(t)
	a, err := e.c.NewNotify()
	check(t, err)
	b, err := e.c.NewNotify()
	check(t, err)
	check(t, e.s.RecordNotify(a))
	check(t, e.s.RecordNotify(b))
	syncOK(t, e.s)
	check(t, e.r.ResetNotifies(a, b))
	check(t, e.s.WaitNotify(a, 30*time.Millisecond))
	wantErr(t, e.s.SynchronizeTimeout(long), gocann.CodeRTWaitTimeout, "timed out after 30ms")
	check(t, e.s.RecordNotify(b))
	check(t, e.s.WaitNotify(b, long))
	syncOK(t, e.s)

	wantErr(t, e.r.ResetNotifies(), gocann.CodeRTParamInvalid, "num is 0")
	wantErr(t, e.r.ResetNotifies(a, nil), gocann.CodeInvalidParam, "notifies[1] is nil")
	check(t, b.Close())
	wantErr(t, e.r.ResetNotifies(a, b), gocann.CodeRTInvalidHandle, "notifies[1]", "destroyed")

	p := setup(t, profileConfig("Ascend310B1"))
	n, err := p.c.NewNotify()
	check(t, err)
	wantErr(t, p.r.ResetNotifies(n), gocann.CodeRTFeatureNotSupport, "aclrtNotifyBatchReset", "Ascend310B1")
}
