// The error messages of a thread's record, shared by the front and the
// core: each library builds this file, and neither keeps state here.

#include <stdlib.h>
#include <string.h>
#include "thread.h"

void gocann_push_msg(gocann_thread *t, const char *msg, size_t n) {
	if (t->msgs_n >= GOCANN_MAX_MSGS) {
		return;
	}
	size_t need = t->msgs_len + n + 2;
	if (need > t->msgs_cap) {
		size_t cap = need * 2;
		char *p = realloc(t->msgs, cap);
		if (p == NULL) {
			return;
		}
		t->msgs = p;
		t->msgs_cap = cap;
	}
	// Newest first: shift the older messages behind the new line.
	size_t shift = t->msgs_len ? n + 1 : n;
	memmove(t->msgs + shift, t->msgs, t->msgs_len);
	memcpy(t->msgs, msg, n);
	if (t->msgs_len) {
		t->msgs[n] = '\n';
	}
	t->msgs_len += shift;
	t->msgs[t->msgs_len] = '\0';
	t->msgs_n++;
}

const char *gocann_take_msgs(gocann_thread *t) {
	free(t->msgs_out);
	if (t->msgs_len == 0) {
		t->msgs_out = NULL; // no failure since the last call
	} else {
		t->msgs_out = t->msgs;
		t->msgs = NULL;
		t->msgs_len = t->msgs_cap = 0;
		t->msgs_n = 0;
	}
	return t->msgs_out;
}

void gocann_free_msgs(gocann_thread *t) {
	free(t->msgs);
	free(t->msgs_out);
	t->msgs = t->msgs_out = NULL;
	t->msgs_len = t->msgs_cap = 0;
	t->msgs_n = 0;
}
