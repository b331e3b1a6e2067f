// The exception information handed to exception callbacks; C code sees it
// only through the aclrtGet*FromExceptionInfo getters.
#ifndef GOCANN_CAPI_EXCEPTION_H
#define GOCANN_CAPI_EXCEPTION_H

#include <stdint.h>
#include <string.h>
#include "acl/acl.h"

enum { GOCANN_EXC_ARGS = 32 };

struct rtExceptionInfo {
	uint32_t task_id;
	uint32_t stream_id;
	uint32_t thread_id;
	uint32_t device_id;
	uint32_t error_code;
	uint32_t is_kernel;              // a kernel's fault: func and args below are set
	uintptr_t func;                  // its function handle, 0 if C holds none
	uint32_t nargs;                  // argument slots in args
	uint64_t args[GOCANN_EXC_ARGS];  // the argument slots, as the kernel ran
};

// gocann_exception_info fills info; args (nargs slots, at most
// GOCANN_EXC_ARGS) are copied into it.
static inline void gocann_exception_info(struct rtExceptionInfo *info, uint32_t task, uint32_t stream,
					 uint32_t thread, uint32_t device, uint32_t code, uint32_t is_kernel,
					 uintptr_t func, const uint64_t *args, uint32_t nargs) {
	memset(info, 0, sizeof *info);
	info->task_id = task;
	info->stream_id = stream;
	info->thread_id = thread;
	info->device_id = device;
	info->error_code = code;
	info->is_kernel = is_kernel;
	info->func = func;
	if (nargs > GOCANN_EXC_ARGS) {
		nargs = GOCANN_EXC_ARGS;
	}
	if (nargs > 0) {
		memcpy(info->args, args, nargs * sizeof info->args[0]);
	}
	info->nargs = nargs;
}

// gocann_call_exception calls an exception callback with its info.
static inline void gocann_call_exception(aclrtExceptionInfoCallback cb, uint32_t task, uint32_t stream,
					  uint32_t thread, uint32_t device, uint32_t code, uint32_t is_kernel,
					  uintptr_t func, const uint64_t *args, uint32_t nargs) {
	struct rtExceptionInfo info;
	gocann_exception_info(&info, task, stream, thread, device, code, is_kernel, func, args, nargs);
	cb(&info);
}

// gocann_call_op_exception calls a binary's exception callback with its
// info and the callback's user data.
static inline void gocann_call_op_exception(aclrtOpExceptionCallback cb, void *user, uint32_t task, uint32_t stream,
					     uint32_t thread, uint32_t device, uint32_t code, uint32_t is_kernel,
					     uintptr_t func, const uint64_t *args, uint32_t nargs) {
	struct rtExceptionInfo info;
	gocann_exception_info(&info, task, stream, thread, device, code, is_kernel, func, args, nargs);
	cb(&info, user);
}

#endif
