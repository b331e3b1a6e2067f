package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gocann/gocann/internal/cheader"
)

// TestFresh checks that acl/_api.py is what the headers give.
func TestFresh(t *testing.T) {
	want, err := render("..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "acl", "_api.py"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("python/acl/_api.py is stale; run go generate ./...")
	}
}

// TestParams checks the out-parameter rule and its exceptions on known
// declarations.
func TestParams(t *testing.T) {
	ts := &Types{Handles: map[string]bool{"aclrtStream": true}, Funcs: map[string]bool{}, Enums: map[string]bool{"aclrtRunMode": true},
		Structs: map[string]bool{"dim3": true, "aclrtMemcpyBatchAttr": true}, Ints: map[string]string{}, Consts: map[string]string{}}
	cases := []struct {
		fn, typ, name, arg, out string
	}{
		{"aclrtMalloc", "void**", "devPtr", "P:c_void_p", "c_void_p"},
		{"aclrtGetDeviceCount", "uint32_t*", "count", "P:c_uint32", "c_uint32"},
		{"aclrtCreateStream", "aclrtStream*", "stream", "P:c_void_p", "c_void_p"},
		{"aclrtGetRunMode", "aclrtRunMode*", "runMode", "P:c_int", "c_int"},
		{"aclrtMemcpy", "const void*", "src", "c_void_p", ""},
		{"aclrtMemcpy", "void*", "dst", "c_void_p", ""},
		{"aclInit", "const char*", "configPath", "c_char_p", ""},
		{"aclrtMemcpyBatch", "size_t*", "destMaxs", "c_void_p", ""},
		{"aclrtMemcpyBatch", "size_t*", "failIndex", "P:c_size_t", "c_size_t"},
		{"aclrtMemcpyBatch", "aclrtMemcpyBatchAttr*", "attrs", "c_void_p", ""},
		{"aclmdlRIGetStreams", "uint32_t*", "numStreams", "c_void_p", ""},
		{"aclrtLaunchKernelWithArgsArray", "void**", "args", "c_void_p", ""},
		{"aclrtLaunchKernel", "dim3", "grid", "S:dim3", ""},
		{"aclrtGetOpExecuteTimeout", "uint32_t* const", "timeoutMs", "P:c_uint32", "c_uint32"},
		{"aclrtGetLogicDevIdByUserDevId", "const int32_t", "userDevid", "c_int32", ""},
		{"aclrtMemcpy", "const void* const", "src", "c_void_p", ""},
	}
	for _, c := range cases {
		arg, out, err := ts.param(cheader.Decl{Name: c.fn}, cheader.Param{Type: c.typ, Name: c.name})
		if err != nil || arg != c.arg || out != c.out {
			t.Errorf("%s(%s %s): %q, %q, %v; want %q, %q", c.fn, c.typ, c.name, arg, out, err, c.arg, c.out)
		}
	}
}
