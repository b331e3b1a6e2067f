package rt

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/gocann/gocann/hal"
	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/kernel"
)

// SuperKernels (gocannSuperKernelBegin/End, a gocann extension): the
// kernel launches a capturing stream queues between Begin and End become
// one kernel task of the model, which calls them as sub-kernels in order
// with a barrier across its blocks between each pair. The task is as wide
// as its widest sub-kernel; block b runs block b of every sub-kernel that
// has one, so sub-kernel N+1 sees everything N wrote whatever their block
// counts.

// SuperKernel is a captured SuperKernel: its name and its sub-kernels'
// launches, in order.
type SuperKernel struct {
	Name  string
	Subs  []hal.Task
	Width uint32
	// runners are the blocks of the task that run sub-kernels; the
	// others end at once. Each runs the sub-kernels' blocks that are its
	// index modulo runners, so a barrier costs a rendezvous of at most as
	// many goroutines as the host runs at once, not one per block; a
	// sub-kernel whose blocks wait for one another makes every block a
	// runner.
	runners uint32
	// overlap makes the sub-kernels' SetNextTaskStart and WaitPreTaskEnd
	// take effect, on the chips where they do (superkernel_overlap.go).
	overlap bool
	fn      kernel.Func
}

// superRange is a SuperKernel range open on a model stream.
type superRange struct {
	name string
	subs []hal.Task
}

// BeginSuperKernel opens a SuperKernel range named name on capturing
// stream s.
func (s *Stream) BeginSuperKernel(name string) error {
	if err := s.check(); err != nil {
		return err
	}
	d := s.divert.Load()
	if d == nil || d.capture == nil {
		return rterr.Errorf(rterr.KindStreamNotCaptured, "stream %d is not capturing; a SuperKernel range (%q) is marked inside a capture", s.id, name)
	}
	c := d.capture
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.live(); err != nil {
		return err
	}
	if r := d.ms.sk; r != nil {
		return rterr.Errorf(rterr.KindInvalidParam, "SuperKernel %q is already open on stream %d; SuperKernel ranges do not nest (end it before beginning %q)", r.name, s.id, name)
	}
	if g := c.group; g != nil && g.ms == d.ms {
		return rterr.Errorf(rterr.KindTaskGroupStatus, "a task group is open on stream %d; end it before beginning SuperKernel %q", s.id, name)
	}
	d.ms.sk = &superRange{name: name}
	return nil
}

// EndSuperKernel closes the SuperKernel range open on s, recording its
// launches as one kernel task; a range without launches records nothing.
func (s *Stream) EndSuperKernel() error {
	if err := s.check(); err != nil {
		return err
	}
	d := s.divert.Load()
	if d == nil || d.capture == nil {
		return rterr.Errorf(rterr.KindStreamNotCaptured, "stream %d is not capturing; no SuperKernel range can be open on it", s.id)
	}
	c := d.capture
	c.mu.Lock()
	defer c.mu.Unlock()
	r := d.ms.sk
	if r == nil {
		return rterr.Errorf(rterr.KindInvalidParam, "no SuperKernel range is open on stream %d (gocannSuperKernelEnd without gocannSuperKernelBegin)", s.id)
	}
	d.ms.sk = nil
	if err := c.live(); err != nil {
		return err
	}
	if len(r.subs) == 0 {
		return nil
	}
	sk, err := newSuperKernel(r)
	if err != nil {
		return err
	}
	props := &s.c.d.props
	cores, of := props.AICores, "AI cores"
	if sk.fn.Cores == kernel.CoreVector {
		cores, of = props.VectorCores, "vector cores"
	}
	if sk.Width > 1 && int(sk.Width) > cores {
		return rterr.Errorf(rterr.KindInvalidParam, "SuperKernel %q is %d blocks wide (its widest sub-kernel's), which must all run at once, but the chip has %d %s",
			sk.Name, sk.Width, cores, of)
	}
	if overlapChip(props.SoCName) {
		sk.overlap, sk.runners = true, 1
	}
	t := r.subs[0] // its stream's bounds, group and overflow area, and the first launch's site
	t.Kernel, t.Blocks, t.NArgs, t.Args, t.ArgsDev = &sk.fn, sk.Width, 0, [hal.MaxArgs]uint64{}, 0
	m := c.m
	m.mu.Lock()
	if m.sks == nil {
		m.sks = map[*kernel.Func]*SuperKernel{}
	}
	m.sks[&sk.fn] = sk
	m.mu.Unlock()
	names := ""
	for i, st := range sk.Subs {
		if i > 0 {
			names += ", "
		}
		names += fmt.Sprintf("%s<<<%d>>>", st.Kernel.Name, st.Blocks)
	}
	d.ms.push(hal.Op{Kind: hal.OpTask, Task: t, Diag: fmt.Sprintf("SuperKernel %q of sub-kernels %s", sk.Name, names)}, nil)
	return nil
}

// superAdd takes op into the SuperKernel range open on ms: a kernel launch
// becomes its next sub-kernel, anything else is refused. c.mu held.
func superAdd(ms *mstream, op hal.Op) error {
	r := ms.sk
	if op.Kind != hal.OpTask || op.Task.Kind != hal.TaskKernel {
		return superRefuse(ms, op)
	}
	t := &op.Task
	switch {
	case t.Kernel == nil || t.Blocks == 0:
		return rterr.Errorf(rterr.KindInvalidParam, "SuperKernel %q: a kernel launch without a kernel or blocks cannot be a sub-kernel", r.name)
	case t.Kernel.CPU:
		return rterr.Errorf(rterr.KindInvalidParam, "SuperKernel %q: kernel %q runs on the AI CPU; sub-kernels run on the AI cores", r.name, t.Kernel.Name)
	case t.Kernel.SIMT:
		return rterr.Errorf(rterr.KindInvalidParam, "SuperKernel %q: kernel %q is a SIMT kernel, which cannot be a sub-kernel", r.name, t.Kernel.Name)
	case t.ArgsDev != 0:
		return rterr.Errorf(rterr.KindInvalidParam, "SuperKernel %q: kernel %q reads its arguments from device memory (%#x), which a sub-kernel cannot", r.name, t.Kernel.Name, t.ArgsDev)
	}
	r.subs = append(r.subs, *t)
	return nil
}

