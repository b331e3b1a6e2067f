package config

import (
	"encoding/json"
	"os"
	"slices"
	"strings"

	"github.com/gocann/gocann/internal/rterr"
)

// Profiler is a profiling configuration: the aclInit JSON's "profiler"
// section, CANN's PROFILING_MODE/PROFILING_OPTIONS, or the seed's
// ASCEND_PROFILING_ENABLED/ASCEND_PROFILING_OUTPUT_PATH.
type Profiler struct {
	Output string
	// Seed writes the seed's layout (one JSON file in Output) rather than
	// CANN's PROF_* directory.
	Seed                     bool
	TaskTime, RuntimeAPI, TX bool
	AICMetrics               string // accepted; the simulated cores count no events
	From                     string // where it came from, for messages
}

// switches are the profiler keys that take "on" or "off"; task_time also
// takes CANN's levels.
var (
	switches   = []string{"switch", "acl_api", "runtime_api", "msproftx", "aicpu", "l2", "hccl", "training_trace", "task_trace", "ge_api", "task_memory", "host_sys"}
	aicMetrics = []string{"ArithmeticUtilization", "PipeUtilization", "Memory", "MemoryL0", "MemoryUB", "ResourceConflictRatio", "L2Cache", "PipelineExecuteUtilization", "MemoryAccess"}
)

// ParseProfiler reads a profiler section (as the aclInit file has it, or
// PROFILING_OPTIONS's JSON); nil, nil when it does not turn profiling on.
// Every value is a string, as CANN reads them; unknown keys are ignored.
func ParseProfiler(raw json.RawMessage, from string, needSwitch bool) (*Profiler, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, rterr.Wrap(rterr.KindInvalidProfilingConfig, err, "%s is not a JSON object", from)
	}
	vals := map[string]string{}
	for k, v := range m {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, rterr.Errorf(rterr.KindInvalidProfilingConfig, "value %s of %s.%s is invalid, expected a string", v, from, k)
		}
		vals[k] = s
	}
	for _, k := range switches {
		if v, ok := vals[k]; ok && v != "on" && v != "off" {
			return nil, rterr.Errorf(rterr.KindInvalidProfilingConfig, "value %q of %s.%s is invalid, expected \"on\" or \"off\"", v, from, k)
		}
	}
	if v, ok := vals["task_time"]; ok && !slices.Contains([]string{"on", "off", "l0", "l1"}, v) {
		return nil, rterr.Errorf(rterr.KindInvalidProfilingConfig, "value %q of %s.task_time is invalid, expected \"on\", \"off\", \"l0\" or \"l1\"", v, from)
	}
	if v, ok := vals["aic_metrics"]; ok && v != "" && !slices.Contains(aicMetrics, v) {
		return nil, rterr.Errorf(rterr.KindInvalidProfilingConfig, "value %q of %s.aic_metrics is invalid, expected one of %s", v, from, strings.Join(aicMetrics, ", "))
	}
	if needSwitch && vals["switch"] != "on" {
		return nil, nil
	}
	out := vals["output"]
	if out == "" {
		out = vals["result_dir"] // PROFILER_SAMPLECONFIG's name for it
	}
	p := &Profiler{Output: out, From: from, AICMetrics: vals["aic_metrics"],
		TaskTime: vals["task_time"] != "off", RuntimeAPI: vals["runtime_api"] != "off" && vals["acl_api"] != "off", TX: vals["msproftx"] == "on"}
	if p.Output == "" {
		p.Output = "." // CANN writes beside the program when no output is given
	}
	return p, nil
}

// ProfilerFromEnv reads the profiling environment variables getenv gives:
// PROFILING_MODE=true with PROFILING_OPTIONS (CANN's; PROFILER_SAMPLECONFIG
// when that is empty), else
// ASCEND_PROFILING_ENABLED=1 with ASCEND_PROFILING_OUTPUT_PATH (the seed's).
// nil, nil when neither turns profiling on.
func ProfilerFromEnv(getenv func(string) string) (*Profiler, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	switch mode := getenv("PROFILING_MODE"); mode {
	case "", "false":
	case "true":
		opts, from := getenv("PROFILING_OPTIONS"), "PROFILING_OPTIONS"
		if opts == "" {
			// msprof's own variable: its result_dir is the output.
			opts, from = getenv("PROFILER_SAMPLECONFIG"), "PROFILER_SAMPLECONFIG"
		}
		if opts == "" {
			opts = "{}"
		}
		return ParseProfiler(json.RawMessage(opts), from, false)
	default:
		return nil, rterr.Errorf(rterr.KindInvalidProfilingConfig, "PROFILING_MODE %q is invalid, expected \"true\" or \"false\"", mode)
	}
	switch on := getenv("ASCEND_PROFILING_ENABLED"); on {
	case "", "0", "false":
		return nil, nil
	case "1", "true":
		out := getenv("ASCEND_PROFILING_OUTPUT_PATH")
		if out == "" {
			return nil, rterr.Errorf(rterr.KindInvalidProfilingConfig, "ASCEND_PROFILING_ENABLED is set but ASCEND_PROFILING_OUTPUT_PATH is empty, expected the output directory")
		}
		return &Profiler{Output: out, Seed: true, TaskTime: true, RuntimeAPI: true, TX: true, From: "ASCEND_PROFILING_ENABLED"}, nil
	default:
		return nil, rterr.Errorf(rterr.KindInvalidProfilingConfig, "ASCEND_PROFILING_ENABLED %q is invalid, expected 1 or 0", on)
	}
}
