package main

/*
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

// gocann_sub_write writes at most n bytes at p to fd once fd can take them
// within timeout_ms: the bytes written, 0 on a timeout, or -errno. A
// reader that went away is EPIPE, never the SIGPIPE that would end the
// process: the signal is blocked for the write and taken if raised.
static ssize_t gocann_sub_write(int fd, const void *p, size_t n, int timeout_ms) {
	struct pollfd pfd = {fd, POLLOUT, 0};
	int r = poll(&pfd, 1, timeout_ms);
	if (r == 0 || (r < 0 && errno == EINTR)) {
		return 0;
	}
	if (r < 0) {
		return -errno;
	}
	if (pfd.revents & POLLNVAL) {
		return -EBADF;
	}
	sigset_t pipe, old;
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, &old);
	ssize_t w = write(fd, p, n);
	int e = errno;
	if (w < 0 && e == EPIPE) {
		struct timespec zero = {0, 0};
		sigtimedwait(&pipe, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (w < 0) {
		return e == EINTR || e == EAGAIN ? 0 : -e;
	}
	return w;
}

// gocann_fd_writable reports whether fd is open for writing: 1, 0 if it
// is open read-only, -1 if it is not open.
static int gocann_fd_writable(int fd) {
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0) {
		return -1;
	}
	return (fl & O_ACCMODE) != O_RDONLY;
}
*/
import "C"

import (
	"sync"
	"time"
	"unsafe"
)

// opWriter writes a subscription's records to its file descriptor, the
// write end of a pipe, from a goroutine of its own, so that a slow reader
// holds up neither the runtime's collector nor other subscriptions. Each
// write is whole records and at most a pipe's atomic size, so a reader
// reading a multiple of the record size gets whole records. Its
// subscriptions done, it writes what is queued and closes the descriptor.
type opWriter struct {
	fd int

	// mu guards the fields below.
	mu      sync.Mutex
	wake    *sync.Cond
	queue   []byte // encoded records not yet written
	refs    int    // subscriptions writing here
	closing bool
	gone    bool // the descriptor was closed under the writer: not closed again
	dropped int  // records dropped: the queue full, or the reader gone
	done    chan struct{}
}

const (
	// maxQueued bounds the records a writer holds, CANN's subscription
	// uploader capacity.
	maxQueued = 200000
	// writeChunk is the most bytes one write takes: whole records within
	// PIPE_BUF.
	writeChunk = 4096 / opDescSize * opDescSize
	// flushTimeout is how long a closing writer waits for a reader that
	// takes nothing before it drops the rest.
	flushTimeout = 2 * time.Second
)

// fdWritable reports whether fd is open for writing: 1, 0 if it is open
// read-only, -1 if it is not open.
func fdWritable(fd int) int { return int(C.gocann_fd_writable(C.int(fd))) }

func newOpWriter(fd int) *opWriter {
	w := &opWriter{fd: fd, refs: 1, done: make(chan struct{})}
	w.wake = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// add queues records.
func (w *opWriter) add(recs []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		return
	}
	if room := maxQueued*opDescSize - len(w.queue); len(recs) > room {
		w.dropped += (len(recs) - room) / opDescSize
		recs = recs[:room]
	}
	w.queue = append(w.queue, recs...)
	w.wake.Signal()
}

// retain adds a subscription's use.
func (w *opWriter) retain() {
	w.mu.Lock()
	w.refs++
	w.mu.Unlock()
}

// lastRef reports whether one use is left.
func (w *opWriter) lastRef() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.refs == 1
}

// abandon undoes a use for a subscription that was refused; the last use
// gone, the writer ends without closing the descriptor, which stays the
// caller's. It reports whether it was the last.
func (w *opWriter) abandon() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.refs--
	if w.refs > 0 {
		return false
	}
	w.closing, w.gone = true, true
	w.wake.Signal()
	return true
}

// release ends one subscription's use; the last one has the writer write
// what is queued and close the descriptor, and waits for it.
func (w *opWriter) release() {
	w.mu.Lock()
	w.refs--
	last := w.refs == 0
	if last {
		w.closing = true
		w.wake.Signal()
	}
	w.mu.Unlock()
	if last {
		<-w.done
	}
}

func (w *opWriter) run() {
	defer close(w.done)
	defer func() {
		if !w.gone {
			C.close(C.int(w.fd))
		}
	}()
	idle := time.Time{} // since when a closing writer made no progress
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && !w.closing {
			w.wake.Wait()
		}
		if len(w.queue) == 0 {
			w.mu.Unlock()
			return
		}
		n := min(len(w.queue), writeChunk)
		chunk := append([]byte(nil), w.queue[:n]...)
		closing := w.closing
		w.mu.Unlock()
		r := C.gocann_sub_write(C.int(w.fd), unsafe.Pointer(&chunk[0]), C.size_t(n), 100)
		w.mu.Lock()
		switch {
		case r > 0:
			w.queue = w.queue[int(r):]
			idle = time.Time{}
		case r < 0:
			w.dropped += len(w.queue) / opDescSize // the reader is gone
			w.queue, w.closing, w.gone = nil, true, r == -C.EBADF
		case closing && idle.IsZero():
			idle = time.Now()
		case closing && time.Since(idle) > flushTimeout:
			w.dropped += len(w.queue) / opDescSize
			w.queue = nil
		}
		w.mu.Unlock()
	}
}
