package gocann

import (
	"testing"

	"github.com/gocann/gocann/internal/rterr"
)

// TestEveryKindHasItsCode: codeFor gives each kind, a backend's included,
// a code of its own; only the kinds that are internal failures share
// ACL_ERROR_RT_INTERNAL_ERROR, which is also what an unmapped kind falls
// back to.
func TestEveryKindHasItsCode(t *testing.T) {
	internal := map[rterr.Kind]bool{rterr.KindInternal: true, rterr.KindHostFuncFault: true, rterr.KindNotReady: true}
	for k := range rterr.Kind(rterr.NumKinds) {
		c := codeFor(k)
		if c.Name() == "ACL_ERROR_UNKNOWN" {
			t.Errorf("kind %v maps to %d, which has no CANN name", k, c)
		}
		if (c == CodeRTInternalError) != internal[k] {
			t.Errorf("kind %v maps to %v", k, c)
		}
	}
}

// TestErrorfMapsKinds: an error the C ABI builds from a kind carries the
// kind's code and matches the kind's class.
func TestErrorfMapsKinds(t *testing.T) {
	err := Errorf("aclrtCreateStream", KindBadArgument, "stream is NULL")
	e, ok := err.(*Error)
	if !ok || e.Code != CodeInvalidParam || e.Op != "aclrtCreateStream" || e.Msg != "stream is NULL" || !e.Is(ErrInvalid) {
		t.Errorf("Errorf(KindBadArgument) = %#v, want code 100000 in class ErrInvalid", err)
	}
	if c := CodeOf(Errorf("aclrtGetDevice", KindContextNull, "")); c != CodeRTContextNull {
		t.Errorf("Errorf(KindContextNull) has code %v, want %v", c, CodeRTContextNull)
	}
}
