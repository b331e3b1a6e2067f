package gocann_test

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// Export-then-open, again and again, across processes: every handle
// aclrtIpcGetEventHandle returns opens in another process at once, from
// either side, and stops opening once its event is destroyed. The handle
// reaches the other process only after the call that exported it
// returned, as a program passes it on (a file, a pipe): no retry, no
// sleep.

func init() { syncRoles["repeat"] = repeatSyncPeer }

// repeatSyncPeer obeys, until "exit": "export" (create an IPC event,
// record it, synchronize it and say its handle), "close" (destroy it),
// "open <handle>" (open it, wait for it on a stream, synchronize, query
// and destroy it, and say each call's code).
func repeatSyncPeer(c *syncChild) error {
	var ev *gocann.Event
	for {
		cmd := c.hear()
		switch {
		case cmd == "" || cmd == "exit":
			return nil
		case cmd == "export":
			var err error
			if ev, err = exportedEvent(c.c, c.s); err != nil {
				return err
			}
			h, err := ev.IPCHandle()
			if err != nil {
				return err
			}
			c.say("handle %s", hex.EncodeToString(h[:]))
		case cmd == "close" && ev != nil:
			c.say("closed %d", syncCode(ev.Close()))
			ev = nil
		case strings.HasPrefix(cmd, "open "):
			h, err := ipcEventHandleOf(strings.TrimPrefix(cmd, "open "))
			if err != nil {
				return err
			}
			c.say("%s", openAndWait(c.c, c.s, h))
		default:
			return fmt.Errorf("unknown command %q", cmd)
		}
	}
}

// exportedEvent is an IPC event of c recorded on s, its record done, as
// the producer of CANN's IPC event sample has it before exporting.
func exportedEvent(c *gocann.Context, s *gocann.Stream) (*gocann.Event, error) {
	ev, err := c.NewEvent(gocann.EventIPC)
	if err != nil {
		return nil, err
	}
	if err := s.Record(ev); err != nil {
		return nil, err
	}
	return ev, ev.SynchronizeTimeout(long)
}

// openAndWait opens handle h on c, waits for it on s and destroys it,
// saying each call's code; a failed open ends it.
func openAndWait(c *gocann.Context, s *gocann.Stream, h gocann.IPCEventHandle) string {
	ev, err := c.OpenIPCEvent(h)
	if err != nil {
		return fmt.Sprintf("open %d", syncCode(err))
	}
	wait := syncCode(s.WaitEvent(ev))
	sync := syncCode(s.SynchronizeTimeout(long))
	done, err := ev.Query()
	return fmt.Sprintf("open 0 wait=%d sync=%d done=%v/%d close=%d", wait, sync, done, syncCode(err), syncCode(ev.Close()))
}

const openedLine = "open 0 wait=0 sync=0 done=true/0 close=0"

func TestIPCEventExportThenOpenRepeated(t *testing.T) {
	rounds := 1000
	if testing.Short() {
		rounds = 100
	}
	m := newMachine()
	e := setup(t, ipcConfig(m))
	p := startSyncPeer(t, "repeat", m, "")
	for i := range rounds {
		// This process exports, the peer opens.
		ev, err := exportedEvent(e.c, e.s)
		check(t, err)
		h, err := ev.IPCHandle()
		check(t, err)
		arg := "open " + hex.EncodeToString(h[:])
		p.send(arg)
		if got := p.next(); got != openedLine {
			t.Fatalf("round %d: the peer opening this process's handle says %q, want %q", i, got, openedLine)
		}
		check(t, ev.Close())
		// Destroying the event ended the export before Close returned.
		p.send(arg)
		if got := p.next(); got != "open 107000" {
			t.Fatalf("round %d: the peer opening the handle of a destroyed event says %q, want %q", i, got, "open 107000")
		}

		// The peer exports, this process opens.
		p.send("export")
		ph, err := ipcEventHandleOf(p.expectPrefix("handle "))
		check(t, err)
		if got := openAndWait(e.c, e.s, ph); got != openedLine {
			t.Fatalf("round %d: opening the peer's handle: %q, want %q", i, got, openedLine)
		}
		p.send("close")
		p.expect("closed 0")
		_, err = e.c.OpenIPCEvent(ph)
		wantErr(t, err, gocann.CodeRTParamInvalid, "names no live export")
	}
	p.finish()
}

// As CANN's sample runs it: a producer and a consumer process start
// together, attach to the machine together, and the consumer opens what
// the producer exported. Each round's pair starts while the last round's
// is still leaving, so a new attach meets the last detach removing the
// machine's file.
func TestIPCEventExportThenOpenFreshProcesses(t *testing.T) {
	rounds := 16
	if testing.Short() {
		rounds = 4
	}
	m := newMachine()
	t.Cleanup(func() { noMachineFiles(t, m) })
	var leaving []*syncPeer
	for i := range rounds {
		producer := startSyncPeer(t, "repeat", m, "")
		consumer := startSyncPeer(t, "repeat", m, "")
		producer.send("export")
		arg := "open " + producer.expectPrefix("handle ")
		consumer.send(arg)
		if got := consumer.next(); got != openedLine {
			t.Fatalf("round %d: the consumer says %q, want %q", i, got, openedLine)
		}
		consumer.send("exit")
		producer.send("exit")
		leaving = append(leaving, consumer, producer)
	}
	for _, p := range leaving {
		rest, err := p.close()
		if err != nil || len(rest) > 0 {
			t.Errorf("peer %d: exit %v, said %q after exit; want a clean exit, nothing said", p.cmd.Process.Pid, err, rest)
		}
	}
}
