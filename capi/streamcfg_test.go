package main

import (
	"strings"
	"testing"

	"github.com/gocann/gocann"
)

// CANN's aclrtSetStreamConfigOpt returns ACL_ERROR_INVALID_PARAM for a
// value of the wrong size and for an attribute out of range.
func TestStreamConfigOptRefusals(t *testing.T) {
	for _, c := range []struct {
		attr int64
		size uintptr
		want gocann.Code
		msg  string
	}{
		{0, 8, 0, ""},
		{3, 4, 0, ""},
		{3, 8, 100000, "valueSize 8 is invalid for attr 3, expected 4"},
		{1, 4, 100000, "valueSize 4 is invalid for attr 1, expected 8"},
		{2, 0, 100000, "valueSize 0"},
		{4, 4, 100000, "attr 4 is invalid"},
		{-1, 4, 100000, "attr -1 is invalid"},
	} {
		err := checkStreamConfigOpt(c.attr, c.size)
		if got := gocann.CodeOf(err); got != c.want {
			t.Errorf("checkStreamConfigOpt(%d, %d) = code %d (%v), want %d", c.attr, c.size, got, err, c.want)
			continue
		}
		if c.msg != "" && !strings.Contains(err.Error(), c.msg) {
			t.Errorf("checkStreamConfigOpt(%d, %d): %q does not say %q", c.attr, c.size, err, c.msg)
		}
	}
}
