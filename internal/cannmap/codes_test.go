package cannmap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodesFresh fails when zz_codes.go or a header's result codes differ
// from what codes.txt gives: run go generate in the repository root.
func TestCodesFresh(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := CodeFiles(func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("the table gives %d files, want zz_codes.go and two headers", len(files))
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale; run go generate in the repository root", path)
		}
	}
}

// TestCodesTable checks the table itself: the values CANN defines for a
// few codes, one Go name per code but the aliases, and every code in a
// group.
func TestCodesTable(t *testing.T) {
	hs, err := ParseCodes(codesTable)
	if err != nil {
		t.Fatal(err)
	}
	byC := map[string]CodeEntry{}
	aliases := 0
	for _, h := range hs {
		for _, g := range h.Groups {
			if len(g.Comment) == 0 || len(g.Codes) == 0 {
				t.Errorf("%s has a group without a comment or codes: %+v", h.Path, g)
			}
			for _, e := range g.Codes {
				byC[e.C] = e
				if e.Go == "" {
					aliases++
				}
			}
		}
	}
	for name, v := range map[string]int32{"ACL_SUCCESS": 0, "ACL_ERROR_INVALID_PARAM": 100000, "ACL_ERROR_RT_PARAM_INVALID": 107000,
		"ACL_ERROR_RT_FEATURE_NOT_SUPPORT": 207000, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT": 507046, "ACL_ERROR_RT_CCU_EXCEPTION": 507916} {
		if e, ok := byC[name]; !ok || e.Value != v {
			t.Errorf("%s is %+v, want %d", name, e, v)
		}
	}
	if aliases != 2 || byC["ACL_ERROR_NONE"].Go != "" || byC["ACL_RT_SUCCESS"].Go != "" {
		t.Errorf("%d codes have no Go name, want the two aliases of success", aliases)
	}
}

// TestParseCodesRejects: a malformed table is an error naming its line,
// never a partial one.
func TestParseCodesRejects(t *testing.T) {
	for _, src := range []string{
		"ACL_X 1 X\n",                               // no header
		"@ a.h const\nACL_X 1 X\n",                  // no group
		"@ a.h other\n-- g\nACL_X 1 X\n",            // unknown style
		"@ a.h const\n-- g\nACL_X one X\n",          // bad value
		"@ a.h const\n-- g\nACL_X 1\n",              // no Go name
		"@ a.h const\n-- g\nACL_X 1 X\nACL_X 2 Y\n", // C name twice
		"@ a.h const\n-- g\nACL_X 1 X\nACL_Y 2 X\n", // Go name twice
		"@ a.h const\n-- g\nACL_X 4294967296 X\n",   // not an int32
	} {
		if _, err := ParseCodes(src); err == nil || !strings.Contains(err.Error(), "codes.txt:") {
			t.Errorf("ParseCodes(%q) = %v, want an error naming the line", src, err)
		}
	}
}
