// A kernel's printf. The device prints each line of a block's printf
// calls with the block it came from, "[AIV Block i/n] ", and the runtime
// shows them when the launch ends, block by block; here a block's lines
// are kept in its thread's buffer and handed to the block's caller when
// it ends (gocann_take_prints), who writes them out in block order when
// the launch ends. Lines of the one-block launches of a batch are written
// when the batch ends, and a buffer past 1 MiB at once. Called outside a
// block, or by a SIMT thread (whose printf the device prints bare), it is
// printf.

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "block.h"

static __thread struct {
	char *buf;
	size_t len, cap;
	int midline; // the last line has no newline yet
} prints __attribute__((tls_model("initial-exec")));

__thread int gocann_printed;

enum { printsFlushAt = 1 << 20 };

static int keep(const char *s, size_t n);

// gocann_take_prints moves the calling thread's kept lines into fail and
// returns GOCANN_CALL_PRINTED; written out instead if they cannot move.
int gocann_take_prints(gocann_failure *fail) {
	if (prints.len == 0 || (prints.midline && keep("\n", 1) != 0)) {
		gocann_flush_prints();
		return 0;
	}
	fail->out = prints.buf;
	fail->out_len = prints.len;
	prints.buf = NULL;
	prints.len = prints.cap = 0;
	prints.midline = 0;
	gocann_printed = 0;
	return GOCANN_CALL_PRINTED;
}

// gocann_write_out writes a launch's printed lines, in order with the
// program's own stdout.
void gocann_write_out(const char *p, size_t n) {
	flockfile(stdout);
	fwrite(p, 1, n, stdout);
	fflush(stdout);
	funlockfile(stdout);
}

// gocann_flush_prints writes out the calling thread's kept lines.
void gocann_flush_prints(void) {
	if (prints.len == 0) {
		return;
	}
	flockfile(stdout);
	fwrite(prints.buf, 1, prints.len, stdout);
	if (prints.midline) {
		fputc('\n', stdout); // a block's last line ends with the block
	}
	fflush(stdout);
	funlockfile(stdout);
	prints.len = 0;
	prints.midline = 0;
	gocann_printed = 0;
}

static int keep(const char *s, size_t n) {
	if (prints.len + n > prints.cap) {
		size_t cap = prints.cap ? prints.cap : 4096;
		while (cap < prints.len + n) {
			cap *= 2;
		}
		char *b = realloc(prints.buf, cap);
		if (b == NULL) {
			return -1;
		}
		prints.buf = b;
		prints.cap = cap;
	}
	memcpy(prints.buf + prints.len, s, n);
	prints.len += n;
	gocann_printed = 1;
	return 0;
}

int gocann_kernel_vprintf(const char *fmt, va_list ap) {
	if (gocann_block.trap == NULL || gocann_block.simt != NULL) {
		return vprintf(fmt, ap);
	}
	char small[512], *text = small;
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small) {
		text = malloc((size_t)n + 1);
		if (text == NULL) {
			va_end(again);
			return -1;
		}
		vsnprintf(text, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	if (n < 0) {
		return n;
	}
	char prefix[64];
	int plen = snprintf(prefix, sizeof prefix, "[AIV Block %lld/%lld] ", (long long)gocann_block.idx,
			    (long long)gocann_block.num);
	for (const char *p = text, *end = text + n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl + 1 : end;
		if (!prints.midline) {
			keep(prefix, (size_t)plen);
		}
		keep(p, (size_t)(stop - p));
		prints.midline = nl == NULL;
		p = stop;
	}
	if (text != small) {
		free(text);
	}
	if (prints.len >= printsFlushAt) {
		gocann_flush_prints();
	}
	return n;
}

int gocann_kernel_printf(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int n = gocann_kernel_vprintf(fmt, ap);
	va_end(ap);
	return n;
}
