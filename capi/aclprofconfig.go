package main

/*
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "thread.h"
*/
import "C"

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gocann/gocann"
)

// The configurations of aclprofCreateConfig and the settings of
// aclprofSetConfig, checked as CANN checks them (docs/choices.md).

// profDataTypes are the ACL_PROF_* bits a configuration may ask for.
const profDataTypes = C.ACL_PROF_ACL_API | C.ACL_PROF_TASK_TIME | C.ACL_PROF_AICORE_METRICS | C.ACL_PROF_AICPU |
	C.ACL_PROF_L2CACHE | C.ACL_PROF_HCCL_TRACE | C.ACL_PROF_TRAINING_TRACE | C.ACL_PROF_MSPROFTX |
	C.ACL_PROF_RUNTIME_API | C.ACL_PROF_GE_API_L0 | C.ACL_PROF_TASK_TIME_L0 | C.ACL_PROF_TASK_MEMORY |
	C.ACL_PROF_GE_API_L1 | C.ACL_PROF_TASK_TIME_L2 | C.ACL_PROF_OP_ATTR | C.ACL_PROF_TASK_TIME_L3 |
	C.ACL_PROF_API_STATS | C.ACL_PROF_AICORE_SHAPE

// profMaxDevices is the most devices a configuration lists.
const profMaxDevices = 64

// profConfig is an aclprofConfig.
type profConfig struct {
	devices  []int
	metrics  int
	dataType uint64
}

//export gocann_aclprofCreateConfig
func gocann_aclprofCreateConfig(t *C.gocann_thread, list *C.uint32_t, n C.uint32_t, metrics C.aclprofAicoreMetrics,
	events *C.aclprofAicoreEvents, dataType C.uint64_t) *C.aclprofConfig {
	const fn = "aclprofCreateConfig"
	if unsupported(t, "aclprofCreateConfig") != 0 {
		return nil
	}
	switch {
	case n != 0 && list == nil:
		nullArg(t, fn, "deviceIdList")
		return nil
	case events != nil:
		failf(t, fn, gocann.KindBadArgument, "aicoreEvents is %p, expected NULL", unsafe.Pointer(events))
		return nil
	case n > profMaxDevices:
		failf(t, fn, gocann.KindBadArgument, "deviceNums %d is invalid, expected at most %d", n, profMaxDevices)
		return nil
	case n == 0 && dataType&C.ACL_PROF_MSPROFTX == 0:
		failf(t, fn, gocann.KindBadArgument, "deviceNums is 0, expected at least one device (or ACL_PROF_MSPROFTX in dataTypeConfig)")
		return nil
	}
	c := &profConfig{metrics: int(metrics), dataType: uint64(dataType), devices: []int{}}
	count := -1
	if r := proc.runtime(); r != nil {
		if k, err := r.DeviceCount(); err == nil {
			count = k
		}
	}
	for _, d := range unsafe.Slice(list, n) {
		switch {
		case count >= 0 && int(d) >= count:
			failf(t, fn, gocann.KindBadArgument, "device id %d in deviceIdList is invalid, expected 0 to %d", d, count-1)
			return nil
		case slices.Contains(c.devices, int(d)):
			failf(t, fn, gocann.KindBadArgument, "device id %d is in deviceIdList twice, expected each device once", d)
			return nil
		}
		c.devices = append(c.devices, int(d))
	}
	h, ok := profObjs.add(kindProfConfig, c)
	if !ok {
		failf(t, fn, gocann.KindInternal, "too many profiling configurations created")
		return nil
	}
	return (*C.aclprofConfig)(C.gocann_handle(C.uintptr_t(h)))
}

//export gocann_aclprofDestroyConfig
func gocann_aclprofDestroyConfig(t *C.gocann_thread, cfg *C.aclprofConfig) C.aclError {
	const fn = "aclprofDestroyConfig"
	if code := unsupported(t, "aclprofDestroyConfig"); code != 0 {
		return code
	}
	if _, ok := profObjs.remove(handleOf(unsafe.Pointer(cfg)), kindProfConfig); !ok {
		return fail(t, fn, profObjError(fn, "profilerConfig", unsafe.Pointer(cfg), kindProfConfig))
	}
	return 0
}

// checkStart checks what aclprofStart checks of c on runtime r: its
// devices exist and the chip collects its AI core metric.
func (c *profConfig) checkStart(fn string, r *gocann.Runtime) error {
	if r == nil {
		return gocann.Errorf(fn, gocann.KindUninitialized, "aclInit has not been called (or aclFinalize already was)")
	}
	n, err := r.DeviceCount()
	if err != nil {
		return err
	}
	for _, d := range c.devices {
		if d >= n {
			return gocann.Errorf(fn, gocann.KindBadArgument, "device id %d of the configuration is invalid, expected 0 to %d", d, n-1)
		}
	}
	if c.dataType&C.ACL_PROF_AICORE_METRICS == 0 || c.metrics == C.ACL_AICORE_NONE {
		return nil
	}
	if c.metrics < 0 || c.metrics > C.ACL_AICORE_MEMORY_ACCESS {
		return gocann.Errorf(fn, gocann.KindBadArgument, "aicoreMetrics %d is invalid, expected 0 to %d or ACL_AICORE_NONE", c.metrics, C.ACL_AICORE_MEMORY_ACCESS)
	}
	if soc := socName(); !gocann.AICoreMetricOffered(soc, c.metrics) {
		return gocann.Errorf(fn, gocann.KindBadArgument, "aicoreMetrics %d is not collected on %s", c.metrics, soc)
	}
	return nil
}

