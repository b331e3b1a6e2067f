// The exception information handed to exception callbacks; C code sees it
// only through the aclrtGet*FromExceptionInfo getters.
#ifndef GOCANN_CAPI_EXCEPTION_H
#define GOCANN_CAPI_EXCEPTION_H

#include <stdint.h>
#include "acl/acl.h"

struct rtExceptionInfo {
	uint32_t task_id;
	uint32_t stream_id;
	uint32_t thread_id;
	uint32_t device_id;
	uint32_t error_code;
};

// gocann_call_exception calls an exception callback with info.
static inline void gocann_call_exception(aclrtExceptionInfoCallback cb, uint32_t task, uint32_t stream,
					  uint32_t thread, uint32_t device, uint32_t code) {
	struct rtExceptionInfo info = {task, stream, thread, device, code};
	cb(&info);
}

// gocann_call_op_exception calls a binary's exception callback with info
// and the callback's user data.
static inline void gocann_call_op_exception(aclrtOpExceptionCallback cb, void *user, uint32_t task, uint32_t stream,
					     uint32_t thread, uint32_t device, uint32_t code) {
	struct rtExceptionInfo info = {task, stream, thread, device, code};
	cb(&info, user);
}

#endif
