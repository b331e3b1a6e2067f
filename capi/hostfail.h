#ifndef GOCANN_CAPI_HOSTFAIL_H
#define GOCANN_CAPI_HOSTFAIL_H

// gocann_host_func_fail is include/gocann/host.h's; the core's own copy
// records the failure of the host function running on this thread.
void gocann_host_func_fail(const char *message);
// gocann_host_take_failure returns the failure recorded on this thread
// since the last take (the caller frees it), or NULL.
char *gocann_host_take_failure(void);

#endif
