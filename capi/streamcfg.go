package main

import (
	"github.com/gocann/gocann"
)

// The attributes of aclrtSetStreamConfigOpt and the size of the value each
// takes, in the order of aclrtStreamConfigAttr (a pointer, a size_t, a
// size_t, a uint32_t on an LP64 target).
var streamConfigSizes = [...]uintptr{8, 8, 8, 4}

// checkStreamConfigOpt is aclrtSetStreamConfigOpt's check of attr and the
// size of its value. CANN's ACL layer refuses both with
// ACL_ERROR_INVALID_PARAM (100000), not the runtime's 107000.
func checkStreamConfigOpt(attr int64, size uintptr) error {
	const fn = "aclrtSetStreamConfigOpt"
	if attr < 0 || attr >= int64(len(streamConfigSizes)) {
		return gocann.Errorf(fn, gocann.KindBadArgument, "attr %d is invalid, expected an aclrtStreamConfigAttr value 0..%d", attr, len(streamConfigSizes)-1)
	}
	if want := streamConfigSizes[attr]; size != want {
		return gocann.Errorf(fn, gocann.KindBadArgument, "valueSize %d is invalid for attr %d, expected %d", size, attr, want)
	}
	return nil
}
