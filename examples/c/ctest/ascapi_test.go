package ctest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testASCAPI builds each Ascend C API test of examples/c/ascapi with the
// installed bisheng, as a user's single-source program is built, and runs
// it: every call of the vector API against a reference loop, in its count
// and its mask-and-repeat forms, and each misuse trapping with a message.
// A test passes when it exits 0 and its last line is "PASS <name>".
func testASCAPI(t *testing.T, tl *tools, shell, source, prefix string) {
	dir := filepath.Join(tl.src, "ascapi")
	tests, err := filepath.Glob(filepath.Join(dir, "*.asc"))
	if err != nil || len(tests) == 0 {
		t.Fatalf("no Ascend C API tests in %s: %v", dir, err)
	}
	for _, src := range tests {
		name := strings.TrimSuffix(filepath.Base(src), ".asc")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			exe := filepath.Join(t.TempDir(), name)
			script := source + ` "$1/set_env.sh" && bisheng --npu-arch=dav-2201 -I"$2" "$3" -o "$4" && "$4"`
			cmd := exec.Command(shell, "-c", script, "sh", prefix, dir, src, exe)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
			out, err := cmd.CombinedOutput()
			s := strings.TrimRight(string(out), "\n")
			if err != nil || !strings.HasSuffix(s, "\nPASS "+name) {
				t.Fatalf("%s: %v\n%s", name, err, out)
			}
			if testing.Verbose() {
				t.Logf("%s", out)
			}
		})
	}
}
