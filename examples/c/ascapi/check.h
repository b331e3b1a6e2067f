/*
 * check.h: what the Ascend C API tests share. Each test is one .asc
 * program: kernels that run one API call on data the host made, and a
 * host main that compares every element with a plain reference loop, and
 * launches the misuses, each of which must fail its launch with an AI
 * core trap whose message names the call and the numbers. A test prints
 * an "ok: " line per check, "FAIL: " for a check that did not hold, and
 * "PASS <name>" at the end when every check held.
 */
#ifndef GOCANN_ASCAPI_CHECK_H_
#define GOCANN_ASCAPI_CHECK_H_

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"

namespace check {

inline int failures = 0;

/* Must stops the test when an ACL call that has to work does not. */
#define MUST(call)                                                                                          \
    do {                                                                                                    \
        aclError rc_ = (call);                                                                              \
        if (rc_ != ACL_SUCCESS) {                                                                           \
            std::printf("FAIL: %s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #call, rc_,                \
                        aclGetRecentErrMsg());                                                              \
            std::exit(1);                                                                                   \
        }                                                                                                   \
    } while (0)

/* Expect prints an ok line when cond holds and a FAIL line when not. */
__attribute__((format(printf, 2, 3))) inline bool Expect(bool cond, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    std::printf(cond ? "ok: " : "FAIL: ");
    std::vprintf(format, ap);
    std::printf("\n");
    va_end(ap);
    if (!cond) {
        failures++;
    }
    return cond;
}

/* Buffer is device memory holding n elements of T, with a host copy. */
template <typename T>
struct Buffer {
    std::vector<T> host;
    void *dev = nullptr;

    explicit Buffer(size_t n, T fill = T()) : host(n, fill)
    {
        MUST(aclrtMalloc(&dev, Bytes() ? Bytes() : 1, ACL_MEM_MALLOC_HUGE_FIRST));
        Put();
    }
    ~Buffer() { aclrtFree(dev); }
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;

    size_t Bytes() const { return host.size() * sizeof(T); }
    uint8_t *Dev() const { return static_cast<uint8_t *>(dev); }
    void Put() { MUST(aclrtMemcpy(dev, Bytes(), host.data(), Bytes(), ACL_MEMCPY_HOST_TO_DEVICE)); }
    void Get() { MUST(aclrtMemcpy(host.data(), Bytes(), dev, Bytes(), ACL_MEMCPY_DEVICE_TO_HOST)); }
    T &operator[](size_t i) { return host[i]; }
};

/* Same compares two buffers' bytes: bit for bit, which is what a
 * reference loop computing in the device's types must give. It returns
 * the first element that differs, or -1. */
template <typename T>
inline long FirstDiff(const std::vector<T> &got, const std::vector<T> &want)
{
    for (size_t i = 0; i < got.size() && i < want.size(); i++) {
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            return long(i);
        }
    }
    return got.size() == want.size() ? -1 : long(got.size() < want.size() ? got.size() : want.size());
}

/* Launched checks a launch that must succeed: its code and the stream's. */
inline bool Launched(aclError rc, const char *what)
{
    aclError sync = aclrtSynchronizeStream(nullptr);
    if (rc != ACL_SUCCESS || sync != ACL_SUCCESS) {
        return Expect(false, "%s: launch code %d, synchronize code %d: %s", what, rc, sync, aclGetRecentErrMsg());
    }
    return true;
}

/* Traps checks a launch that must fail with an AI core trap whose
 * message holds want; the stream must work after. */
inline bool Traps(aclError rc, const char *want, const char *what)
{
    aclError sync = aclrtSynchronizeStream(nullptr);
    const char *msg = aclGetRecentErrMsg();
    bool ok = rc == ACL_SUCCESS && sync == ACL_ERROR_RT_AICORE_TRAP_EXCEPTION && msg != nullptr &&
              std::strstr(msg, want) != nullptr;
    Expect(ok, "%s traps with \"%s\" (launch %d, synchronize %d: %s)", what, want, rc, sync, msg ? msg : "(none)");
    MUST(aclrtSynchronizeStream(nullptr));
    return ok;
}

/* Start and Finish bracket a test's main. */
inline void Start()
{
    MUST(aclInit(nullptr));
    MUST(aclrtSetDevice(0));
}

inline int Finish(const char *name)
{
    aclrtResetDevice(0);
    aclFinalize();
    if (failures != 0) {
        std::printf("FAIL %s: %d checks failed\n", name, failures);
        return 1;
    }
    std::printf("PASS %s\n", name);
    return 0;
}

} // namespace check

#endif /* GOCANN_ASCAPI_CHECK_H_ */