// profileConfig is the session c asks for, written under dir.
func (c *profConfig) profileConfig(dir string) gocann.ProfileConfig {
	const tasks = C.ACL_PROF_TASK_TIME | C.ACL_PROF_TASK_TIME_L0 | C.ACL_PROF_TASK_TIME_L2 | C.ACL_PROF_TASK_TIME_L3 |
		C.ACL_PROF_AICPU | C.ACL_PROF_TRAINING_TRACE
	dt := c.dataType
	if dt&C.ACL_PROF_API_STATS != 0 {
		dt = C.ACL_PROF_ACL_API // the API statistics only: the other bits count for nothing
	}
	return gocann.ProfileConfig{Dir: dir, CANNLayout: true, Devices: slices.Clone(c.devices),
		NoTasks: dt&tasks == 0, NoAPI: dt&(C.ACL_PROF_ACL_API|C.ACL_PROF_RUNTIME_API) == 0, NoMarks: dt&C.ACL_PROF_MSPROFTX == 0}
}

//export gocann_aclprofSetConfig
func gocann_aclprofSetConfig(t *C.gocann_thread, typ C.aclprofConfigType, config *C.char, length C.size_t) C.aclError {
	const fn = "aclprofSetConfig"
	if code := unsupported(t, "aclprofSetConfig"); code != 0 {
		return code
	}
	switch {
	case typ <= C.ACL_PROF_ARGS_MIN || typ >= C.ACL_PROF_ARGS_MAX:
		return failf(t, fn, gocann.KindBadArgument, "configType %d is invalid, expected %d to %d", typ, C.ACL_PROF_ARGS_MIN+1, C.ACL_PROF_ARGS_MAX-1)
	case length > 256:
		return failf(t, fn, gocann.KindBadArgument, "configLength %d is invalid, expected at most 256", length)
	case config == nil:
		return nullArg(t, fn, "config")
	}
	if n := C.strnlen(config, length+1); n != length {
		return failf(t, fn, gocann.KindBadArgument, "configLength %d is not the length of config (%d bytes), expected equal", length, n)
	}
	v := C.GoStringN(config, C.int(length))
	if err := checkSetting(fn, int(typ), v); err != nil {
		return fail(t, fn, err)
	}
	if typ == C.ACL_PROF_PATH {
		abs, err := filepath.Abs(v)
		if err != nil {
			return failf(t, fn, gocann.KindInvalidFile, "ACL_PROF_PATH %q cannot be made absolute: %v", v, err)
		}
		v = abs
	}
	profAPI.mu.Lock()
	defer profAPI.mu.Unlock()
	if profAPI.settings == nil {
		profAPI.settings = map[C.aclprofConfigType]string{}
	}
	profAPI.settings[typ] = v
	return 0
}

// freqs are the settings that are a frequency in Hz, with their highest.
var freqs = map[int]int{C.ACL_PROF_SYS_HARDWARE_MEM_FREQ: 100, C.ACL_PROF_SYS_IO_FREQ: 100, C.ACL_PROF_SYS_INTERCONNECTION_FREQ: 50,
	C.ACL_PROF_DVPP_FREQ: 100, C.ACL_PROF_HOST_SYS_USAGE_FREQ: 50, C.ACL_PROF_LOW_POWER_FREQ: 100, C.ACL_PROF_SYS_CPU_FREQ: 50}

// checkSetting checks value v of setting typ as CANN's parameter checks
// do; a refused value is ACL_ERROR_INVALID_PROFILING_CONFIG, but for
// ACL_PROF_NTS_METRICS's ACL_ERROR_INVALID_PARAM.
func checkSetting(fn string, typ int, v string) error {
	bad := func(want string) error {
		k := gocann.KindInvalidProfilingConfig
		if typ == C.ACL_PROF_NTS_METRICS {
			k = gocann.KindBadArgument
		}
		return gocann.Errorf(fn, k, "config %q of configType %d is invalid, expected %s", v, typ, want)
	}
	if soc := socName(); !gocann.ProfConfigOffered(soc, typ) {
		return bad("a configType " + soc + " offers")
	}
	if hi, ok := freqs[typ]; ok {
		if f, err := strconv.Atoi(v); err != nil || f < 1 || f > hi || strings.TrimLeft(v, "0123456789") != "" {
			return bad("a frequency from 1 to " + strconv.Itoa(hi))
		}
		return nil
	}
	switch typ {
	case C.ACL_PROF_STORAGE_LIMIT:
		n, err := strconv.ParseUint(strings.TrimSuffix(v, "MB"), 10, 64)
		if !strings.HasSuffix(v, "MB") || err != nil || n < 200 || n > 1<<32-1 {
			return bad("200MB to 4294967295MB")
		}
	case C.ACL_PROF_LLC_MODE:
		if v != "read" && v != "write" {
			return bad(`"read" or "write"`)
		}
	case C.ACL_PROF_HOST_SYS, C.ACL_PROF_HOST_SYS_USAGE:
		for _, s := range strings.Split(v, ",") {
			if s != "cpu" && s != "mem" {
				return bad(`"cpu", "mem" or "cpu,mem"`)
			}
		}
	case C.ACL_PROF_NTS_METRICS:
		if v != "PipeUtilization" {
			return bad(`"PipeUtilization"`)
		}
	case C.ACL_PROF_SYS_MEM_SERVICEFLOW, C.ACL_PROF_PATH:
		if v == "" {
			return bad("a value")
		}
	default:
		return bad("a configType of aclprofConfigType")
	}
	return nil
}
