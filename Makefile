# Builds the C ABI and installs a CANN-toolkit-shaped tree:
#
#   make lib [BUILD=dir]        dir/libascendcl.so (the front library, C),
#                               dir/libgocann_core.so (the runtime, Go),
#                               the aliases dir/libacl_rt.so, libacl_rt_impl.so,
#                               libascend_dump.so, libmsprofiler.so and
#                               libprofapi.so, and dir/libc_sec.so (the
#                               bounds-checking C library, csec/)
#   make install PREFIX=dir     dir/include/acl, dir/include/gocann,
#                               dir/include/profiling,
#                               dir/include/securec.h and securectype.h,
#                               dir/lib64/ (the libraries above),
#                               dir/bin/bisheng (the Ascend C compiler driver),
#                               dir/bin/msprof (the profiler; also where CANN
#                               keeps it, dir/tools/profiler/bin, and
#                               dir/toolkit/tools/profiler/bin),
#                               dir/lib64/cmake/asc-config.cmake (find_package(ASC)),
#                               dir/<arch>-linux/tikcpp/ascendc_kernel_cmake/ (ascendc.cmake,
#                               the ASC language modules; reached through
#                               dir/compiler/tikcpp and dir/tools/tikcpp as in CANN),
#                               dir/tools/tikicpulib/lib/cmake (find_package(tikicpulib)),
#                               dir/python/site-packages/acl (the Python module),
#                               dir/share/info/runtime/version.info (the
#                               package gocann is, which aclsysGetVersionStr
#                               reads, as CANN's packages record theirs),
#                               dir/set_env.sh, dir/bin/setenv.bash
#
# After `source dir/set_env.sh`, a CANN program builds with
#   gcc app.c -I$ASCEND_HOME_PATH/include -L$ASCEND_HOME_PATH/lib64 -lascendcl
# and a CANN CMake project with include(${ASCENDC_CMAKE_DIR}/ascendc.cmake).
# set_env.sh exports SOC_VERSION, the simulated chip's SoC name: that of
# GOCANN_SOC_NAME when set, else the default chip's (SOC_DEFAULT, which
# TestInstall keeps equal to the simulator's).
#
# The front loads the core, from beside itself, on the first call that
# needs it (capi/front/load.c).
#
# Checked builds, for the C test harness:
#   RACE=1       the core with Go's race detector. Its shadow memory covers
#                only low addresses, so the core is linked to load at
#                CORE_BASE (a hint the dynamic loader follows when the range
#                is free); a core at the usual high addresses fails at start.
#   SANITIZE=1   the C of both libraries with AddressSanitizer and
#                UndefinedBehaviorSanitizer; programs using them must be
#                built with -fsanitize=address,undefined too.

PREFIX ?= $(CURDIR)/install
SOC_DEFAULT := Ascend910B1
# Where CANN's toolkit keeps ascendc.cmake for this host (example/set_sample_env.sh
# looks there first).
ARCH_DIR := $(shell uname -m | sed -e 's/^amd64$$/x86_64/' -e 's/^arm64$$/aarch64/')-linux
ASCENDC_CMAKE := $(ARCH_DIR)/tikcpp/ascendc_kernel_cmake
# Where CANN's toolkit keeps pyACL, the Python module acl (its set_env.sh
# puts this directory on PYTHONPATH).
PYTHON_SITE := python/site-packages
# The version of the package gocann is (version.go's RuntimeVersion), for
# its version.info.
RUNTIME_VERSION := $(shell sed -n 's/^[[:space:]]*RuntimeVersion[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' version.go)
BUILD  ?= $(CURDIR)/build
FRONT  := $(BUILD)/libascendcl.so
CORE   := $(BUILD)/libgocann_core.so
# Other names CANN programs link the runtime by: the documented one, the
# implementation library some link by path, the dump library that
# acl_dump.h's functions are documented in, and the profiling libraries
# that hold acl_prof.h's (libmsprofiler.so) and profiling/aprof_pub.h's
# (libprofapi.so) functions.
ALIASES := libacl_rt.so libacl_rt_impl.so libascend_dump.so libmsprofiler.so libprofapi.so

