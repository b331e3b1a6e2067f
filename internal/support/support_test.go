package support

import (
	"os"
	"strings"
	"testing"

	"github.com/gocann/gocann/internal/rterr"
	"github.com/gocann/gocann/internal/support/matrix"
)

func TestMatrixRoundTrip(t *testing.T) {
	text, err := os.ReadFile("matrix.txt")
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := matrix.Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := matrix.Format(parsed); got != string(text) {
		t.Error("matrix.txt is not in the form extract writes")
	}
	compiled := rows()
	if len(compiled) != len(parsed) {
		t.Fatalf("zz_matrix.go has %d rows, matrix.txt %d: run go generate", len(compiled), len(parsed))
	}
	for i, r := range parsed {
		if compiled[i] != r {
			t.Fatalf("zz_matrix.go row %d is %+v, matrix.txt says %+v: run go generate", i, compiled[i], r)
		}
		if s, sup, ok := lookup(r.Func); !ok || s != r.Stated || sup != r.Supported {
			t.Fatalf("lookup(%s) = %#x, %#x, %v; want %#x, %#x", r.Func, s, sup, ok, r.Stated, r.Supported)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for text, want := range map[string]string{
		"aclrtA + +\n":             "expected a name and 8 marks",
		"aclrtA + + + + + + + x\n": "mark \"x\" for IPV350 is invalid",
		"aclrtB + + + + + + + +\naclrtA + + + + + + + +\n": "out of order",
	} {
		if _, err := matrix.Parse(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", text, err, want)
		}
	}
}

func TestSupported(t *testing.T) {
	// From the reference: aclrtActiveStream is not on Atlas A3, is on A2;
	// aclrtMemMapSelectedLink is on A3 alone.
	for _, c := range []struct {
		fn       string
		p        Product
		sup, lst bool
	}{
		{"aclrtActiveStream", AtlasA3, false, true},
		{"aclrtActiveStream", AtlasA2, true, true},
		{"aclrtMemMapSelectedLink", AtlasA3, true, true},
		{"aclrtMemMapSelectedLink", AtlasA2, false, true},
		{"aclrtMemMapSelectedLink", Ascend950PR, false, true},
		{"aclrtNoSuchFunction", AtlasA2, true, false},
		// aclrtSubscribeHostFunc is on IPV350 alone, aclrtCreateStream on
		// every product but IPV350, aclrtCreateStreamV2 on IPV350 alone.
		{"aclrtSubscribeHostFunc", IPV350, true, true},
		{"aclrtSubscribeHostFunc", AtlasTraining, false, true},
		{"aclrtCreateStream", IPV350, false, true},
		{"aclrtCreateStream", AtlasTraining, true, true},
		{"aclrtCreateStreamV2", IPV350, true, true},
	} {
		if sup, lst := Supported(c.fn, c.p); sup != c.sup || lst != c.lst {
			t.Errorf("Supported(%s, %s) = %v, %v; want %v, %v", c.fn, c.p.Key(), sup, lst, c.sup, c.lst)
		}
	}
}

func TestProductOf(t *testing.T) {
	for soc, want := range map[string]Product{
		"Ascend910B1": AtlasA2, "Ascend910B4": AtlasA2, "Ascend910_9391": AtlasA3, "Ascend910_9362": AtlasA3,
		"Ascend950PR_9599": Ascend950PR, "Ascend950DT_9571": Ascend950DT, "Ascend310P3": AtlasInference,
		"Ascend310B1": Atlas200I500A2, "Ascend910A": AtlasTraining, "Ascend910": AtlasTraining,
		"Ascend910ProA": AtlasTraining, "Ascend910ProB": AtlasTraining, "Ascend910PremiumA": AtlasTraining,
		// Ascend910B alone is the 30-core training part (NPU architecture
		// 1001 in CANN's platform configuration), not an Atlas A2 chip.
		"Ascend910B": AtlasTraining, "Ascend910B2C": AtlasA2, "Ascend910B4-1": AtlasA2,
		"Ascend035": IPV350, "Ascend035A": IPV350, "Ascend035B": IPV350,
	} {
		if got, ok := ProductOf(soc); !ok || got != want {
			t.Errorf("ProductOf(%s) = %s, %v; want %s", soc, got.Key(), ok, want.Key())
		}
	}
	for _, soc := range []string{"FakeNPU", "Ascend310", "Ascend031", "Ascend350_354f"} {
		if p, ok := ProductOf(soc); ok {
			t.Errorf("ProductOf(%s) = %s, want no product", soc, p.Key())
		}
	}
}

func TestCheck(t *testing.T) {
	if err := Check("aclrtActiveStream", "Ascend910B1"); err != nil {
		t.Errorf("Check on A2: %v", err)
	}
	if err := Check("aclrtActiveStream", "FakeNPU"); err != nil {
		t.Errorf("Check on an unknown chip: %v", err)
	}
	if err := Check("aclrtSubscribeHostFunc", "Ascend035"); err != nil {
		t.Errorf("Check of aclrtSubscribeHostFunc on IPV350: %v", err)
	}
	if _, msg, _, _ := rterr.Classify(Check("aclrtCreateStream", "Ascend035")); !strings.Contains(msg, "aclrtCreateStream is not supported on Ascend035 (IPV350)") {
		t.Errorf("Check of aclrtCreateStream on IPV350: %q, want the function, chip and product named", msg)
	}
	err := Check("aclrtActiveStream", "Ascend910_9391")
	k, msg, _, ok := rterr.Classify(err)
	if !ok || k != rterr.KindNotSupported || !strings.Contains(msg, "aclrtActiveStream is not supported on Ascend910_9391 (Atlas A3") {
		t.Errorf("Check on A3 = %v (kind %v), want not supported naming the function and chip", err, k)
	}
	un := Unsupported()
	found := false
	for i, fn := range un {
		if i > 0 && un[i-1] >= fn {
			t.Fatalf("Unsupported is not sorted at %s", fn)
		}
		found = found || fn == "aclrtActiveStream"
	}
	if !found {
		t.Error("Unsupported lacks aclrtActiveStream")
	}
}
