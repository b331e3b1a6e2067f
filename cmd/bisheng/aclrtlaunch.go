package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gocann/gocann/internal/asc"
)

// launchHeaders writes aclrtlaunch_<kernel>.h into dir for each kernel of
// the source at path, as CANN's kernel build does for a kernel library
// (ascendc_library passes the directory as -DGEN_ACLRT=dir), and returns
// the launch functions' definitions for the source. A header is rewritten
// only when its text changes, so that what includes it is not rebuilt for
// nothing; it is renamed into place, so that a parallel build never reads
// half of one.
func launchHeaders(dir, path string, kernels []asc.Kernel) (string, error) {
	if len(kernels) == 0 {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("GEN_ACLRT: %v", err)
	}
	for _, k := range kernels {
		text, err := asc.LaunchHeader(k, filepath.Base(path))
		if err != nil {
			return "", &asc.Error{File: path, Line: k.Line, Col: 1, Msg: err.Error()}
		}
		name := filepath.Join(dir, "aclrtlaunch_"+k.Name+".h")
		if old, err := os.ReadFile(name); err == nil && string(old) == text {
			continue
		}
		f, err := os.CreateTemp(dir, ".aclrtlaunch-*")
		if err != nil {
			return "", fmt.Errorf("GEN_ACLRT: %v", err)
		}
		werr := f.Chmod(0o644)
		if werr == nil {
			_, werr = f.WriteString(text)
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Rename(f.Name(), name)
		}
		if werr != nil {
			os.Remove(f.Name())
			return "", fmt.Errorf("GEN_ACLRT: writing %s: %v", name, werr)
		}
	}
	return asc.LaunchFunctions(kernels, path)
}
