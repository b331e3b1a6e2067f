// Host code in plain C++, linked with the kernel library kernels.asc.
#include <cstdint>

#include "acl/acl.h"
#include "common.h"

aclError stamp_launch(uint32_t blocks, aclrtStream stream, void *y, int32_t base, uint32_t n);

int main()
{
    constexpr uint32_t blocks = 6, n = 16, total = blocks * n;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    void *y = nullptr;
    CHECK(aclrtMalloc(&y, total * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    aclError rc = stamp_launch(blocks, stream, y, 1000, n);
    CHECK(aclrtSynchronizeStream(stream));
    int32_t back[total];
    CHECK(aclrtMemcpy(back, sizeof back, y, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t right = 0;
    for (uint32_t i = 0; i < total; i++) {
        right += back[i] == int32_t(1000 + i / n);
    }
    EXPECT(rc == ACL_SUCCESS && right == total, "stamp<<<%u>>> from a static kernel library: code %d, %u of %u right",
           blocks, rc, right, total);
    rc = stamp_launch(blocks, reinterpret_cast<aclrtStream>(uintptr_t(0x1234)), y, 0, n);
    EXPECT(rc == ACL_ERROR_RT_INVALID_HANDLE, "stamp<<<>>> on a stream that is not one: code %d", rc);
    CHECK(aclrtFree(y));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS asc_host\n");
    return 0;
}
