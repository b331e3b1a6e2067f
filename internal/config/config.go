// Package config reads the JSON configuration aclInit takes: the CANN keys
// gocann honours and a "simulator" section of its own describing the
// simulated devices.
//
// The "dump" section is checked as CANN's dump component checks it
// (ParseDump), the "profiler" section as its profiler does
// (ParseProfiler, which also reads the profiling environment variables).
// Other CANN sections are accepted and ignored, so an existing
// configuration file keeps working; unknown keys inside the sections
// gocann reads are errors, but for the profiler's, which CANN ignores.
//
// FuzzParse feeds Parse arbitrary bytes; go test runs its seeds, and
// go test -fuzz=FuzzParse -fuzztime=10m ./internal/config explores.
//
// Its errors are *rterr.Error values of the configuration kinds
// (KindInvalidFile, KindParseFile, KindFileAttrInvalid). config imports only
// internal/rterr and the standard library.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/gocann/gocann/internal/rterr"
)

// AI core stack size limits: the default, the granularity it is rounded up
// to, and the largest value an Atlas A2 device accepts.
const (
	DefaultStackSize = 32 << 10
	stackGranule     = 16 << 10
	MaxStackSize     = 192 << 10
)

// Config is a parsed configuration.
type Config struct {
	// DefaultDevice is the device calls use when a thread set none; -1 for
	// none (defaultDevice.default_device).
	DefaultDevice int
	// StackSize is the AI core stack reserved per core when a device is set
	// (StackSize.aicore_stack_size), already rounded as CANN rounds it.
	StackSize uint64
	// ErrMsgMode is err_msg_mode: 0 per-thread error messages, 1 per process.
	ErrMsgMode int
	// Simulator describes the simulated devices.
	Simulator Simulator
	// VisibleDevices is ASCEND_RT_VISIBLE_DEVICES as the process has it
	// (VisibleDevices reads it); nil when it is not set. aclInit takes it
	// from the environment, not from the file.
	VisibleDevices *string `json:"-"`
	// Dump is the "dump" section when it turns dumping on, else nil.
	Dump *Dump `json:"-"`
	// Profiler is the "profiler" section when it turns profiling on.
	Profiler *Profiler `json:"-"`
	// Text is the configuration as given, what aclInit passes its init
	// callbacks; Given reports that one was given (a file or JSON text),
	// not aclInit(NULL).
	Text  string `json:"-"`
	Given bool   `json:"-"`
}

// Simulator is the "simulator" section. SoCName picks the simulated chip
// (the simulator's profiles); zero fields take that chip's figures.
type Simulator struct {
	Devices int    `json:"devices"`
	SoCName string `json:"soc_name"`
	// Machine names the simulated machine the devices belong to:
	// processes naming the same one share its devices (GOCANN_MACHINE
	// when empty; "none" keeps the devices the process's own).
	Machine       string `json:"machine"`
	AICores       int    `json:"aicore_num"`
	CubeCores     int    `json:"cube_core_num"`
	VectorCores   int    `json:"vector_core_num"`
	HBMSize       uint64 `json:"hbm_size"`
	StreamLimit   int    `json:"stream_limit"`
	EventLimit    int    `json:"event_limit"`
	NotifyLimit   int    `json:"notify_limit"`
	QueueDepth    int    `json:"queue_depth"`
	DMAWorkers    int    `json:"dma_workers"`
	LeastPriority int    `json:"least_priority"`
	// OpTimeoutIntervalUS is the tick of operator timeouts in
	// microseconds (aclrtGetOpTimeOutInterval); 0 keeps the chip's.
	OpTimeoutIntervalUS uint64 `json:"op_timeout_interval_us"`
	// The windows virtual and managed memory are reserved from (sanitizer
	// builds move them out of their shadow memory); 0 takes the default.
	VMMBase     uint64 `json:"vmm_base"`
	VMMSize     uint64 `json:"vmm_size"`
	ManagedBase uint64 `json:"managed_base"`
	ManagedSize uint64 `json:"managed_size"`

	// Topology is how the devices are connected; nil: every pair over
	// HCCS, with peer access possible.
	Topology *Topology `json:"topology,omitempty"`
	// PhysicalIDs is the physical chip id of each device, as in a
	// container; nil: each device's own number.
	PhysicalIDs []int `json:"physical_ids,omitempty"`
	// CoreGroups are the capability groups every device's cores are split
	// into, as CANN's driver tools create them on an Atlas inference chip;
	// nil: none.
	CoreGroups []CoreGroup `json:"core_groups,omitempty"`
}

