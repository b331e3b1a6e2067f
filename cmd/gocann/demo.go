package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gocann/gocann"
)

// demo copies two vectors to the device on one stream, adds them with a
// kernel of 8 blocks on a second stream that waits for the copies through an
// event, runs a host callback, copies the sum back and checks every element.
func demo(r *gocann.Runtime, w io.Writer) error {
	const n = 1 << 22 // elements per vector
	const bytes = 4 * n
	start := time.Now()

	dev, err := r.SetDevice(0)
	if err != nil {
		return err
	}
	defer dev.Reset()
	ctx, err := dev.Context()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "device 0: %s, %d AI cores\n", dev.SoCName(), dev.Props().AICores)

	copyStream, err := ctx.NewStream()
	if err != nil {
		return err
	}
	defer copyStream.Close()
	computeStream, err := ctx.NewStream()
	if err != nil {
		return err
	}
	defer computeStream.Close()

	hx, err := r.MallocHost(bytes)
	if err != nil {
		return err
	}
	defer hx.Close()
	hy, err := r.MallocHost(bytes)
	if err != nil {
		return err
	}
	defer hy.Close()
	hz, err := r.MallocHost(bytes)
	if err != nil {
		return err
	}
	defer hz.Close()
	xs, ys := gocann.Float32s(hx), gocann.Float32s(hy)
	for i := range xs {
		xs[i], ys[i] = float32(i), float32(2*i)
	}

	var bufs [3]gocann.DevPtr
	for i := range bufs {
		if bufs[i], err = ctx.Malloc(bytes, gocann.HugeFirst); err != nil {
			return err
		}
		defer ctx.Free(bufs[i])
	}
	x, y, z := bufs[0], bufs[1], bufs[2]

	vadd, err := r.RegisterKernel("vadd", func(b *gocann.Block) {
		n := int(b.Arg(3).U64())
		x := gocann.View[float32](b, b.Arg(0).Ptr(), n)
		y := gocann.View[float32](b, b.Arg(1).Ptr(), n)
		z := gocann.View[float32](b, b.Arg(2).Ptr(), n)
		lo, hi := b.Span(n)
		for i := lo; i < hi; i++ {
			z[i] = x[i] + y[i]
		}
	})
	if err != nil {
		return err
	}

	var events [4]*gocann.Event
	for i := range events {
		if events[i], err = ctx.NewEvent(gocann.EventSync | gocann.EventTimeLine); err != nil {
			return err
		}
		defer events[i].Close()
	}
	begin, copied, computed, end := events[0], events[1], events[2], events[3]

	callbackAt := make(chan time.Time, 1)
	steps := []func() error{
		func() error { return copyStream.Record(begin) },
		func() error { return copyStream.CopyHostToDevice(x, hx, 0, bytes) },
		func() error { return copyStream.CopyHostToDevice(y, hy, 0, bytes) },
		func() error { return copyStream.Record(copied) },
		func() error { return computeStream.WaitEvent(copied) },
		func() error {
			return computeStream.Launch(vadd, 8, gocann.Ptr(x), gocann.Ptr(y), gocann.Ptr(z), gocann.U64(n))
		},
		func() error { return computeStream.Record(computed) },
		func() error { return computeStream.LaunchHostFunc(func() { callbackAt <- time.Now() }) },
		func() error { return computeStream.CopyDeviceToHost(hz, 0, z, bytes) },
		func() error { return computeStream.Record(end) },
	}
	submitted := time.Now()
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	enqueue := time.Since(submitted)
	if err := computeStream.Synchronize(context.Background()); err != nil {
		return err
	}
	total := time.Since(submitted)
	fmt.Fprintf(w, "host callback ran %v after submission, after the kernel\n", (<-callbackAt).Sub(submitted).Round(time.Microsecond))

	zs := gocann.Float32s(hz)
	for i, v := range zs {
		if want := float32(3 * i); v != want {
			return fmt.Errorf("z[%d] = %v, want %v", i, v, want)
		}
	}
	fmt.Fprintf(w, "checked all %d elements of z = x + y: correct\n", n)

	h2d, _ := gocann.Elapsed(begin, copied)
	kernel, _ := gocann.Elapsed(copied, computed)
	d2h, _ := gocann.Elapsed(computed, end)
	gbps := func(b int64, d time.Duration) float64 { return float64(b) / d.Seconds() / 1e9 }
	// The simulated device keeps time with the host's monotonic clock, so
	// device-clock durations are real time the CPU spent on the device's
	// work.
	fmt.Fprintf(w, "device clock (aclrtEventElapsedTime between events recorded on the streams):\n")
	fmt.Fprintf(w, "  H2D copies  %10v  %6.1f GB/s\n", h2d.Round(time.Microsecond), gbps(2*bytes, h2d))
	fmt.Fprintf(w, "  vadd kernel %10v  %6.1f GB/s  (8 blocks)\n", kernel.Round(time.Microsecond), gbps(3*bytes, kernel))
	fmt.Fprintf(w, "  D2H copy    %10v  %6.1f GB/s\n", d2h.Round(time.Microsecond), gbps(bytes, d2h))
	fmt.Fprintf(w, "host wall clock:\n")
	fmt.Fprintf(w, "  %d asynchronous calls returned in %v, before their work ran\n", len(steps), enqueue.Round(time.Microsecond))
	fmt.Fprintf(w, "  the work was done %v after the first call (aclrtSynchronizeStream returned)\n", total.Round(time.Microsecond))
	fmt.Fprintf(w, "  the whole demo took %v, device setup and allocations included\n", time.Since(start).Round(time.Millisecond))
	return nil
}
