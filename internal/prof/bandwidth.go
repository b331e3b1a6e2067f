package prof

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The machine's copy bandwidth, against which the report reads memory
// bandwidth utilization: measured once (a few 32 MiB copies, the best
// taken) and cached in the user's cache directory.

var bandwidth struct {
	once sync.Once
	gbps float64
}

func copyBandwidth() float64 {
	bandwidth.once.Do(func() {
		path := ""
		if dir, err := os.UserCacheDir(); err == nil {
			path = filepath.Join(dir, "gocann", "copy_bandwidth_GBps")
			if b, err := os.ReadFile(path); err == nil {
				if v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil && v > 0 {
					bandwidth.gbps = v
					return
				}
			}
		}
		bandwidth.gbps = measureCopy()
		if path != "" && os.MkdirAll(filepath.Dir(path), 0o750) == nil {
			_ = os.WriteFile(path, []byte(strconv.FormatFloat(bandwidth.gbps, 'f', 2, 64)+"\n"), 0o640)
		}
	})
	return bandwidth.gbps
}

func measureCopy() float64 {
	const n = 32 << 20
	src, dst := make([]byte, n), make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	best := time.Duration(1 << 62)
	for range 5 {
		start := time.Now()
		copy(dst, src)
		best = min(best, time.Since(start))
	}
	return float64(n) / best.Seconds() / 1e9
}
