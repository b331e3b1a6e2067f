/*
 * A program shaped like CANN's samples that use the bounds-checking
 * library (example/5_performance/profiling/2_subscribe_model,
 * adump/3_save_exception_info): it includes "securec.h" beside the acl
 * headers, clears its structures with memset_s, and is linked with
 * ${ASCEND_CANN_PACKAGE_PATH}/lib64/libc_sec.so by CMakeLists.txt.
 */
#include <cstdio>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "securec.h"

namespace {
struct Info {
    int32_t deviceId;
    char name[32];
    uint8_t bytes[64];
};

bool Check(bool ok, const char *what)
{
    std::cout << (ok ? "ok: " : "FAIL: ") << what << std::endl;
    return ok;
}
} // namespace

int main()
{
    Info info;
    (void)memset_s(&info, sizeof(info), 0, sizeof(info));
    bool ok = Check(info.deviceId == 0 && info.name[0] == '\0', "memset_s clears the structure");
    ok = Check(snprintf_s(info.name, sizeof(info.name), sizeof(info.name) - 1, "device %d", 0) == 8, "snprintf_s names it") && ok;

    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        std::cout << "FAIL: aclInit and aclrtSetDevice" << std::endl;
        return 1;
    }
    void *dev = nullptr;
    std::vector<uint8_t> host(sizeof(info.bytes), 0);
    ok = Check(aclrtMalloc(&dev, host.size(), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
                   aclrtMemset(dev, host.size(), 0x5a, host.size()) == ACL_SUCCESS &&
                   aclrtMemcpy(host.data(), host.size(), dev, host.size(), ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
               "device memory set and read back") && ok;
    ok = Check(memcpy_s(info.bytes, sizeof(info.bytes), host.data(), host.size()) == EOK && info.bytes[63] == 0x5a,
               "memcpy_s takes the device's bytes") && ok;
    ok = Check(memcpy_s(info.bytes, sizeof(info.bytes), host.data(), host.size() + 1) == ERANGE_AND_RESET && info.bytes[0] == 0,
               "memcpy_s past the destination: ERANGE_AND_RESET") && ok;
    (void)aclrtFree(dev);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    if (!ok) {
        return 1;
    }
    std::cout << "PASS securec_sample" << std::endl;
    return 0;
}
