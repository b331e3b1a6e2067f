package main

import (
	"os"
	"runtime/pprof"
	"sync"
)

// A C program can be profiled like a Go one: with GOCANN_CPUPROFILE=file
// in its environment, the runtime's CPU profile is written to file from
// aclInit to aclFinalize (go tool pprof reads it).
var profile struct {
	// mu guards f.
	mu sync.Mutex
	f  *os.File
}

func startProfile() {
	path := os.Getenv("GOCANN_CPUPROFILE")
	if path == "" {
		return
	}
	profile.mu.Lock()
	defer profile.mu.Unlock()
	if profile.f != nil {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		return
	}
	if pprof.StartCPUProfile(f) != nil {
		f.Close()
		return
	}
	profile.f = f
}

func stopProfile() {
	profile.mu.Lock()
	defer profile.mu.Unlock()
	if profile.f != nil {
		pprof.StopCPUProfile()
		profile.f.Close()
		profile.f = nil
	}
}