// CoreGroup is one entry of the simulator's "core_groups": a group id in
// [0, MaxGroupID] and what the group is given.
type CoreGroup struct {
	ID            int    `json:"group_id"`
	AICores       uint32 `json:"aicore_num"`
	VectorCores   uint32 `json:"aivector_num"`
	AICPUs        uint32 `json:"aicpu_num"`
	SDMAs         uint32 `json:"sdma_num"`
	ActiveStreams uint32 `json:"active_stream_num"`
	Default       bool   `json:"default"`
}

// MaxGroupID is the largest capability group id.
const MaxGroupID = 3

// checkGroups checks each group has its own id in [0, MaxGroupID] and an
// AI core; whether they fit the chip is the simulator's check.
func (s *Simulator) checkGroups() error {
	seen := map[int]bool{}
	for i, g := range s.CoreGroups {
		switch {
		case g.ID < 0 || g.ID > MaxGroupID:
			return rterr.Errorf(rterr.KindFileAttrInvalid, "value %d of simulator.core_groups[%d].group_id is invalid, expected [0, %d]", g.ID, i, MaxGroupID)
		case seen[g.ID]:
			return rterr.Errorf(rterr.KindFileAttrInvalid, "simulator.core_groups[%d].group_id %d is invalid: the group is already listed", i, g.ID)
		case g.AICores == 0:
			return rterr.Errorf(rterr.KindFileAttrInvalid, "value 0 of simulator.core_groups[%d].aicore_num is invalid, expected at least 1", i)
		}
		seen[g.ID] = true
	}
	return nil
}

// Topology is the simulator's "topology" section.
type Topology struct {
	// Link names the link kind of every pair not in Pairs: hccs (the
	// default), pix, pib, phb, sys, sio or hccs_sw.
	Link  string     `json:"link,omitempty"`
	Pairs []PairLink `json:"pairs,omitempty"`
}

// PairLink is a pair of devices connected otherwise than Topology.Link
// says: over Link, if set, and without peer access if NoPeer.
type PairLink struct {
	Devices [2]int `json:"devices"`
	Link    string `json:"link,omitempty"`
	NoPeer  bool   `json:"no_peer,omitempty"`
}

// Default is the configuration of aclInit(NULL).
func Default() Config {
	return Config{DefaultDevice: -1, StackSize: DefaultStackSize}
}

// maxDepth is CANN's nesting limit for "{" and "[" in the file.
const maxDepth = 10

// Load reads and parses the file at path; an empty path gives Default.
func Load(path string) (Config, error) {
	if path == "" {
		return Default(), nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		reason := "file open failed"
		if errors.Is(err, fs.ErrNotExist) {
			reason = "file does not exist"
		}
		return Config{}, rterr.Wrap(rterr.KindInvalidFile, err, "configuration path %s is invalid: %s", path, reason)
	}
	c, err := Parse(data)
	if err != nil {
		var he *rterr.Error
		if errors.As(err, &he) {
			he.Msg = "configuration file " + path + ": " + he.Msg
		}
		return Config{}, err
	}
	return c, nil
}

