package python_test

import (
	"os"
	"os/exec"
	"path/filepath"
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
	if _, err := os.Stat(python); err != nil {
		t.Skipf("%s not found: the Python suite needs Debian's python3 (apt-get install python3 python3-pytest)", python)
	}
	if out, err := exec.Command(python, "-c", "import pytest").CombinedOutput(); err != nil {
		t.Skipf("%s cannot import pytest (apt-get install python3-pytest): %v\n%s", python, err, out)
	}
	for _, tool := range []string{"make", "gcc", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the Python suite installs the libraries with make and gcc", tool)
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
}
