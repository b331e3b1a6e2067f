package config

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gocann/gocann/internal/rterr"
)

// VisibleEnv is the environment variable that selects and renumbers the
// devices a process sees.
const VisibleEnv = "ASCEND_RT_VISIBLE_DEVICES"

// VisibleDevices reads ASCEND_RT_VISIBLE_DEVICES for a driver that sees n
// devices, as CANN's runtime does: comma-separated logical ids, read up to
// the first that is not a decimal number or not below n, and at most n of
// them; they must ascend without repeats, and at least one must be read.
// The result's index is the user id. A refused list is
// ACL_ERROR_RT_NO_DEVICE.
func VisibleDevices(s string, n int) ([]int, error) {
	var ids []int
	for _, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" || strings.TrimLeft(tok, "0123456789") != "" {
			break
		}
		id, err := strconv.Atoi(tok)
		if err != nil || id >= n {
			break
		}
		if k := len(ids); k > 0 && id < ids[k-1] {
			return nil, rterr.Errorf(rterr.KindNoDevice, "%s=%q is invalid: device %d follows %d, expected ascending ids", VisibleEnv, s, id, ids[k-1])
		}
		for _, x := range ids {
			if x == id {
				return nil, rterr.Errorf(rterr.KindNoDevice, "%s=%q is invalid: device %d repeats, expected each id once", VisibleEnv, s, id)
			}
		}
		ids = append(ids, id)
		if len(ids) == n {
			break
		}
	}
	if len(ids) == 0 {
		return nil, rterr.Errorf(rterr.KindNoDevice, "%s=%q names no device, expected ids in [0, %d)", VisibleEnv, s, n)
	}
	return ids, nil
}

// MachineEnv names the simulated machine a process's devices belong to
// when its configuration names none (Simulator.Machine).
const MachineEnv = "GOCANN_MACHINE"

// NoMachine as a machine name keeps a process's devices its own.
const NoMachine = "none"

// DefaultMachine is the machine C programs join when nothing names one;
// joining it is best effort: where it cannot be joined (no usable
// /dev/shm), the devices are the process's own.
const DefaultMachine = "default"

// validMachine is the form of a machine name (sim/shared checks it too).
var validMachine = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
