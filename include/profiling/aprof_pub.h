/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * profiling/aprof_pub.h: the part of the profiling library's interface
 * (libprofapi.so) that programs call beside acl/acl_prof.h: the table of
 * model ids the model loader fills, which aclprofModelSubscribe checks
 * model ids against, and the string ids of the msproftx calls.
 */
#ifndef APROF_PUB_H
#define APROF_PUB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MSVP_PROF_API
#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define MSVP_PROF_API __declspec(dllexport)
#else
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif
#endif

/* Record that model geModelIdx runs on device deviceId, as loading a
 * model does; an id recorded already keeps its device. 0 on success. */
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

/* Forget model geModelIdx, as unloading it does. 0 on success. */
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

/* The 64-bit id of length bytes at hashInfo (aclprofStr2Id's); UINT64_MAX
 * for NULL or length 0. */
MSVP_PROF_API uint64_t MsprofGetHashId(const char* hashInfo, size_t length);

/* The same id, under its other name. */
MSVP_PROF_API uint64_t MsprofStr2Id(const char* hashInfo, size_t length);

/* The host's clock profiling stamps with: CLOCK_MONOTONIC, in
 * nanoseconds. */
MSVP_PROF_API uint64_t MsprofSysCycleTime(void);

#ifdef __cplusplus
}
#endif

#endif /* APROF_PUB_H */
