package gocann_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/gocann/gocann"
)

func init() { syncRoles["pong"] = pongSyncPeer }

// pongSyncPeer exports a notify and says its key, imports the test's (its
// argument), then for each "n N" answers N pings: it waits on its notify
// and records the test's, N times.
func pongSyncPeer(c *syncChild) error {
	mine, err := c.c.NewNotify()
	if err != nil {
		return err
	}
	key, err := mine.ExportKey(gocann.NotifyExportNoPidCheck)
	if err != nil {
		return err
	}
	theirs, err := c.c.ImportNotify(c.arg, 0)
	if err != nil {
		return err
	}
	c.say("key %s", key)
	for {
		cmd := c.hear()
		if len(cmd) < 2 || cmd[:2] != "n " {
			return nil
		}
		n, _ := strconv.Atoi(cmd[2:])
		for range n {
			if err := c.s.WaitNotify(mine, 0); err != nil {
				return err
			}
			if err := c.s.RecordNotify(theirs); err != nil {
				return err
			}
		}
		c.say("done %d", syncCode(c.s.SynchronizeTimeout(0)))
	}
}

// notifyPingPong queues n round trips on s: record out, then wait on in.
func notifyPingPong(s *gocann.Stream, out, in *gocann.Notify, n int) error {
	for range n {
		if err := s.RecordNotify(out); err != nil {
			return err
		}
		if err := s.WaitNotify(in, 0); err != nil {
			return err
		}
	}
	return s.SynchronizeTimeout(0)
}

// BenchmarkIPCNotifyRoundTrip measures a notify round trip, record on one
// side and wait on the other and back, between two processes (ns/op), and
// the same between two streams of one process (inproc-ns/op); ratio is
// the first over the second.
func BenchmarkIPCNotifyRoundTrip(b *testing.B) {
	m := newMachine()
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(ipcConfig(m))))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	d, err := r.SetDevice(0)
	if err != nil {
		b.Fatal(err)
	}
	c, err := d.Context()
	if err != nil {
		b.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			b.Helper()
			b.Fatal(err)
		}
	}
	s, err := c.NewStream()
	must(err)
	s2, err := c.NewStream()
	must(err)
	mine, err := c.NewNotify()
	must(err)
	key, err := mine.ExportKey(gocann.NotifyExportNoPidCheck)
	must(err)
	p := startSyncPeer(b, "pong", m, key)
	theirs, err := c.ImportNotify(p.expectPrefix("key "), 0)
	must(err)

	// In-process: s pings through a, s2 answers through b.
	a, err := c.NewNotify()
	must(err)
	bn, err := c.NewNotify()
	must(err)
	// ns/op times the cross-process round trips alone.
	b.StopTimer()
	b.ResetTimer()
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		for range b.N {
			if err := s2.WaitNotify(a, 0); err != nil {
				done <- err
				return
			}
			if err := s2.RecordNotify(bn); err != nil {
				done <- err
				return
			}
		}
		done <- s2.SynchronizeTimeout(0)
	}()
	must(notifyPingPong(s, a, bn, b.N))
	must(<-done)
	inproc := time.Since(start)

	b.StartTimer()
	start = time.Now()
	p.send(fmt.Sprintf("n %d", b.N))
	must(notifyPingPong(s, theirs, mine, b.N))
	p.expect("done 0")
	cross := time.Since(start)
	b.StopTimer()
	p.finish()
	b.ReportMetric(float64(inproc.Nanoseconds())/float64(b.N), "inproc-ns/op")
	b.ReportMetric(float64(cross)/float64(inproc), "ratio")
}
