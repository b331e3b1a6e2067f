package python_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// python is Debian's interpreter, the one CI gives pytest and numpy (the
// first python3 on PATH may be another).
const python = "/usr/bin/python3"

// TestPytest installs a fresh tree with make install and runs the pytest
// suite of tests/ against it, in an environment set by its set_env.sh.
func TestPytest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Python suite builds and installs the libraries")
	}
	// CI sets GOCANN_REQUIRE_PYTEST: there a missing tool fails the test
	// instead of skipping it, and numpy must be there too, so that no part
	// of the suite goes unrun.
	skip := t.Skipf
	if os.Getenv("GOCANN_REQUIRE_PYTEST") != "" {
		skip = t.Fatalf
	}
	if _, err := os.Stat(python); err != nil {
		skip("%s not found: the Python suite needs Debian's python3 (apt-get install python3 python3-pytest)", python)
	}
	need := "import pytest"
	if os.Getenv("GOCANN_REQUIRE_PYTEST") != "" {
		need += ", numpy"
	}
	if out, err := exec.Command(python, "-c", need).CombinedOutput(); err != nil {
		skip("%s cannot %q (apt-get install python3-pytest python3-numpy): %v\n%s", python, need, err, out)
	}
	for _, tool := range []string{"make", "gcc", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			skip("%s not found: the Python suite installs the libraries with make and gcc", tool)
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	prefix := filepath.Join(dir, "cann")
	install := exec.Command("make", "install", "PREFIX="+prefix, "BUILD="+filepath.Join(dir, "build"))
	install.Dir = root
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	// PATH and HOME only: set_env.sh provides the rest. The suite runs
	// from a directory outside the repository, so the module is the
	// installed one.
	script := `source "$1/set_env.sh" && cd "$2" && exec ` + python +
		` -B -m pytest -q -p no:cacheprovider --rootdir "$2" "$3"`
	cmd := exec.Command("bash", "-c", script, "sh", prefix, dir, filepath.Join(root, "python", "tests"))
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GOCANN_TEST_LIB=" + filepath.Join(prefix, "lib64", "libascendcl.so")}
	out, err := cmd.CombinedOutput()
	t.Logf("pytest:\n%s", out)
	if err != nil {
		t.Fatalf("pytest: %v", err)
	}
	if os.Getenv("GOCANN_REQUIRE_PYTEST") != "" && strings.Contains(string(out), " skipped") {
		t.Fatal("pytest skipped tests where the whole suite must run")
	}
}
