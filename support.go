package gocann

import (
	"github.com/gocann/gocann/internal/config"
	"github.com/gocann/gocann/internal/support"
	"github.com/gocann/gocann/sim"
)

// require is the product support check every function the reference marks
// unsupported on some product calls first:
//
//	if err := s.r.require("aclrtActiveStream"); err != nil {
//		return err
//	}
//
// It returns nil if the chip of the runtime's devices offers CANN function
// fn (internal/support's matrix, from the API reference), and otherwise
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT with a message naming fn and the chip,
// as that chip answers. A runtime not initialized passes: the function
// itself reports that. TestRequireCalled keeps every exported function
// some modelled chip lacks calling it.
func (r *Runtime) require(fn string) error {
	if r.offersCached(fn) {
		return nil
	}
	d, err := r.rt.Device(0)
	if err != nil {
		return nil
	}
	return CheckSupport(d.Props().SoCName, fn)
}

// offers reports whether require(fn) passes for every fn of fns, without
// making the error.
func (r *Runtime) offers(fns ...string) bool {
	c := r.chip.Load()
	if c == 0 {
		d, err := r.rt.Device(0)
		if err != nil {
			return true
		}
		c = -1
		if p, ok := support.ProductOf(d.Props().SoCName); ok {
			c = int32(p) + 1
		}
		r.chip.Store(c)
	}
	if c < 0 {
		return true
	}
	for _, fn := range fns {
		if ok, _ := support.Supported(fn, support.Product(c-1)); !ok {
			return false
		}
	}
	return true
}

// CheckSupport returns nil if the chip named soc offers CANN function fn,
// and otherwise ACL_ERROR_RT_FEATURE_NOT_SUPPORT with a message naming fn
// and the chip. A chip of no known product offers everything. The C ABI
// calls it for the functions it implements without a Go method.
//
// CANN: none (the API reference's product support).
func CheckSupport(soc, fn string) error {
	return wrap(fn, support.Check(fn, soc))
}

// LoadConfig reads the JSON configuration file at path as aclInit does (""
// gives DefaultConfig), with what aclInit takes from the environment
// (ASCEND_RT_VISIBLE_DEVICES), for InitConfig.
//
// CANN: aclInit (configuration file).
func LoadConfig(path string) (Config, error) {
	c, err := config.Load(path)
	if err != nil {
		return c, wrap("LoadConfig (aclInit)", err)
	}
	return withEnv(c), nil
}

// DefaultSoCName is the SoC name of the chip the simulator models for a
// configuration whose soc_name is soc: soc itself if the simulator models
// it, and otherwise (an empty or unknown name) the default chip's.
//
// CANN: aclrtGetSocName (before aclInit).
func DefaultSoCName(soc string) string {
	p, err := sim.ProfileFor(soc)
	if err != nil {
		p = sim.DefaultProfile()
	}
	return p.SoCName
}

// AICoreMetricOffered reports whether the chip named soc collects AI core
// metric m, an aclprofAicoreMetrics value from 0 to 8, as the API
// reference's products do.
//
// CANN: none (the API reference's product support of aclprofAicoreMetrics).
func AICoreMetricOffered(soc string, m int) bool { return support.MetricOffered(soc, m) }

// ProfConfigOffered reports whether the chip named soc takes
// aclprofSetConfig setting typ, an aclprofConfigType value.
//
// CANN: none (the API reference's product support of aclprofConfigType).
func ProfConfigOffered(soc string, typ int) bool { return support.ConfigOffered(soc, typ) }
