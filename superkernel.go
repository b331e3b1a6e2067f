package gocann

// SuperKernel captures the kernel launches fn queues on s, a stream being
// captured (inside Stream.Capture), as one SuperKernel task named name:
// the model runs them as sub-kernels of one kernel, in order, as wide as
// the widest, with a barrier of all its blocks between each pair, so that
// a sub-kernel sees everything the one before it wrote. Anything but a
// kernel launch queued in fn is refused (KindInvalidParam), as are a
// SuperKernel on a stream that is not capturing (KindStreamNotCaptured)
// and one inside another. An error fn returns is returned, the range
// closed.
//
// CANN: none (gocann's gocannSuperKernelBegin/End, gocann/superkernel.h).
func (s *Stream) SuperKernel(name string, fn func(s *Stream) error) (err error) {
	if err := s.s.BeginSuperKernel(name); err != nil {
		return wrap("Stream.SuperKernel", err)
	}
	ended := false
	defer func() {
		if !ended {
			s.s.EndSuperKernel() // fn panicked or called runtime.Goexit
		}
	}()
	ferr := fn(s)
	ended = true
	eerr := wrap("Stream.SuperKernel", s.s.EndSuperKernel())
	if ferr != nil {
		return ferr
	}
	return eerr
}

// BeginSuperKernel opens a SuperKernel range named name on s, a stream
// being captured; SuperKernel is the scoped form.
//
// CANN: none (gocann's gocannSuperKernelBegin).
func (s *Stream) BeginSuperKernel(name string) error {
	return wrap("Stream.BeginSuperKernel", s.s.BeginSuperKernel(name))
}

// EndSuperKernel closes the SuperKernel range open on s, recording its
// kernel launches as one task.
//
// CANN: none (gocann's gocannSuperKernelEnd).
func (s *Stream) EndSuperKernel() error {
	return wrap("Stream.EndSuperKernel", s.s.EndSuperKernel())
}
