package rt

import (
	"sync"

	"github.com/gocann/gocann/internal/config"
	"github.com/gocann/gocann/internal/rterr"
)

// DeviceLimit is aclrtDeviceLimit, with the CANN values.
type DeviceLimit int

const (
	LimitSIMTStackSize         DeviceLimit = 0
	LimitSIMTDvgWarpStackSize  DeviceLimit = 1
	LimitSIMDStackSize         DeviceLimit = 2
	LimitSIMDPrintfFIFOPerCore DeviceLimit = 3
	LimitSIMTPrintfFIFOSize    DeviceLimit = 4
)

// The SIMD printf buffer's default, bounds and granule, as CANN's.
const (
	DefaultPrintfFIFO = 32 << 10
	minPrintfFIFO     = 1 << 10
	maxPrintfFIFO     = 64 << 20
	printfGranule     = 8
)

// limits are the process's device limits (aclrtDeviceSetLimit), one set
// for every device.
type limits struct {
	// mu guards the fields below.
	mu         sync.Mutex
	stack      uint64 // AI core stack per core, as config.RoundStack rounds it
	printfFIFO uint64 // SIMD printf buffer per core
}

func (l *limits) reset(cfg config.Config) {
	l.mu.Lock()
	l.stack, l.printfFIFO = config.RoundStack(cfg.StackSize), DefaultPrintfFIFO
	l.mu.Unlock()
}

// checkLimit checks limit is an aclrtDeviceLimit value; supported, that
// the simulator has what it limits.
func checkLimit(limit DeviceLimit, supported bool) error {
	switch {
	case limit < LimitSIMTStackSize || limit > LimitSIMTPrintfFIFOSize:
		return rterr.Errorf(rterr.KindBadArgument, "limit %d is invalid, expected an aclrtDeviceLimit value 0..4", limit)
	case supported && limit != LimitSIMDStackSize && limit != LimitSIMDPrintfFIFOPerCore:
		return rterr.Errorf(rterr.KindNotSupported, "limit %d is a SIMT limit; the simulated chip has no SIMT units", limit)
	}
	return nil
}

// SetLimit sets a device limit of the process (aclrtDeviceSetLimit). The
// AI core stack size is rounded as aclInit's StackSize is and takes effect
// for each device when it is next set up, after every reference to it was
// reset.
func (r *Runtime) SetLimit(limit DeviceLimit, value uint64) error {
	if _, err := r.live(); err != nil {
		return err
	}
	if err := checkLimit(limit, false); err != nil {
		return err
	}
	if value > 1<<32-1 {
		return rterr.Errorf(rterr.KindBadArgument, "value %d is invalid, expected [0, UINT32_MAX]", value)
	}
	if err := checkLimit(limit, true); err != nil {
		return err
	}
	r.limits.mu.Lock()
	defer r.limits.mu.Unlock()
	switch limit {
	case LimitSIMDStackSize:
		if value > config.MaxStackSize {
			return rterr.Errorf(rterr.KindInvalidParam, "value %d is invalid for ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, expected at most %d", value, config.MaxStackSize)
		}
		r.limits.stack = config.RoundStack(value)
		r.mu.Lock()
		devices := r.devices
		r.mu.Unlock()
		for _, d := range devices {
			d.mu.Lock()
			d.stack = r.limits.stack
			d.mu.Unlock()
		}
	case LimitSIMDPrintfFIFOPerCore:
		if value < minPrintfFIFO || value > maxPrintfFIFO {
			return rterr.Errorf(rterr.KindInvalidParam, "value %d is invalid for ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, expected [%d, %d]", value, minPrintfFIFO, maxPrintfFIFO)
		}
		r.limits.printfFIFO = (value + printfGranule - 1) / printfGranule * printfGranule
	}
	return nil
}

// Limit reads a device limit of the process (aclrtDeviceGetLimit).
func (r *Runtime) Limit(limit DeviceLimit) (uint64, error) {
	if _, err := r.live(); err != nil {
		return 0, err
	}
	if err := checkLimit(limit, false); err != nil {
		return 0, err
	}
	if err := checkLimit(limit, true); err != nil {
		return 0, err
	}
	r.limits.mu.Lock()
	defer r.limits.mu.Unlock()
	if limit == LimitSIMDStackSize {
		return r.limits.stack, nil
	}
	return r.limits.printfFIFO, nil
}
