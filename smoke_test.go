package gocann_test

import (
	"context"
	"testing"

	"github.com/gocann/gocann"
)

func TestSmokeVectorAdd(t *testing.T) {
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(`{"simulator":{"hbm_size":1073741824}}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := r.SetDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Context()
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 16
	x, _ := c.Malloc(n*4, gocann.HugeFirst)
	y, _ := c.Malloc(n*4, gocann.HugeFirst)
	hx, _ := r.MallocHost(n * 4)
	xs := gocann.Float32s(hx)
	for i := range xs {
		xs[i] = float32(i)
	}
	vadd, err := r.RegisterKernel("vadd", func(b *gocann.Block) {
		n := int(b.Arg(2).U64())
		x := gocann.View[float32](b, b.Arg(0).Ptr(), n)
		y := gocann.View[float32](b, b.Arg(1).Ptr(), n)
		lo, hi := b.Span(n)
		for i := lo; i < hi; i++ {
			y[i] += 2 * x[i]
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CopyHostToDevice(x, hx, 0, n*4); err != nil {
		t.Fatal(err)
	}
	if err := s.Memset(y, 0, n*4); err != nil {
		t.Fatal(err)
	}
	if err := s.Launch(vadd, 8, gocann.Ptr(x), gocann.Ptr(y), gocann.U64(n)); err != nil {
		t.Fatal(err)
	}
	if err := s.CopyDeviceToHost(hx, 0, y, n*4); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, v := range xs {
		if v != float32(2*i) {
			t.Fatalf("y[%d] = %v, want %v", i, v, 2*i)
		}
	}
}
