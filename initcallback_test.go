package gocann_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/gocann/gocann"
)

// TestInitCallbacksOrder: Init calls the model, op executor (a
// configuration given), DVPP and other callbacks in that order with the
// configuration text; Finalize calls op compiler, model, DVPP and other;
// types neither calls are kept but never called.
func TestInitCallbacksOrder(t *testing.T) {
	r := gocann.New()
	defer r.Close()
	var got []string
	initCB := func(name string) gocann.InitCallback {
		return func(cfg string) error { got = append(got, name+":"+cfg); return nil }
	}
	finCB := func(name string) gocann.FinalizeCallback {
		return func() error { got = append(got, name); return nil }
	}
	for i, typ := range []gocann.RegisterType{gocann.RegOther, gocann.RegDVPP, gocann.RegOpCBLAS,
		gocann.RegOpExecutor, gocann.RegModel, gocann.RegOpCompiler, gocann.RegRetr} {
		check(t, r.RegisterInitCallback(typ, uintptr(100+i), initCB("init"+strconv.Itoa(int(typ)))))
		check(t, r.RegisterFinalizeCallback(typ, uintptr(100+i), finCB("fin"+strconv.Itoa(int(typ)))))
	}
	check(t, r.RegisterInitCallback(gocann.RegOther, 99, initCB("other2")))
	const cfg = `{"err_msg_mode": "0"}`
	check(t, r.InitConfig(mustParse(t, cfg)))
	want := []string{"init0:" + cfg, "init1:" + cfg, "init6:" + cfg, "init65535:" + cfg, "other2:" + cfg}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("init callbacks: %q, want %q", got, want)
	}
	got = nil
	check(t, r.Finalize())
	if want := []string{"fin3", "fin0", "fin6", "fin65535"}; !reflect.DeepEqual(got, want) {
		t.Errorf("finalize callbacks: %q, want %q", got, want)
	}
	// Without a configuration the op executor is not called.
	got = nil
	check(t, r.Init(""))
	if want := []string{"init0:", "init6:", "init65535:", "other2:"}; !reflect.DeepEqual(got, want) {
		t.Errorf("init callbacks of Init(\"\"): %q, want %q", got, want)
	}
	// Registered while initialized: called at once, its error ignored.
	check(t, r.UnregisterInitCallback(gocann.RegModel, 104))
	got = nil
	check(t, r.RegisterInitCallback(gocann.RegModel, 7, func(cfg string) error {
		got = append(got, "late:"+cfg)
		return gocann.CodeFailure
	}))
	if want := []string{"late:"}; !reflect.DeepEqual(got, want) {
		t.Errorf("registration after Init: %q, want %q", got, want)
	}
}

