# Builds the C ABI (libascendcl.so) and installs a CANN-toolkit-shaped tree:
#
#   make install PREFIX=dir     dir/include/acl, dir/include/gocann,
#                               dir/lib64/libascendcl.so (+ libacl_rt.so link),
#                               dir/set_env.sh, dir/bin/setenv.bash
#
# After `source dir/set_env.sh`, a CANN program builds with
#   gcc app.c -I$ASCEND_HOME_PATH/include -L$ASCEND_HOME_PATH/lib64 -lascendcl

PREFIX ?= $(CURDIR)/install
BUILD  := $(CURDIR)/build
LIB    := $(BUILD)/libascendcl.so
# Other names CANN programs link the runtime by.
ALIASES := libacl_rt.so

.PHONY: all lib install clean
all: lib

lib:
	go build -buildmode=c-shared -ldflags '-extldflags -Wl,-soname,libascendcl.so' -o $(LIB) ./capi
	rm -f $(BUILD)/libascendcl.h

install: lib
	mkdir -p $(PREFIX)/include $(PREFIX)/lib64 $(PREFIX)/bin
	rm -rf $(PREFIX)/include/acl $(PREFIX)/include/gocann
	cp -R include/acl include/gocann $(PREFIX)/include/
	cp $(LIB) $(PREFIX)/lib64/libascendcl.so
	cd $(PREFIX)/lib64 && for a in $(ALIASES); do ln -sf libascendcl.so $$a; done
	prefix=$$(cd $(PREFIX) && pwd); \
	printf '%s\n' \
	  '# Environment for programs built against this gocann install.' \
	  "export ASCEND_HOME_PATH=$$prefix" \
	  "export ASCEND_INSTALL_PATH=$$prefix" \
	  "export ASCEND_TOOLKIT_HOME=$$prefix" \
	  "export LD_LIBRARY_PATH=$$prefix/lib64\$${LD_LIBRARY_PATH:+:\$$LD_LIBRARY_PATH}" \
	  > $(PREFIX)/set_env.sh; \
	cp $(PREFIX)/set_env.sh $(PREFIX)/bin/setenv.bash

clean:
	rm -rf $(BUILD)
