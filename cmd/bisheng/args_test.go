package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	p, err := parse(strings.Fields("-std=c++17 --npu-arch=dav-2201 -O2 -DX=1 -I inc -MD -MT a.o -MF a.d -o a.o -c --asc-aicore-lang a.asc --npu-arch=dav-2201 -Xaicore-start -O3 -Xaicore-end --run-mode=cpu"))
	if err != nil {
		t.Fatal(err)
	}
	if p.mode != modeCompile || p.output != "a.o" || p.arch != "dav-2201" || p.runMode != "cpu" || !p.std ||
		len(p.inputs) != 1 || p.inputs[0].lang != langASC || p.depFile != "a.d" {
		t.Errorf("plan %+v", p)
	}
	if got := strings.Join(p.compile, " "); got != "-std=c++17 -O2 -DX=1 -Iinc -O3" {
		t.Errorf("compile flags %q", got)
	}
	p, err = parse(strings.Fields("main.cpp k.asc lib.a -lm -Wl,-z,now -o demo"))
	if err != nil {
		t.Fatal(err)
	}
	if p.mode != modeLink || p.inputs[0].lang != langCXX || p.inputs[1].lang != langASC || p.inputs[2].lang != langLink ||
		strings.Join(p.link, " ") != "-lm -Wl,-z,now" {
		t.Errorf("plan %+v", p)
	}
}

func TestKernelOpt(t *testing.T) {
	for line, want := range map[string]string{
		"":              "-O2",
		"-DX=1 -g":      "-O2",
		"-O0 -g":        "",
		"-O3 -DNDEBUG":  "",
		"-Os":           "",
		"-std=c++17 -O": "",
	} {
		if got := strings.Join(kernelOpt(strings.Fields(line)), " "); got != want {
			t.Errorf("kernelOpt(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestParseRefusals(t *testing.T) {
	for line, want := range map[string]string{
		"--npu-arch=dav-9999 a.asc":                     "--npu-arch=dav-9999: unknown architecture, expected one of dav-1001, dav-2002, dav-2201, dav-3002, dav-3505, dav-3510",
		"--npu-arch=dav-2201 --npu-arch=dav-3510 a.asc": "--npu-arch=dav-3510 conflicts with --npu-arch=dav-2201 given before",
		"--run-mode=fpga a.asc":                         "--run-mode=fpga: expected npu, sim or cpu",
		"--frobnicate a.asc":                            "unknown option '--frobnicate'",
		"-Xaicore-start --cce-magic -Xaicore-end a.asc": "-Xaicore-start: unknown option '--cce-magic'",
		"-Xhost-start -O2 a.asc":                        "-Xhost-start without -Xhost-end",
		"-mllvm -cce-aicore-stack-size=0x8000 a.asc":    "'-mllvm -cce-aicore-stack-size=0x8000' tunes the AI core's compiler",
		"--enable-simt a.asc":                           "--enable-simt: SIMT compilation of Ascend C sources is not supported yet",
		"-x fortran a.f":                                "-x fortran: unknown language",
		"-c a.asc b.asc -o x.o":                         "cannot specify -o with -c, -dc, -S or -E with 2 source files",
		"-lib a.asc":                                    "-lib needs -o",
		"-o demo":                                       "no input files",
		"a.asc -o":                                      "option '-o' needs a value",
	} {
		_, err := parse(strings.Fields(line))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parse(%q): %v, want %q", line, err, want)
		}
	}
}

func TestRunReportsErrors(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"--frobnicate", "a.asc"}, &out, &errs); code != 1 ||
		!strings.Contains(errs.String(), "bisheng: error: unknown option '--frobnicate'") {
		t.Errorf("exit %d, stderr %q", code, errs.String())
	}
	out.Reset()
	if code := run([]string{"--help"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "usage: bisheng") {
		t.Errorf("--help: exit %d, stdout %q", code, out.String())
	}
}
