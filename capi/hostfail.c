// A host function or callback failing its task (gocann_host_func_fail):
// the message waits, per OS thread, until the function returns, and the
// core's call of the function takes it in the same C call, so the task
// it belongs to is never in doubt.

#include <stdlib.h>
#include <string.h>
#include "hostfail.h"

static __thread char *failure;

void gocann_host_func_fail(const char *message) {
	free(failure);
	failure = strdup(message != NULL ? message : "");
}

char *gocann_host_take_failure(void) {
	char *m = failure;
	failure = NULL;
	return m;
}
