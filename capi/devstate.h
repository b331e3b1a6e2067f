// Calls of the C callbacks registered for device state changes and device
// task aborts; the user's argument travels as an integer through Go.
#ifndef GOCANN_CAPI_DEVSTATE_H
#define GOCANN_CAPI_DEVSTATE_H

#include <stdint.h>
#include "acl/acl.h"

static inline void gocann_call_devstate(aclrtDeviceStateCallback cb, int32_t dev, int32_t st, uintptr_t args) {
	cb(dev, (aclrtDeviceState)st, (void *)args);
}

static inline int32_t gocann_call_abort(aclrtDeviceTaskAbortCallback cb, int32_t dev, int32_t st, uint32_t timeout,
					uintptr_t args) {
	return cb(dev, (aclrtDeviceTaskAbortStage)st, timeout, (void *)args);
}


static inline void gocann_call_streamstate(aclrtStreamStateCallback cb, uintptr_t stm, int32_t st, uintptr_t args) {
	cb((aclrtStream)stm, (aclrtStreamState)st, (void *)args);
}

#endif
