package main

import (
	"os"
	"strconv"

	"github.com/gocann/gocann"
)

// The environment of programs that cannot configure the simulator in an
// aclInit file, as CANN's own samples call aclInit(NULL).
const (
	// machineEnv names the simulated machine (simulator.machine): every
	// process naming the same machine shares its devices. Unset, a C
	// program joins the machine "default", as processes on one host share
	// its NPUs; "none" keeps the devices the process's own.
	machineEnv = "GOCANN_MACHINE"
	// devicesEnv is the device count (simulator.devices) when the
	// configuration gives none.
	devicesEnv = "GOCANN_DEVICE_COUNT"
)

// machineFromEnv fills the machine and device count c leaves unset from
// the environment.
func machineFromEnv(c *gocann.Config) error {
	if c.Simulator.Machine == "" {
		c.Simulator.Machine = os.Getenv(machineEnv)
		if c.Simulator.Machine == "" {
			c.Simulator.Machine = gocann.DefaultMachine
		}
	}
	if v := os.Getenv(devicesEnv); v != "" && c.Simulator.Devices == 0 {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 64 {
			return gocann.Errorf("aclInit", gocann.KindFileAttrInvalid, "%s=%q is invalid, expected a device count 1..64", devicesEnv, v)
		}
		c.Simulator.Devices = n
	}
	return nil
}