// superRefuse refuses op, which is not a kernel launch, inside the
// SuperKernel range open on ms.
func superRefuse(ms *mstream, op hal.Op) error {
	what := opName(op)
	a := "a"
	if strings.ContainsRune("aeiou", rune(what[0])) {
		a = "an"
	}
	return rterr.Errorf(rterr.KindInvalidParam, "SuperKernel %q on stream %d holds kernel launches only; %s %s cannot be in it", ms.sk.name, ms.src.id, a, what)
}

// newSuperKernel makes the kernel that runs r's launches.
func newSuperKernel(r *superRange) (*SuperKernel, error) {
	sk := &SuperKernel{Name: r.name, Subs: r.subs}
	vector := true
	for _, t := range r.subs {
		sk.Width = max(sk.Width, t.Blocks)
		if t.Kernel.Cores != kernel.CoreVector {
			vector = false
		}
	}
	for i, t := range r.subs {
		if t.Kernel.Gang && t.Blocks > 1 && t.Blocks != sk.Width {
			return nil, rterr.Errorf(rterr.KindInvalidParam,
				"SuperKernel %q: sub-kernel %d (%q) synchronizes its %d blocks, which must then be the SuperKernel's width, %d",
				r.name, i, t.Kernel.Name, t.Blocks, sk.Width)
		}
	}
	// One runner per host core but one, which is left to the threads
	// feeding the device: a barrier is then a rendezvous of runners that
	// are all running.
	sk.runners = min(sk.Width, uint32(max(1, runtime.GOMAXPROCS(0)-1)))
	for _, t := range r.subs {
		if t.Kernel.Gang && t.Blocks > 1 {
			sk.runners = sk.Width
		}
	}
	sk.fn = kernel.Func{Name: r.name, Fn: sk.run, Gang: sk.Width > 1, Parts: true}
	if vector {
		sk.fn.Cores = kernel.CoreVector
	}
	return sk, nil
}

// run runs one block of the SuperKernel: if it is a runner, the blocks
// of each sub-kernel that are its index modulo the runners, with a
// barrier of the runners between sub-kernels.
func (sk *SuperKernel) run(b *kernel.Block) {
	idx := uint32(b.Idx())
	if idx >= sk.runners {
		return
	}
	if sk.overlap {
		sk.runOverlap(b)
		return
	}
	g := b.Gang()
	var pause skPause
	var sub kernel.Block
	var began int64 // runner 0: when the sub-kernel began, for its part
	if idx == 0 {
		began = b.Now()
	}
	for i := range sk.Subs {
		t := &sk.Subs[i]
		if idx == 0 && i > 0 {
			// Past the barrier: every runner ended sub-kernel i-1.
			now := b.Now()
			b.AddPart(kernel.Part{Name: sk.Subs[i-1].Kernel.Name, Blocks: sk.Subs[i-1].Blocks, Start: began, End: now})
			began = now
		}
		for j := idx; j < t.Blocks; j += sk.runners {
			sub.Reset(j, t.Blocks, t.Args[:t.NArgs], b.Memory())
			if t.Kernel.Gang && t.Blocks > 1 {
				sub.SetGang(g) // as wide as the SuperKernel, each block a runner (newSuperKernel)
			}
			if f := t.Kernel.SK; f != nil {
				f.Fn(&sub) // its SK_BIND sub-function
			} else {
				t.Kernel.Fn(&sub)
			}
			if out := sub.TakeOutput(); out != nil {
				b.Print(out)
			}
			if sub.Overflowed() {
				b.ReportOverflow()
			}
		}
		if i == len(sk.Subs)-1 || g == nil {
			continue
		}
		if pause.reset(); !g.Barrier(int(sk.runners), pause.wait) {
			return // another block failed: the task has its fault
		}
	}
	if idx == 0 {
		// The last ends with the task, which the device stamps (End 0).
		last := &sk.Subs[len(sk.Subs)-1]
		b.AddPart(kernel.Part{Name: last.Kernel.Name, Blocks: last.Blocks, Start: began})
	}
}

// skPause is the pause of a runner waiting at a SuperKernel's barrier:
// yields while the wait is short (the other runners are running, or about
// to), then sleeps of 50 µs once it has lasted a millisecond (a slow
// sub-kernel). reset starts a wait.
type skPause struct {
	n     int
	since time.Time
}

func (p *skPause) reset() { p.n, p.since = 0, time.Time{} }

func (p *skPause) wait() {
	if p.n++; p.n&63 != 0 {
		runtime.Gosched()
		return
	}
	if p.since.IsZero() {
		p.since = time.Now()
	} else if time.Since(p.since) > time.Millisecond {
		time.Sleep(50 * time.Microsecond)
		return
	}
	runtime.Gosched()
}

// SuperKernelOf returns the SuperKernel a kernel task of m runs, or nil.
func (m *Model) SuperKernelOf(f *kernel.Func) *SuperKernel {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sks[f]
}
