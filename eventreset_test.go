package gocann_test

import (
	"testing"

	"github.com/gocann/gocann"
)

func TestResetPlainEvent(t *testing.T) {
	// CANN's runtime queues a reset task for an aclrtCreateEvent event (its
	// flags include a device-side wait), except on the Ascend 950, whose
	// runtime keeps that reset a no-op; on a stream bound to a model it is
	// refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
	for _, tc := range []struct {
		soc       string
		doneAfter bool
	}{{"Ascend910B1", false}, {"Ascend910_9391", false}, {"Ascend950PR_9599", true}} {
		t.Run(tc.soc, func(t *testing.T) {
			e := setup(t, profileConfig(tc.soc))
			ev, err := e.c.NewDefaultEvent()
			check(t, err)
			check(t, e.s.Record(ev))
			syncOK(t, e.s)
			check(t, e.s.ResetEvent(ev))
			syncOK(t, e.s)
			done, err := ev.Query()
			check(t, err)
			if done != tc.doneAfter {
				t.Fatalf("Query after the reset = %v, want %v", done, tc.doneAfter)
			}
			// A wait queued after the reset does not wait for anything.
			s2 := e.newStream(t)
			check(t, s2.WaitEvent(ev))
			syncOK(t, s2)

			bound, err := e.c.NewStream(gocann.WithStreamFlags(gocann.StreamPersistent))
			check(t, err)
			m, err := e.c.BuildModel()
			check(t, err)
			t.Cleanup(func() { m.Close() })
			check(t, m.Bind(bound, true))
			wantErr(t, bound.ResetEvent(ev), gocann.CodeRTFeatureNotSupport, "aclrtCreateEvent", "bound to a model")
		})
	}
}