// Parse parses configuration JSON. Empty input and {} give Default.
func Parse(data []byte) (Config, error) {
	c := Default()
	c.Text, c.Given = string(data), true
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	if err := checkDepth(data); err != nil {
		return c, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return c, rterr.Wrap(rterr.KindParseFile, err, "content is not a JSON object")
	}
	// The sections in the order CANN's aclInit handles them, so that of
	// several bad ones the same is always reported: the error manager's
	// (err_msg_mode), the dump's, the stack size, the default device; the
	// simulator's last.
	for _, key := range [...]string{"err_msg_mode", "dump", "profiler", "StackSize", "defaultDevice", "simulator"} {
		raw, ok := top[key]
		if !ok {
			continue
		}
		var err error
		switch key {
		case "defaultDevice":
			err = c.parseDefaultDevice(raw)
		case "StackSize":
			err = c.parseStackSize(raw)
		case "err_msg_mode":
			c.ErrMsgMode, err = intValue(raw, "err_msg_mode", 0, 1)
		case "simulator":
			if err = strict(raw, "simulator", &c.Simulator); err == nil {
				err = c.Simulator.checkGroups()
			}
			if err == nil && c.Simulator.Machine != "" && !validMachine.MatchString(c.Simulator.Machine) {
				err = rterr.Errorf(rterr.KindFileAttrInvalid, "value %q of simulator.machine is invalid, expected 1 to 64 letters, digits, '.', '_' or '-'", c.Simulator.Machine)
			}
		case "dump":
			c.Dump, err = ParseDump(data)
		case "profiler":
			c.Profiler, err = ParseProfiler(raw, "profiler", true)
		}
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

func (c *Config) parseDefaultDevice(raw json.RawMessage) error {
	var dd map[string]json.RawMessage
	if err := strict(raw, "defaultDevice", &dd); err != nil {
		return err
	}
	for k, v := range dd {
		if k != "default_device" {
			return rterr.Errorf(rterr.KindFileAttrInvalid, "key defaultDevice.%s is unknown, expected default_device", k)
		}
		n, err := intValue(v, "defaultDevice.default_device", 0, 1<<20)
		if err != nil {
			return err
		}
		c.DefaultDevice = n
	}
	return nil
}

func (c *Config) parseStackSize(raw json.RawMessage) error {
	var ss map[string]json.RawMessage
	if err := strict(raw, "StackSize", &ss); err != nil {
		return err
	}
	for k, v := range ss {
		if k != "aicore_stack_size" {
			return rterr.Errorf(rterr.KindFileAttrInvalid, "key StackSize.%s is unknown, expected aicore_stack_size", k)
		}
		n, err := intValue(v, "StackSize.aicore_stack_size", 0, MaxStackSize)
		if err != nil {
			return err
		}
		c.StackSize = RoundStack(uint64(n))
	}
	return nil
}

// RoundStack applies CANN's rule: round up to a multiple of 16 KiB, and
// anything below 32 KiB becomes 32 KiB.
func RoundStack(n uint64) uint64 {
	n = (n + stackGranule - 1) / stackGranule * stackGranule
	return max(n, DefaultStackSize)
}

// intValue reads a number or a decimal string (CANN's examples use both)
// and checks it lies in [lo, hi].
func intValue(raw json.RawMessage, key string, lo, hi int) (int, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, rterr.Wrap(rterr.KindParseFile, err, "value of %s is not valid JSON", key)
	}
	var n int64
	switch x := v.(type) {
	case float64:
		if x != float64(int64(x)) {
			return 0, rterr.Errorf(rterr.KindFileAttrInvalid, "value %v of %s is invalid, expected an integer in [%d, %d]", x, key, lo, hi)
		}
		n = int64(x)
	case string:
		var err error
		n, err = strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return 0, rterr.Errorf(rterr.KindFileAttrInvalid, "value %q of %s is invalid, expected a decimal integer in [%d, %d]", x, key, lo, hi)
		}
	default:
		return 0, rterr.Errorf(rterr.KindFileAttrInvalid, "value %s of %s is invalid, expected an integer in [%d, %d]", raw, key, lo, hi)
	}
	if n < int64(lo) || n > int64(hi) {
		return 0, rterr.Errorf(rterr.KindFileAttrInvalid, "value %d of %s is invalid, expected [%d, %d]", n, key, lo, hi)
	}
	return int(n), nil
}

// strict decodes a section, refusing unknown keys.
func strict(raw json.RawMessage, section string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return rterr.Wrap(rterr.KindFileAttrInvalid, err, "section %s is invalid", section)
	}
	return nil
}

// checkDepth enforces CANN's nesting limit.
func checkDepth(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return rterr.Wrap(rterr.KindParseFile, err, "content is not valid JSON")
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			if depth > maxDepth {
				return rterr.Errorf(rterr.KindParseFile, "nesting depth %d is invalid, expected at most %d", depth, maxDepth)
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// String renders c for logs.
func (c Config) String() string {
	return fmt.Sprintf("default device %d, stack %d, simulator %+v", c.DefaultDevice, c.StackSize, c.Simulator)
}
