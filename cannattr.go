package gocann

import "github.com/gocann/gocann/internal/rterr"

// CannAttr is aclCannAttr, a feature of the CANN software and the chip it
// runs on, with the CANN values.
type CannAttr int32

const (
	CannAttrUndefined  CannAttr = -1 // ACL_CANN_ATTR_UNDEFINED
	CannAttrInfNaN     CannAttr = 0  // ACL_CANN_ATTR_INF_NAN: Inf/NaN overflow detection mode
	CannAttrBF16       CannAttr = 1  // ACL_CANN_ATTR_BF16: the bfloat16 data type
	CannAttrJITCompile CannAttr = 2  // ACL_CANN_ATTR_JIT_COMPILE: operator binaries compiled at run time
)

// CannAttributes returns the features available, none in gocann: CANN
// takes INF_NAN and BF16 from the chip's platform information, which the
// simulated chips do not carry, and JIT_COMPILE needs an operator compiler,
// which gocann has not. The list is empty, never nil.
//
// CANN: aclGetCannAttributeList.
func CannAttributes() []CannAttr { return []CannAttr{} }

// CannAttribute reports whether feature a is available (see
// CannAttributes); a is one of the features CANN names.
//
// CANN: aclGetCannAttribute.
func CannAttribute(a CannAttr) (bool, error) {
	if a < CannAttrInfNaN || a > CannAttrJITCompile {
		return false, wrap("CannAttribute (aclGetCannAttribute)", rterr.Errorf(rterr.KindBadArgument,
			"cannAttr %d is invalid, expected ACL_CANN_ATTR_INF_NAN (0), ACL_CANN_ATTR_BF16 (1) or ACL_CANN_ATTR_JIT_COMPILE (2)", a))
	}
	for _, x := range CannAttributes() {
		if x == a {
			return true, nil
		}
	}
	return false, nil
}
