package rt

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/callsite"
)

// Describing a model for people (aclmdlRIDebugJsonPrint, aclmdlRIDebugPrint):
// its streams, their tasks in order, and the dependencies between streams.

// DebugModel is the description.
type DebugModel struct {
	ID           uint32        `json:"model_id"`
	Name         string        `json:"name"`
	Kind         string        `json:"kind"`
	Device       int           `json:"device_id"`
	Streams      []DebugStream `json:"streams"`
	Dependencies []DebugDep    `json:"dependencies"`
	Conditions   []DebugCond   `json:"conditions,omitempty"`
	Branches     []DebugModel  `json:"branches,omitempty"`
}

// DebugStream is one stream of a model.
type DebugStream struct {
	Index  int         `json:"index"`
	Head   bool        `json:"head"`
	Source int32       `json:"source_stream_id,omitempty"`
	Tasks  []DebugTask `json:"tasks"`
}

// DebugTask is one task of a stream.
type DebugTask struct {
	Seq      int      `json:"seq"`
	Type     string   `json:"type"`
	Kernel   string   `json:"kernel,omitempty"`
	Blocks   uint32   `json:"blocks,omitempty"`
	Args     []string `json:"args,omitempty"`
	Bytes    uint64   `json:"bytes,omitempty"`
	Event    *int     `json:"graph_event,omitempty"`
	Target   *int     `json:"target_stream,omitempty"`
	Labels   []string `json:"labels,omitempty"`
	Cond     *int     `json:"condition,omitempty"`
	Branches []uint32 `json:"branch_models,omitempty"`
	Addr     string   `json:"addr,omitempty"`
	Value    *uint64  `json:"value,omitempty"`
	Site     string   `json:"launched_at,omitempty"`
	Disabled bool     `json:"disabled,omitempty"`
	// SubKernels are a SuperKernel's sub-kernels, in order.
	SubKernels []DebugTask `json:"sub_kernels,omitempty"`
	// What the launching thread attached (aclrtCacheLastTaskExtendInfo,
	// aclrtCacheLastTaskOpInfo): the extended information as the JSON it
	// is (a string if it is not JSON), the operator information's bytes.
	ExtendInfo json.RawMessage `json:"extend_info,omitempty"`
	OpInfo     []byte          `json:"op_info,omitempty"`
}

// DebugDep is a dependency between streams through a graph event.
type DebugDep struct {
	Event int          `json:"graph_event"`
	From  DebugTaskRef `json:"record"`
	To    DebugTaskRef `json:"wait"`
}

// DebugTaskRef names a task.
type DebugTaskRef struct {
	Stream int `json:"stream"`
	Seq    int `json:"seq"`
}

// DebugCond is a condition variable.
type DebugCond struct {
	Addr    string `json:"addr"`
	Reset   bool   `json:"reset_each_run"`
	Default uint64 `json:"default"`
}

// Describe describes m; verbose adds kernel arguments and launch sites.
func (m *Model) Describe(verbose bool) (DebugModel, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.readyLocked(); err != nil {
		return DebugModel{}, err
	}
	return m.describe(verbose), nil
}

func (m *Model) describe(verbose bool) DebugModel {
	kinds := [...]string{"built", "captured", "branch"}
	d := DebugModel{ID: m.id, Name: m.name, Kind: kinds[m.kind], Device: m.c.d.id, Streams: []DebugStream{}, Dependencies: []DebugDep{}}
	records := map[int][]DebugTaskRef{}
	type wait struct {
		ev  int
		ref DebugTaskRef
	}
	var waits []wait
	for _, ms := range m.streams {
		st := DebugStream{Index: ms.idx, Head: ms.head, Tasks: []DebugTask{}}
		if ms.src != nil {
			st.Source = ms.src.id
		}
		ops := ms.ops
		if ms.gs != nil {
			ops = ms.gs.Ops()
		}
		for i, op := range ops {
			t := describeOp(i, op, verbose, m)
			if ti := ms.infoAt(i); ti != nil {
				t.ExtendInfo, t.OpInfo = extendJSON(ti.Extend), ti.Op
			}
			st.Tasks = append(st.Tasks, t)
			ref := DebugTaskRef{ms.idx, i}
			switch op.Kind {
			case hal.OpRecord:
				records[op.Event] = append(records[op.Event], ref)
			case hal.OpWait:
				waits = append(waits, wait{op.Event, ref})
			}
		}
		d.Streams = append(d.Streams, st)
	}
	for _, w := range waits {
		for _, r := range records[w.ev] {
			if r.Stream != w.ref.Stream {
				d.Dependencies = append(d.Dependencies, DebugDep{Event: w.ev, From: r, To: w.ref})
			}
		}
	}
	for _, c := range m.conds {
		d.Conditions = append(d.Conditions, DebugCond{Addr: fmt.Sprintf("%#x", c.Addr), Reset: c.Reset, Default: c.Default})
	}
	for _, sub := range m.subs {
		sub.mu.Lock()
		if sub.state == modelReady {
			d.Branches = append(d.Branches, sub.describe(verbose))
		}
		sub.mu.Unlock()
	}
	return d
}

