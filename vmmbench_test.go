package gocann_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/gocann/gocann"
)

// BenchmarkVMMMapUnmap2MiB: aclrtMapMem + aclrtUnmapMem of 2 MiB of
// physical memory at a reserved address, against an in-run baseline of
// an mmap + munmap of 2 MiB of shared memory.
func BenchmarkVMMMapUnmap2MiB(b *testing.B) {
	r, err := gocann.Open(gocann.WithConfigJSON([]byte(smallConfig)))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	if _, err := r.SetDevice(0); err != nil {
		b.Fatal(err)
	}
	h, err := r.MallocPhysical(mib2, gocann.DeviceMemProp(0, gocann.MemHuge), 0)
	if err != nil {
		b.Fatal(err)
	}
	defer r.FreePhysical(h)
	p, err := r.ReserveMemAddress(mib2, 0, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer r.ReleaseMemAddress(p)
	b.Run("MapMem+UnmapMem", func(b *testing.B) {
		for b.Loop() {
			if err := r.MapMem(p, mib2, 0, h, 0); err != nil {
				b.Fatal(err)
			}
			if err := r.UnmapMem(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline-mmap+munmap", func(b *testing.B) {
		fd, err := unix.MemfdCreate("bench", unix.MFD_CLOEXEC)
		if err != nil {
			b.Fatal(err)
		}
		defer unix.Close(fd)
		if err := unix.Ftruncate(fd, mib2); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			m, err := unix.Mmap(fd, 0, mib2, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
			if err != nil {
				b.Fatal(err)
			}
			if err := unix.Munmap(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
