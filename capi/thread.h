// Per-OS-thread state of the C ABI: the current device and context, the
// last error and the error messages aclGetRecentErrMsg returns. The front
// library owns it: each API function finds it with gocann_self() and hands
// it to the core, in C or Go.
#ifndef GOCANN_CAPI_THREAD_H
#define GOCANN_CAPI_THREAD_H

#include <stddef.h>
#include <stdint.h>

typedef struct gocann_thread {
	int32_t ready;          // fields below are initialized
	int32_t device;         // device set by aclrtSetDevice, -1 if none
	uint64_t context;       // current context handle, 0 if none
	int32_t last_error;     // aclrtPeekAtLastError / aclrtGetLastError
	int32_t capture_mode;   // aclmdlRICaptureThreadExchangeMode
	uint64_t pthread;       // pthread_self(), as report threads are named
	uint32_t tid;           // OS thread id
	uint32_t msgs_n;        // pending error messages, at most GOCANN_MAX_MSGS
	char *msgs;             // the pending messages, newest first
	size_t msgs_len, msgs_cap;
	char *msgs_out;         // the string last returned by aclGetRecentErrMsg
	void *direct;           // the core's slot for the direct launch path, NULL until the first
	uint32_t last_task;     // aclrtGetThreadLastTaskId: the task the direct path last queued on an explicit stream
	uint32_t last_task_go;  // 1 if the thread's last launch on an explicit stream went through Go: the runtime knows it
} gocann_thread;

// gocann_self returns the calling thread's record (front library only).
gocann_thread *gocann_self(void);

// GOCANN_MAX_MSGS bounds the messages pending for aclGetRecentErrMsg; as
// CANN's error manager does, later ones are not recorded until they are
// taken, so a thread that never asks does not grow without end.
enum { GOCANN_MAX_MSGS = 1000 };

// gocann_push_msg prepends a line to t's pending error messages.
void gocann_push_msg(gocann_thread *t, const char *msg, size_t n);

// gocann_take_msgs hands out t's pending messages and clears them; the
// string stays valid until the next call.
const char *gocann_take_msgs(gocann_thread *t);

// gocann_free_msgs frees t's messages, as its thread exits.
void gocann_free_msgs(gocann_thread *t);

// gocann_handle turns a handle value into the pointer C code holds.
static inline void *gocann_handle(uintptr_t h) { return (void *)h; }

#endif
