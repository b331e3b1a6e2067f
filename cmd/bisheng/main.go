// Command bisheng is gocann's compiler driver for Ascend C, under the name
// CANN's compiler has: it builds single-source Ascend C programs (.asc
// files, or -x asc), host sources and objects into programs and libraries
// that run their kernels on the simulated NPU, with the host's own C++
// compiler. make install puts it in the install tree's bin/, and the ASC
// CMake language (find_package(ASC)) calls it.
//
// An Ascend C source is rewritten first (internal/asc): <<<>>> launches
// become calls that launch the kernel through libascendcl, a kernel's
// printf prints with its block, asm("trap") traps; then it is compiled as
// C++17 after a prelude that defines the qualifiers (__global__,
// __aicore__, __gm__, ...) away. Kernels are host functions linked into
// the program, as the devkit's kernels are into its binaries, so whole-
// program and separate compilation (-dc) are the same. Programs and
// shared libraries link libascendcl. With -DGEN_ACLRT=dir, as CANN's
// kernel CMake passes it, each kernel also gets a launch function and its
// header, aclrtlaunch_<kernel>.h, in dir. What the driver cannot honour (an
// option for the AI core's compiler, inline assembly in a kernel) is an
// error naming it, never dropped in silence.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gocann/gocann/internal/asc"
)

const usage = `usage: bisheng [options] files...

Builds Ascend C sources (.asc, or after -x asc) with host C++ and C sources
and objects into programs and libraries whose kernels run on gocann's
simulated NPU, with the host compiler (g++, or GOCANN_HOST_CXX).

  -c, -dc                compile to objects (separate compilation is the same)
  -E, -S                 preprocess, or compile to assembly
  -o file                the output
  -shared                link a shared library
  -lib                   compile and archive a static library
  -x asc|c++|c|none      the language of the files that follow
  --asc-aicore-lang      the files that follow are Ascend C
  --npu-arch=dav-XXXX    the architecture: defines __NPU_ARCH__
  --run-mode=npu|sim|cpu all run on the simulated NPU; cpu defines
                         ASCENDC_CPU_DEBUG=1 for sources that test it
  -Xhost-start ... -Xhost-end, -Xaicore-start ... -Xaicore-end,
  -Xhost opt, -Xaicore opt
                         options for the host and the kernel code, which
                         are compiled together here
  -DGEN_ACLRT=dir        also write aclrtlaunch_<kernel>.h into dir for each
                         kernel an Ascend C source defines (ascendc_library
                         passes it), and the launch functions they declare
  -I -D -U -O -g -f -W -m -std= -M* -L -l -Wl, -pthread ...
                         as for the host compiler; Ascend C sources are
                         compiled -O2 unless an -O option is given
  -v                     print the commands run
  --help, --version
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	p, err := parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "bisheng: error: %v\n", err)
		fmt.Fprintln(stderr, "bisheng: run bisheng --help for the options")
		return 1
	}
	switch {
	case p.help:
		fmt.Fprint(stdout, usage)
		return 0
	case p.version:
		fmt.Fprintln(stdout, "bisheng (gocann) for the simulated NPU: Ascend C built with the host compiler")
		return 0
	}
	tc, err := newToolchain(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "bisheng: error: %v\n", err)
		return 1
	}
	if err := tc.run(p); err != nil {
		var tool *toolError
		var src *asc.Error
		switch {
		case errors.As(err, &tool):
			return 1 // the tool said why
		case errors.As(err, &src):
			fmt.Fprintln(stderr, src)
		default:
			fmt.Fprintf(stderr, "bisheng: error: %v\n", err)
		}
		return 1
	}
	return 0
}
