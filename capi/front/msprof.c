// profiling/aprof_pub.h: the part of the profiling library's interface
// programs call beside acl/acl_prof.h, which the generated front (from the
// acl headers) does not cover. The model id table and the string ids live
// in the core; the clock is the timelines' own.

#include <stdint.h>
#include <time.h>
#include "front.h"
#include "profiling/aprof_pub.h"

static int32_t (*core_set_model)(gocann_thread *, uint32_t, uint32_t);
static int32_t (*core_unset_model)(gocann_thread *, uint32_t, uint32_t);
static uint64_t (*core_hash)(gocann_thread *, const char *, size_t);

const gocann_core_sym gocann_msprof_syms[] = {
	{"gocann_MsprofSetDeviceIdByGeModelIdx", &core_set_model},
	{"gocann_MsprofUnsetDeviceIdByGeModelIdx", &core_unset_model},
	{"gocann_MsprofGetHashId", &core_hash},
	{0, 0},
};

int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
	gocann_thread *t = gocann_self();
	GOCANN_ENTER(t, "MsprofSetDeviceIdByGeModelIdx", (int32_t)e_);
	return core_set_model(t, geModelIdx, deviceId);
}

int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId) {
	gocann_thread *t = gocann_self();
	GOCANN_ENTER(t, "MsprofUnsetDeviceIdByGeModelIdx", (int32_t)e_);
	return core_unset_model(t, geModelIdx, deviceId);
}

uint64_t MsprofGetHashId(const char *hashInfo, size_t length) {
	gocann_thread *t = gocann_self();
	GOCANN_ENTER(t, "MsprofGetHashId", UINT64_MAX);
	GOCANN_CHECK_PTR(t, "MsprofGetHashId", "hashInfo", hashInfo, 0, UINT64_MAX);
	return core_hash(t, hashInfo, length);
}

uint64_t MsprofStr2Id(const char *hashInfo, size_t length) {
	return MsprofGetHashId(hashInfo, length);
}

uint64_t MsprofSysCycleTime(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