func describeOp(i int, op hal.Op, verbose bool, m *Model) DebugTask {
	t := DebugTask{Seq: i, Type: opName(op), Disabled: op.Disabled}
	ip := func(v int) *int { return &v }
	switch op.Kind {
	case hal.OpTask:
		task := op.Task
		switch task.Kind {
		case hal.TaskKernel:
			if task.Kernel != nil {
				t.Kernel = task.Kernel.Name
			}
			t.Blocks = task.Blocks
			if verbose {
				for _, a := range task.Args[:task.NArgs] {
					t.Args = append(t.Args, fmt.Sprintf("%#x", a))
				}
				t.Site = callsite.Format(task.Site)
			}
			if sk := m.sks[task.Kernel]; sk != nil {
				for j, st := range sk.Subs {
					t.SubKernels = append(t.SubKernels, describeOp(j, hal.Op{Kind: hal.OpTask, Task: st}, verbose, m))
				}
			}
		case hal.TaskCopy, hal.TaskMemset:
			t.Bytes = task.Size
		case hal.TaskCopy2D:
			t.Bytes = task.Width * task.Height
		case hal.TaskValueWrite, hal.TaskValueWait:
			t.Addr = fmt.Sprintf("%#x", task.Dst.Dev)
			v := task.Value
			t.Value = &v
		}
	case hal.OpRecord, hal.OpWait, hal.OpReset:
		t.Event = ip(op.Event)
	case hal.OpActivate, hal.OpSwitchStream:
		t.Target = ip(op.Target)
	case hal.OpSwitchLabel:
		for _, l := range op.Labels {
			t.Labels = append(t.Labels, fmt.Sprintf("stream %d task %d", l.Stream, l.Pos))
		}
	case hal.OpCond:
		t.Cond = ip(op.Cond)
		t.Type = [...]string{"if", "while", "switch"}[op.CondKind]
		for _, g := range op.Subs {
			for _, sub := range m.subs {
				if sub.graph == g {
					t.Branches = append(t.Branches, sub.id)
				}
			}
		}
	case hal.OpEnd:
		t.Type = "end"
	}
	return t
}

// WriteJSON writes the description as indented JSON.
func (d DebugModel) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// String renders the description as text, one task per line.
func (d DebugModel) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %d %q (%s) on device %d: %d streams\n", d.ID, d.Name, d.Kind, d.Device, len(d.Streams))
	for _, s := range d.Streams {
		head := ""
		if s.Head {
			head = ", head"
		}
		fmt.Fprintf(&b, "  stream %d (from stream %d%s):\n", s.Index, s.Source, head)
		for _, t := range s.Tasks {
			fmt.Fprintf(&b, "    %3d %s", t.Seq, t.Type)
			if t.Kernel != "" {
				fmt.Fprintf(&b, " %s<<<%d>>>", t.Kernel, t.Blocks)
			}
			if len(t.Args) > 0 { // verbose only
				fmt.Fprintf(&b, "(%s)", strings.Join(t.Args, ", "))
			}
			if t.Bytes != 0 {
				fmt.Fprintf(&b, " %d bytes", t.Bytes)
			}
			if t.Addr != "" {
				fmt.Fprintf(&b, " %s value %d", t.Addr, *t.Value)
			}
			if t.Event != nil {
				fmt.Fprintf(&b, " graph event %d", *t.Event)
			}
			if t.Cond != nil {
				fmt.Fprintf(&b, " condition %d branches %v", *t.Cond, t.Branches)
			}
			if len(t.Labels) > 0 {
				fmt.Fprintf(&b, " to %s", strings.Join(t.Labels, " | "))
			}
			if t.Target != nil {
				fmt.Fprintf(&b, " stream %d", *t.Target)
			}
			if t.Disabled {
				b.WriteString(" (disabled)")
			}
			if len(t.SubKernels) > 0 {
				fmt.Fprintf(&b, " SuperKernel of %d sub-kernels", len(t.SubKernels))
			}
			if t.Site != "" { // verbose only
				fmt.Fprintf(&b, " launched at %s", t.Site)
			}
			b.WriteByte('\n')
			for _, st := range t.SubKernels {
				fmt.Fprintf(&b, "          sub-kernel %d %s<<<%d>>>", st.Seq, st.Kernel, st.Blocks)
				if len(st.Args) > 0 { // verbose only
					fmt.Fprintf(&b, "(%s)", strings.Join(st.Args, ", "))
				}
				if st.Site != "" {
					fmt.Fprintf(&b, " launched at %s", st.Site)
				}
				b.WriteByte('\n')
			}
		}
	}
	for _, dep := range d.Dependencies {
		fmt.Fprintf(&b, "  stream %d task %d -> stream %d task %d (graph event %d)\n", dep.From.Stream, dep.From.Seq, dep.To.Stream, dep.To.Seq, dep.Event)
	}
	for i, c := range d.Conditions {
		reset := ""
		if c.Reset {
			reset = fmt.Sprintf(", set to %d at each run", c.Default)
		}
		fmt.Fprintf(&b, "  condition %d at %s%s\n", i, c.Addr, reset)
	}
	for _, br := range d.Branches {
		for _, line := range strings.Split(strings.TrimRight(br.String(), "\n"), "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.String()
}

// extendJSON is extended information as JSON: itself if it is JSON, else
// a JSON string of it.
func extendJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	if json.Valid(b) {
		return json.RawMessage(b)
	}
	s, _ := json.Marshal(string(b))
	return s
}
