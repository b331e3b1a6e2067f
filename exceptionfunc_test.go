package gocann_test

import (
	"context"
	"sync"
	"testing"

	"github.com/gocann/gocann"
)

// An exception report names the kernel that faulted, as the handle the
// launch used, so a binary's own callback can be found; other tasks name
// none.
func TestExceptionInfoFunc(t *testing.T) {
	e := setup(t)
	var mu sync.Mutex
	var got []gocann.ExceptionInfo
	e.r.AddExceptionCallback(func(i gocann.ExceptionInfo) {
		mu.Lock()
		got = append(got, i)
		mu.Unlock()
	})
	boom, err := e.r.RegisterKernel("exc_func_boom", func(b *gocann.Block) { b.Trap("boom") })
	check(t, err)
	check(t, e.s.Launch(boom, 1))
	if err := e.s.Synchronize(context.Background()); err == nil {
		t.Fatal("a trapping kernel's stream synchronized cleanly")
	}
	check(t, e.s.LaunchHostFunc(func() { panic("host boom") }))
	if err := e.s.Synchronize(context.Background()); err == nil {
		t.Fatal("a panicking host function's stream synchronized cleanly")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0].Func != boom || got[0].Kernel != "exc_func_boom" || got[1].Func != nil {
		t.Fatalf("exception reports %+v, want the kernel's with Func = the kernel, then the host function's with none", got)
	}
}