GO     ?= go
ifeq ($(origin CC),default)
CC     := gcc
endif
RACE   ?=
CFLAGS ?= -O2 -g

SANITIZE  ?=
CORE_BASE ?= 0x6000000000
comma := ,
SAN_FLAGS := $(if $(SANITIZE),-fsanitize=address$(comma)undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
CORE_LDFLAGS := -Wl,-soname,libgocann_core.so -Wl,-Bsymbolic -Wl,-z,nodelete \
  $(if $(RACE),-Wl$(comma)-Ttext-segment=$(CORE_BASE)) $(SAN_FLAGS)

FRONT_SRC := $(wildcard capi/front/*.c) capi/thread.c
FRONT_HDR := $(wildcard capi/front/*.h) capi/thread.h

# libc_sec.so, the bounds-checking C library (securec.h) CANN installs
# beside the runtime and its samples link.
CSEC     := $(BUILD)/libc_sec.so
CSEC_SRC := $(wildcard csec/*.c)
CSEC_HDR := $(wildcard csec/*.h csec/*.inc)

.PHONY: all lib core front csec install clean
all: lib

lib: core front csec
	cd $(BUILD) && for a in $(ALIASES); do ln -sf libascendcl.so $$a; done

# The core binds its own symbols (-Bsymbolic), so the front's functions of
# the same names never stand in for them.
core:
	mkdir -p $(BUILD)
	CGO_CFLAGS="$(CFLAGS) $(SAN_FLAGS)" CGO_CXXFLAGS="$(CFLAGS) $(SAN_FLAGS)" CGO_LDFLAGS="$(SAN_FLAGS)" \
	  $(GO) build $(if $(RACE),-race) -buildmode=c-shared \
	  -ldflags '-extldflags "$(CORE_LDFLAGS)"' -o $(CORE) ./capi
	rm -f $(BUILD)/libgocann_core.h

# Only the API (ACL_FUNC_VISIBILITY) and the kernel functions are exported.
front: $(FRONT_SRC) $(FRONT_HDR)
	mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -std=c11 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
	  -DFUNC_VISIBILITY -Iinclude -Icapi -Icapi/front -Wl,-soname,libascendcl.so -Wl,-z,nodelete \
	  -o $(FRONT) $(FRONT_SRC) -ldl -lm -pthread

# Only the functions securec.h declares (SECUREC_API) are exported.
csec: $(CSEC_SRC) $(CSEC_HDR)
	mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -std=c11 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
	  -DSECUREC_DLL_EXPORT -Icsec -Wl,-soname,libc_sec.so -o $(CSEC) $(CSEC_SRC)

install: lib
	mkdir -p $(PREFIX)/include $(PREFIX)/lib64 $(PREFIX)/bin
	rm -rf $(PREFIX)/include/acl $(PREFIX)/include/gocann $(PREFIX)/include/profiling
	cp -R include/acl include/gocann include/profiling $(PREFIX)/include/
	cp csec/securec.h csec/securectype.h $(PREFIX)/include/
	cp $(FRONT) $(CORE) $(CSEC) $(PREFIX)/lib64/
	cd $(PREFIX)/lib64 && for a in $(ALIASES); do ln -sf libascendcl.so $$a; done
	$(GO) build -o $(PREFIX)/bin/bisheng ./cmd/bisheng
	$(GO) build -o $(PREFIX)/bin/msprof ./cmd/msprof
	mkdir -p $(PREFIX)/tools/profiler/bin
	ln -sfn ../../../bin/msprof $(PREFIX)/tools/profiler/bin/msprof
	mkdir -p $(PREFIX)/$(ASCENDC_CMAKE)/asc_modules $(PREFIX)/lib64/cmake $(PREFIX)/$(ARCH_DIR)/ccec_compiler/bin
	cp cmake/ascendc.cmake $(PREFIX)/$(ASCENDC_CMAKE)/
	cp cmake/asc/asc_modules/* $(PREFIX)/$(ASCENDC_CMAKE)/asc_modules/
	cp cmake/asc/asc-config.cmake $(PREFIX)/lib64/cmake/
	ln -sfn ../../../lib64/cmake/asc-config.cmake $(PREFIX)/$(ASCENDC_CMAKE)/asc-config.cmake
	ln -sfn ../../../bin/bisheng $(PREFIX)/$(ARCH_DIR)/ccec_compiler/bin/bisheng
	mkdir -p $(PREFIX)/compiler $(PREFIX)/tools
	ln -sfn ../$(ARCH_DIR)/tikcpp $(PREFIX)/compiler/tikcpp
	ln -sfn ../$(ARCH_DIR)/tikcpp $(PREFIX)/tools/tikcpp
	ln -sfn ../$(ARCH_DIR)/ccec_compiler $(PREFIX)/tools/ccec_compiler
	mkdir -p $(PREFIX)/tools/tikicpulib/lib/cmake $(PREFIX)/toolkit/tools
	cp cmake/tikicpulib/*.cmake $(PREFIX)/tools/tikicpulib/lib/cmake/
	ln -sfn ../../../include/gocann/ascendc $(PREFIX)/tools/tikicpulib/lib/include
	ln -sfn ../../tools/tikicpulib $(PREFIX)/toolkit/tools/tikicpulib
	ln -sfn ../../tools/profiler $(PREFIX)/toolkit/tools/profiler
	mkdir -p $(PREFIX)/$(PYTHON_SITE)
	rm -rf $(PREFIX)/$(PYTHON_SITE)/acl
	mkdir -p $(PREFIX)/$(PYTHON_SITE)/acl
	cp python/acl/*.py $(PREFIX)/$(PYTHON_SITE)/acl/
	@test -n "$(RUNTIME_VERSION)" || { echo "RuntimeVersion not found in version.go" >&2; exit 1; }
	mkdir -p $(PREFIX)/share/info/runtime
	printf '%s\n' 'Version=$(RUNTIME_VERSION)' \
	  "version_dir=CANN-$$(echo '$(RUNTIME_VERSION)' | cut -d. -f1,2)" \
	  "timestamp=$$(date -u +%Y%m%d_%H%M%S000)" > $(PREFIX)/share/info/runtime/version.info
	prefix=$$(cd $(PREFIX) && pwd); \
	printf '%s\n' \
	  '# Environment for programs built against this gocann install.' \
	  "export ASCEND_HOME_PATH=$$prefix" \
	  "export ASCEND_INSTALL_PATH=$$prefix" \
	  "export ASCEND_TOOLKIT_HOME=$$prefix" \
	  "export LD_LIBRARY_PATH=$$prefix/lib64\$${LD_LIBRARY_PATH:+:\$$LD_LIBRARY_PATH}" \
	  "export PATH=$$prefix/bin\$${PATH:+:\$$PATH}" \
	  '# find_package(ASC) and find_package(tikicpulib), as CANN finds them.' \
	  "export CMAKE_PREFIX_PATH=$$prefix/toolkit/tools/tikicpulib/lib/cmake:$$prefix/lib64/cmake\$${CMAKE_PREFIX_PATH:+:\$$CMAKE_PREFIX_PATH}" \
	  "export ASCENDC_CMAKE_DIR=$$prefix/$(ASCENDC_CMAKE)" \
	  "export PYTHONPATH=$$prefix/$(PYTHON_SITE)\$${PYTHONPATH:+:\$$PYTHONPATH}" \
	  '# The simulated chip: GOCANN_SOC_NAME if set, else the default.' \
	  "export SOC_VERSION=\$${GOCANN_SOC_NAME:-$(SOC_DEFAULT)}" \
	  > $(PREFIX)/set_env.sh; \
	cp $(PREFIX)/set_env.sh $(PREFIX)/bin/setenv.bash

clean:
	rm -rf $(BUILD)
