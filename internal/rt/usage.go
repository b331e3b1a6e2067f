package rt

import (
	"cmp"
	"slices"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
)

// Utilization is how busy device id's engines were lately
// (aclrtGetDeviceUtilizationRate); a device not set up is idle.
func (r *Runtime) Utilization(id int) (hal.Utilization, error) {
	if err := r.checkDeviceID("deviceId", id); err != nil {
		return hal.Utilization{}, err
	}
	d, err := r.Device(id)
	if err != nil {
		return hal.Utilization{}, err
	}
	d.mu.Lock()
	hd := d.hd
	d.mu.Unlock()
	if hd == nil {
		return hal.Utilization{Cube: 0, Vector: 0, AICPU: -1}, nil
	}
	u, ok := hd.(hal.Utilizer)
	if !ok {
		return hal.Utilization{}, rterr.Errorf(rterr.KindNotSupported, "this backend's devices do not measure how busy they are")
	}
	return u.Utilization(), nil
}

// MemComponent is one component's device memory (aclrtMemUsageInfo).
type MemComponent struct {
	Name        string
	Bytes, Peak uint64
}

// memComponentNames name the components by allocation use: the caller's
// memory, the runtime's own (AI core stacks, staging, argument copies) and
// what it lends to models (condition words, task argument blocks).
var memComponentNames = [...]string{useNone: "RUNTIME", useOwned: "APP", useLent: "MODEL"}

// MemUsage reports device id's memory by component, most in use first
// (aclrtGetMemUsageInfo); a device not set up has none.
func (r *Runtime) MemUsage(id int) ([]MemComponent, error) {
	if err := r.checkDeviceID("deviceId", id); err != nil {
		return nil, err
	}
	d, err := r.Device(id)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	hd := d.hd
	d.mu.Unlock()
	if hd == nil {
		return nil, nil
	}
	mu, ok := hd.(hal.MemUser)
	if !ok {
		return nil, rterr.Errorf(rterr.KindNotSupported, "this backend's devices do not count their memory by use")
	}
	var out []MemComponent
	for _, u := range mu.MemUsage() {
		name := "OTHER"
		if int(u.Tag) < len(memComponentNames) {
			name = memComponentNames[u.Tag]
		}
		out = append(out, MemComponent{Name: name, Bytes: u.Bytes, Peak: u.Peak})
	}
	slices.SortStableFunc(out, func(a, b MemComponent) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return out, nil
}
