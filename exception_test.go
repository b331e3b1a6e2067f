package gocann_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// A panicking exception callback is contained: the fault is still reported
// at the next synchronizing call and the runtime keeps working.
func TestExceptionCallbackPanicContained(t *testing.T) {
	e := setup(t)
	calls := make(chan gocann.ExceptionInfo, 4)
	e.r.SetExceptionCallback(func(info gocann.ExceptionInfo) {
		calls <- info
		panic("callback bug")
	})
	boom, err := e.r.RegisterKernel("boom-contained", func(*gocann.Block) { panic(errors.New("kernel cause")) })
	check(t, err)
	s := e.newStream(t)
	check(t, s.Launch(boom, 1))
	err = s.Synchronize(t.Context())
	wantErr(t, err, gocann.CodeRTAICoreException, "boom-contained")
	// The cause is reported once, as the error's cause, not repeated in
	// the message.
	if n := strings.Count(err.Error(), "kernel cause"); n != 1 {
		t.Errorf("cause appears %d times in %q", n, err)
	}
	if info := <-calls; info.Code != gocann.CodeRTAICoreException || info.Kernel != "boom-contained" {
		t.Errorf("callback saw %+v", info)
	}
	check(t, s.Launch(boom, 1))
	wantErr(t, s.Synchronize(t.Context()), gocann.CodeRTAICoreException)
	<-calls
}