// TestInitCallbacksRefused: nil callbacks, duplicates of a type other
// than OTHER and unregistering what is not registered are refused with
// CANN's codes; OTHER takes the same callback twice.
func TestInitCallbacksRefused(t *testing.T) {
	r := gocann.New()
	defer r.Close()
	nop := func(string) error { return nil }
	fin := func() error { return nil }
	wantErr(t, r.RegisterInitCallback(gocann.RegModel, 1, nil), gocann.CodeInvalidParam, "cbFunc is NULL")
	wantErr(t, r.RegisterInitCallback(gocann.RegModel, 0, nop), gocann.CodeInvalidParam, "cbFunc is NULL")
	wantErr(t, r.RegisterFinalizeCallback(gocann.RegModel, 1, nil), gocann.CodeInvalidParam, "cbFunc is NULL")
	check(t, r.RegisterInitCallback(gocann.RegModel, 1, nop))
	wantErr(t, r.RegisterInitCallback(gocann.RegModel, 2, nop), gocann.CodeInternalError, "type 0 is already registered")
	check(t, r.RegisterFinalizeCallback(gocann.RegDVPP, 1, fin))
	wantErr(t, r.RegisterFinalizeCallback(gocann.RegDVPP, 1, fin), gocann.CodeInternalError, "type 6 is already registered")
	check(t, r.RegisterInitCallback(gocann.RegOther, 1, nop))
	check(t, r.RegisterInitCallback(gocann.RegOther, 1, nop))
	wantErr(t, r.UnregisterInitCallback(gocann.RegModel, 2), gocann.CodeInternalError, "0x2 is not registered with type 0")
	wantErr(t, r.UnregisterInitCallback(gocann.RegDVPP, 1), gocann.CodeInternalError, "type 6")
	wantErr(t, r.UnregisterInitCallback(gocann.RegModel, 0), gocann.CodeInvalidParam, "cbFunc is NULL")
	wantErr(t, r.UnregisterFinalizeCallback(gocann.RegModel, 1), gocann.CodeInternalError, "not registered")
	check(t, r.UnregisterInitCallback(gocann.RegOther, 1))
	check(t, r.UnregisterInitCallback(gocann.RegOther, 1))
	wantErr(t, r.UnregisterInitCallback(gocann.RegOther, 1), gocann.CodeInternalError, "not registered")
	check(t, r.UnregisterInitCallback(gocann.RegModel, 1))
	check(t, r.UnregisterFinalizeCallback(gocann.RegDVPP, 1))
	check(t, r.RegisterInitCallback(gocann.RegModel, 2, nop))
}

// TestInitCallbackFails: a failing init callback fails Init with its code
// and leaves the runtime uninitialized, later callbacks not called; a
// failing finalize callback fails Finalize and leaves it initialized.
func TestInitCallbackFails(t *testing.T) {
	r := gocann.New()
	defer r.Close()
	var calls []string
	check(t, r.RegisterInitCallback(gocann.RegModel, 1, func(string) error { calls = append(calls, "model"); return gocann.CodeFailure }))
	check(t, r.RegisterInitCallback(gocann.RegOther, 1, func(string) error { calls = append(calls, "other"); return nil }))
	check(t, r.RegisterFinalizeCallback(gocann.RegModel, 1, func() error { return errors.New("busy") }))
	err := r.Init("")
	if gocann.CodeOf(err) != gocann.CodeFailure {
		t.Fatalf("Init with a failing callback: %v, want %v", err, gocann.CodeFailure)
	}
	if _, err := r.DeviceCount(); gocann.CodeOf(err) != gocann.CodeUninitialize {
		t.Errorf("runtime after a failed Init: %v, want uninitialized", err)
	}
	if !reflect.DeepEqual(calls, []string{"model"}) {
		t.Errorf("callbacks called: %q, want only the failing one", calls)
	}
	check(t, r.UnregisterInitCallback(gocann.RegModel, 1))
	check(t, r.Init(""))
	err = r.Finalize()
	wantErr(t, err, gocann.CodeInternalError, "busy")
	if _, err := r.DeviceCount(); err != nil {
		t.Errorf("runtime after a failed Finalize: %v, want it initialized", err)
	}
	check(t, r.UnregisterFinalizeCallback(gocann.RegModel, 1))
	check(t, r.Finalize())
}

func mustParse(t *testing.T, cfg string) gocann.Config {
	t.Helper()
	c, err := gocann.ParseConfig([]byte(cfg))
	check(t, err)
	return c
}

// TestCloseWithFailingFinalizeCallback: Close reports the callback's
// error and ends the runtime all the same.
func TestCloseWithFailingFinalizeCallback(t *testing.T) {
	r := gocann.New()
	check(t, r.RegisterFinalizeCallback(gocann.RegOther, 1, func() error { return gocann.CodeFailure }))
	check(t, r.Init(""))
	if err := r.Close(); gocann.CodeOf(err) != gocann.CodeFailure {
		t.Fatalf("Close = %v, want the callback's %v", err, gocann.CodeFailure)
	}
	wantErr(t, r.Init(""), gocann.CodeRTInvalidHandle, "closed for good")
}
