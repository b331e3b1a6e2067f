package gocann_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"log"

	"github.com/gocann/gocann"
)

// Capture a stream's work once, replay it, and replace one captured task
// between replays.
func ExampleStream_Capture() {
	r, err := gocann.Open()
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	dev, _ := r.SetDevice(0)
	ctx, _ := dev.Context()
	s, _ := ctx.NewStream()
	out, _ := ctx.Malloc(4*8, gocann.NormalOnly)

	// axpy: out[i] = a*out[i] + b, a and b in the launch's argument slots.
	axpy, _ := r.RegisterKernel("axpy", func(b *gocann.Block) {
		a, c := b.Arg(1).I64(), b.Arg(2).I64()
		v := gocann.View[int64](b, b.Arg(0).Ptr(), 4)
		for i, hi := b.Span(len(v)); i < hi; i++ {
			v[i] = a*v[i] + c
		}
	})

	var group *gocann.TaskGroup
	model, err := s.Capture(gocann.CaptureGlobal, func(s *gocann.Stream) error {
		if err := s.Memset(out, 0, 4*8); err != nil {
			return err
		}
		if err := s.BeginTaskGroup(); err != nil {
			return err
		}
		if err := s.Launch(axpy, 2, gocann.Ptr(out), gocann.I64(1), gocann.I64(5)); err != nil {
			return err
		}
		group, err = s.EndTaskGroup()
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	defer model.Close()

	show := func() {
		buf := make([]byte, 8)
		ctx.CopyFromDevice(buf, out)
		fmt.Println(int64(binary.LittleEndian.Uint64(buf)))
	}
	model.Run(s)
	s.Synchronize(context.Background())
	show() // 1*0 + 5

	// Replace the group's kernel with one of new arguments; the update is
	// a task of s, so the next replay on s sees it.
	s.BeginUpdate(group)
	s.Launch(axpy, 2, gocann.Ptr(out), gocann.I64(1), gocann.I64(7))
	if err := s.EndUpdate(); err != nil {
		log.Fatal(err)
	}
	model.Run(s)
	model.Run(s)
	s.Synchronize(context.Background())
	show() // each run starts from 0: 1*0 + 7
	// Output:
	// 5
	// 7
}
