// The calls that report errors. When the core cannot serve calls (it could
// not be loaded, or this is a child forked after it started), they answer
// from the thread's record, which then holds the reason.

#include "front.h"

const char *aclGetRecentErrMsg(void) {
	gocann_thread *t = gocann_self();
	if (gocann_core_ready() || gocann_core_enter(t, "aclGetRecentErrMsg") == 0) {
		return gocann_core.aclGetRecentErrMsg(t);
	}
	return gocann_take_msgs(t);
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
	gocann_thread *t = gocann_self();
	if (gocann_core_ready() || gocann_core_enter(t, "aclrtPeekAtLastError") == 0) {
		return gocann_core.aclrtPeekAtLastError(t, level);
	}
	return level == ACL_RT_THREAD_LEVEL ? t->last_error : ACL_ERROR_INVALID_PARAM;
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
	gocann_thread *t = gocann_self();
	if (gocann_core_ready() || gocann_core_enter(t, "aclrtGetLastError") == 0) {
		return gocann_core.aclrtGetLastError(t, level);
	}
	if (level != ACL_RT_THREAD_LEVEL) {
		return ACL_ERROR_INVALID_PARAM;
	}
	aclError e = t->last_error;
	t->last_error = 0;
	return e;
}
