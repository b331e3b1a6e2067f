package rterr

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gocann/gocann/hal"
)

// TestDeviceKindsKeepTheirValues: a backend's kind read through Kind is
// the same kind, by value and by name.
func TestDeviceKindsKeepTheirValues(t *testing.T) {
	for k := range hal.Kind(hal.NumKinds) {
		if got, want := Kind(k).String(), k.String(); got != want {
			t.Errorf("Kind(%d) is %q, hal.Kind(%d) %q", k, got, k, want)
		}
	}
	for _, tc := range []struct {
		k Kind
		h hal.Kind
	}{{KindInternal, hal.KindInternal}, {KindInvalidParam, hal.KindInvalidParam}, {KindStreamAborted, hal.KindStreamAborted}} {
		err := fmt.Errorf("queue: %w", hal.Errorf(tc.h, "from the backend"))
		if got := KindOf(err); got != tc.k {
			t.Errorf("KindOf(backend %v error) = %v, want %v", tc.h, got, tc.k)
		}
	}
}

// TestKindsAreNamed: every kind has a name of its own, so a message never
// shows a number.
func TestKindsAreNamed(t *testing.T) {
	seen := map[string]Kind{}
	for k := range Kind(NumKinds) {
		name := k.String()
		if strings.HasPrefix(name, "Kind(") {
			t.Errorf("kind %d has no name", k)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("kinds %d and %d are both %q", other, k, name)
		}
		seen[name] = k
	}
	if KindUninitialized != Kind(hal.NumKinds) {
		t.Errorf("the runtime kinds start at %d, want right after hal's %d", KindUninitialized, hal.NumKinds)
	}
}

// TestClassifyOutermost: an *Error wrapping a backend error is classified
// by its own kind; a foreign error is not classified.
func TestClassifyOutermost(t *testing.T) {
	inner := hal.Errorf(hal.KindStreamSyncTimeout, "not done")
	k, msg, cause, ok := Classify(fmt.Errorf("ctx: %w", Wrap(KindEventSyncTimeout, inner, "event")))
	if !ok || k != KindEventSyncTimeout || msg != "event" || !errors.Is(cause, inner) {
		t.Errorf("Classify = %v, %q, %v, %v; want the outer event timeout wrapping the backend's", k, msg, cause, ok)
	}
	if k, _, _, ok := Classify(errors.New("other")); ok || k != KindInternal {
		t.Errorf("Classify(foreign) = %v, %v; want internal, not ok", k, ok)
	}
}
