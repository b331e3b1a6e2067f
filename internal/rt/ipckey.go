package rt

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// How exports are named outside the process. CANN's driver makes the key
// strings, in a format the reference leaves open; here a key is its 32
// random bytes as 64 lowercase hexadecimal digits, and a shareable handle
// (one uint64) the first 8 bytes of a short key, little endian.

// KeyLen is the length of a key string, without its terminating NUL.
const KeyLen = 2 * 32 // hexadecimal digits of a hal.IPCKey

// KeyString is the text of key k.
func KeyString(k hal.IPCKey) string { return hex.EncodeToString(k[:]) }

// ParseKey reads a key string strictly: exactly KeyLen lowercase or
// uppercase hexadecimal digits naming a key that is not all zero.
func ParseKey(s string) (hal.IPCKey, error) {
	var k hal.IPCKey
	if len(s) != KeyLen {
		return k, rterr.Errorf(rterr.KindInvalidParam, "key %s is invalid: %d characters, expected %d hexadecimal digits from an export",
			quoteKey(s), len(s), KeyLen)
	}
	if _, err := hex.Decode(k[:], []byte(s)); err != nil {
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam, "key %s is invalid: not hexadecimal, expected %d hexadecimal digits from an export",
			quoteKey(s), KeyLen)
	}
	if k == (hal.IPCKey{}) {
		return k, rterr.Errorf(rterr.KindInvalidParam, "key %s is invalid: no export has the zero key", quoteKey(s))
	}
	return k, nil
}

// quoteKey quotes a key for a message, cut to a readable length.
func quoteKey(s string) string {
	if len(s) > 2*KeyLen {
		return fmt.Sprintf("%q...", s[:2*KeyLen])
	}
	return fmt.Sprintf("%q", s)
}

// ShortHandle is the uint64 naming a short key.
func ShortHandle(k hal.IPCKey) uint64 { return binary.LittleEndian.Uint64(k[:8]) }

// ShortKey is the key a uint64 shareable handle names.
func ShortKey(h uint64) hal.IPCKey {
	var k hal.IPCKey
	binary.LittleEndian.PutUint64(k[:8], h)
	return k
}

// FabricSize is the size of aclrtMemFabricHandle; the key is its first
// bytes, the rest zero.
const FabricSize = 128

// FabricHandle is a key as an aclrtMemFabricHandle.
func FabricHandle(k hal.IPCKey) [FabricSize]byte {
	var f [FabricSize]byte
	copy(f[:], k[:])
	return f
}

// FabricKey reads the key of an aclrtMemFabricHandle strictly.
func FabricKey(f [FabricSize]byte) (hal.IPCKey, error) {
	var k hal.IPCKey
	copy(k[:], f[:])
	if k == (hal.IPCKey{}) || [FabricSize - len(k)]byte(f[len(k):]) != [FabricSize - len(k)]byte{} {
		return hal.IPCKey{}, rterr.Errorf(rterr.KindInvalidParam,
			"shareableHandle %s... is invalid, expected an aclrtMemFabricHandle from aclrtMemExportToShareableHandleV2", hex.EncodeToString(f[:8]))
	}
	return k, nil
}

// KeyLen is two digits a byte of the key.
var _ = [1]struct{}{}[KeyLen-2*len(hal.IPCKey{})]
