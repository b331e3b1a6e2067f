/*
 * 41_buffers: shared buffers (aclrtAllocBuf and the calls after it), data
 * buffers (aclDataBuffer) and the version and CANN attribute queries:
 * reference-counted data areas, user data, chains and their limits, host
 * descriptors that need no runtime, the package version gocann reports
 * and those of an install tree's version.info files, and every refusal
 * with its code.
 */
#include "common.h"

#include <errno.h>
#include <sys/stat.h>

/* Versions answer before aclInit and after it alike. */
static void versions(const char *when)
{
    char pkg[] = "runtime", driver[] = "driver";
    char v[ACL_PKG_VERSION_MAX_SIZE];
    int32_t num = 0;

    memset(v, 'x', sizeof v);
    CHECK(aclsysGetVersionStr(pkg, v));
    CHECK(aclsysGetVersionNum(pkg, &num));
    EXPECT(strcmp(v, "9.1.0") == 0 && num == 90100000, "%s: package runtime is version %s, number %d", when, v, num);
    EXPECT_CODE(aclsysGetVersionStr(driver, v), ACL_ERROR_INVALID_FILE, "a package not installed (driver)");
    EXPECT_CODE(aclsysGetVersionNum(driver, &num), ACL_ERROR_INVALID_FILE, "its number");
    EXPECT_CODE(aclsysGetVersionStr(NULL, v), ACL_ERROR_INVALID_PARAM, "a NULL pkgName");
    EXPECT_CODE(aclsysGetVersionStr(pkg, NULL), ACL_ERROR_INVALID_PARAM, "a NULL versionStr");
    EXPECT_CODE(aclsysGetVersionNum(NULL, &num), ACL_ERROR_INVALID_PARAM, "a NULL pkgName for the number");
    EXPECT_CODE(aclsysGetVersionNum(pkg, NULL), ACL_ERROR_INVALID_PARAM, "a NULL versionNum");
}

/* put makes tree/share/info/<dir> and, unless text is NULL, its
 * version.info holding text. */
static void put(const char *dir, const char *text)
{
    const char *parents[] = {"tree", "tree/share", "tree/share/info"};
    char path[256];
    FILE *f;

    for (size_t i = 0; i < sizeof parents / sizeof parents[0]; i++) {
        if (mkdir(parents[i], 0755) != 0 && errno != EEXIST) {
            fail_exit(__FILE__, __LINE__, 0, "mkdir %s: %s", parents[i], strerror(errno));
        }
    }
    snprintf(path, sizeof path, "tree/share/info/%s", dir);
    if (mkdir(path, 0755) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "mkdir %s: %s", path, strerror(errno));
    }
    if (text == NULL) {
        return;
    }
    snprintf(path, sizeof path, "tree/share/info/%s/version.info", dir);
    if ((f = fopen(path, "w")) == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "writing %s: %s", path, strerror(errno));
    }
}

/* home sets ASCEND_HOME_PATH to dir, or unsets it for NULL. */
static void home(const char *dir)
{
    if ((dir != NULL ? setenv("ASCEND_HOME_PATH", dir, 1) : unsetenv("ASCEND_HOME_PATH")) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "setting ASCEND_HOME_PATH: %s", strerror(errno));
    }
}

/* Versions of the packages of the install tree ASCEND_HOME_PATH names,
 * read from share/info/<package>/version.info when the call is made. */
static void tree_versions(void)
{
    char v[ACL_PKG_VERSION_MAX_SIZE], fake[] = "fake_pkg", alt[] = "fake-pkg", missing[] = "hccl", nofile[] = "nofile",
                                      noversion[] = "noversion", bad[] = "bad", runtime[] = "runtime", longv[] = "long";
    char text[200] = "Version=";
    int32_t num = 0;

    put("fake_pkg", "version_dir=CANN-8.5\nVersion=8.5.0.alpha001 \ntimestamp=20260101_000000000\n");
    put("nofile", NULL);
    put("noversion", "version_dir=CANN-8.5\ntimestamp=20260101_000000000\n");
    put("bad", "Version=8.5\n");
    memset(text + 8, '7', 128);
    text[136] = '\n';
    put("long", text);
    home("tree");

    CHECK(aclsysGetVersionStr(fake, v));
    CHECK(aclsysGetVersionNum(fake, &num));
    EXPECT(strcmp(v, "8.5.0.alpha001") == 0 && num == 80499701, "a package of the tree: %s, number %d", v, num);
    memset(v, 0, sizeof v);
    CHECK(aclsysGetVersionStr(alt, v));
    EXPECT(strcmp(v, "8.5.0.alpha001") == 0, "fake-pkg found as fake_pkg: %s", v);
    EXPECT_CODE(aclsysGetVersionStr(missing, v), ACL_ERROR_INVALID_FILE, "a package missing from the tree");
    EXPECT_CODE(aclsysGetVersionNum(missing, &num), ACL_ERROR_INVALID_FILE, "its number");
    EXPECT_CODE(aclsysGetVersionStr(nofile, v), ACL_ERROR_INVALID_FILE, "a package directory without version.info");
    EXPECT_CODE(aclsysGetVersionNum(nofile, &num), ACL_ERROR_INVALID_FILE, "its number");
    EXPECT_CODE(aclsysGetVersionStr(noversion, v), ACL_ERROR_INVALID_FILE, "a version.info without Version=");
    EXPECT_CODE(aclsysGetVersionNum(noversion, &num), ACL_ERROR_INVALID_FILE, "its number");
    CHECK(aclsysGetVersionStr(bad, v));
    EXPECT(strcmp(v, "8.5") == 0, "a malformed Version is still the string: %s", v);
    EXPECT_CODE(aclsysGetVersionNum(bad, &num), ACL_ERROR_INTERNAL_ERROR, "a malformed Version has no number");
    EXPECT_CODE(aclsysGetVersionStr(longv, v), ACL_ERROR_INTERNAL_ERROR, "a Version of 128 bytes");
    EXPECT_CODE(aclsysGetVersionStr(runtime, v), ACL_ERROR_INVALID_FILE, "a tree without the runtime's version.info");
    home("no/such/tree");
    EXPECT_CODE(aclsysGetVersionStr(fake, v), ACL_ERROR_INVALID_FILE, "ASCEND_HOME_PATH naming no directory");
    home(NULL);
    CHECK(aclsysGetVersionStr(runtime, v));
    EXPECT(strcmp(v, "9.1.0") == 0, "no tree again: runtime is gocann's %s", v);
    EXPECT_CODE(aclsysGetVersionStr(fake, v), ACL_ERROR_INVALID_FILE, "and fake_pkg is not installed");
}

static void cann_versions(void)
{
    aclCANNPackageVersion v;
    int32_t maj = 0, min = 0, patch = 0;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* the old calls are still exported */
    memset(&v, 'x', sizeof v);
    CHECK(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, &v));
    EXPECT(strcmp(v.version, "9.1.0") == 0 && strcmp(v.majorVersion, "9") == 0 && strcmp(v.minorVersion, "1") == 0 &&
               strcmp(v.releaseVersion, "0") == 0 && strcmp(v.patchVersion, "0") == 0 && v.reserved[0] == 0,
           "aclsysGetCANNVersion(ACL_PKG_NAME_CANN): %s = %s.%s.%s.%s", v.version, v.majorVersion, v.minorVersion,
           v.releaseVersion, v.patchVersion);
    CHECK(aclsysGetCANNVersion(ACL_PKG_NAME_RUNTIME, &v));
    EXPECT(strcmp(v.version, "9.1.0") == 0, "aclsysGetCANNVersion(ACL_PKG_NAME_RUNTIME): the same version");
    EXPECT_CODE(aclsysGetCANNVersion(ACL_PKG_NAME_DRIVER, &v), ACL_ERROR_INVALID_FILE, "a package not installed");
    EXPECT_CODE(aclsysGetCANNVersion((aclCANNPackageName)8, &v), ACL_ERROR_INVALID_PARAM, "package name 8");
    EXPECT_CODE(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, NULL), ACL_ERROR_INVALID_PARAM, "a NULL version");
    CHECK(aclrtGetVersion(&maj, &min, &patch));
#pragma GCC diagnostic pop
    EXPECT(maj == 1 && min == 17 && patch == 0, "aclrtGetVersion: the ACL interface %d.%d.%d of that release", maj, min,
           patch);
}

static void attributes(void)
{
    const aclCannAttr *list = NULL;
    size_t n = 99;
    int32_t value = -1;
    aclCannAttr all[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};

    CHECK(aclGetCannAttributeList(&list, &n));
    EXPECT(list != NULL && n == 0, "aclGetCannAttributeList: no feature available (%zu)", n);
    for (size_t i = 0; i < 3; i++) {
        value = -1;
        CHECK(aclGetCannAttribute(all[i], &value));
        EXPECT(value == 0, "aclGetCannAttribute(%d) = 0", (int)all[i]);
    }
    EXPECT_CODE(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &value), ACL_ERROR_INVALID_PARAM, "ACL_CANN_ATTR_UNDEFINED");
    EXPECT_CODE(aclGetCannAttribute((aclCannAttr)3, &value), ACL_ERROR_INVALID_PARAM, "attribute 3");
    EXPECT_CODE(aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL), ACL_ERROR_INVALID_PARAM, "a NULL value");
    EXPECT_CODE(aclGetCannAttributeList(NULL, &n), ACL_ERROR_INVALID_PARAM, "a NULL cannAttrList");
    EXPECT_CODE(aclGetCannAttributeList(&list, NULL), ACL_ERROR_INVALID_PARAM, "a NULL num");
}

static void data_buffers(void)
{
    static char host[64];
    void *dev = NULL;
    aclDataBuffer *d, *empty;

    CHECK(aclrtMalloc(&dev, 128, ACL_MEM_MALLOC_NORMAL_ONLY));
    d = aclCreateDataBuffer(dev, 128);
    EXPECT(d != NULL && aclGetDataBufferAddr(d) == dev && aclGetDataBufferSizeV2(d) == 128,
           "aclCreateDataBuffer: device memory described as given");
    CHECK(aclUpdateDataBuffer(d, host, sizeof host));
    EXPECT(aclGetDataBufferAddr(d) == host && aclGetDataBufferSizeV2(d) == sizeof host,
           "aclUpdateDataBuffer: now host memory, 64 bytes");
    CHECK(aclUpdateDataBuffer(d, host, ((size_t)1 << 32) + 5));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    EXPECT(aclGetDataBufferSizeV2(d) == ((size_t)1 << 32) + 5 && aclGetDataBufferSize(d) == 5,
           "a size of 4 GiB + 5: aclGetDataBufferSizeV2 whole, the deprecated aclGetDataBufferSize cut to 32 bits");
    EXPECT(aclGetDataBufferAddr(NULL) == NULL && aclGetDataBufferSizeV2(NULL) == 0 && aclGetDataBufferSize(NULL) == 0,
           "the getters of a NULL data buffer answer NULL and 0");
#pragma GCC diagnostic pop
    empty = aclCreateDataBuffer(NULL, 0);
    EXPECT(empty != NULL && aclGetDataBufferAddr(empty) == NULL && aclGetDataBufferSizeV2(empty) == 0,
           "aclCreateDataBuffer(NULL, 0): an empty buffer");
    clear_errors();
    EXPECT(aclCreateDataBuffer(NULL, 16) == NULL && aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_INVALID_PARAM,
           "aclCreateDataBuffer(NULL, 16) is refused (NULL, last error %d)", ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclUpdateDataBuffer(d, NULL, 1), ACL_ERROR_INVALID_PARAM, "updating to NULL data of size 1");
    EXPECT_CODE(aclUpdateDataBuffer(NULL, host, 1), ACL_ERROR_INVALID_PARAM, "updating a NULL data buffer");
    CHECK(aclDestroyDataBuffer(d));
    CHECK(aclDestroyDataBuffer(empty));
    EXPECT_CODE(aclDestroyDataBuffer(d), ACL_ERROR_RT_INVALID_HANDLE, "destroying a data buffer twice");
    EXPECT_CODE(aclUpdateDataBuffer(d, host, 1), ACL_ERROR_RT_INVALID_HANDLE, "updating a destroyed data buffer");
    clear_errors();
    EXPECT(aclGetDataBufferAddr(d) == NULL && aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_INVALID_HANDLE,
           "the address of a destroyed data buffer: NULL, last error %d", ACL_ERROR_RT_INVALID_HANDLE);
    EXPECT_CODE(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM, "destroying NULL");
    CHECK(aclrtFree(dev));
}

/* fill and read back a buffer's data area through aclrtMemcpy. */
static void *buf_data(aclrtMbuf b, size_t *size)
{
    void *p = NULL;
    CHECK(aclrtGetBufData(b, &p, size));
    return p;
}

static void buffers(aclrtStream s)
{
    aclrtMbuf a = NULL, c = NULL, c2 = NULL;
    void *p, *q;
    size_t size = 0, len = 99;
    char in[256], out[256];
    uint8_t user[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[96];

    CHECK(aclrtAllocBuf(&a, 256));
    p = buf_data(a, &size);
    CHECK(aclrtGetBufDataLen(a, &len));
    EXPECT(p != NULL && size == 256 && len == 0, "aclrtAllocBuf: a 256-byte data area, no valid data yet");
    for (int i = 0; i < 256; i++) {
        in[i] = (char)(i * 7);
    }
    CHECK(aclrtMemcpy(p, size, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtSetBufDataLen(a, 256));
    CHECK(aclrtGetBufDataLen(a, &len));
    EXPECT(len == 256, "aclrtSetBufDataLen(256): the whole area is valid");
    EXPECT_CODE(aclrtSetBufDataLen(a, 257), ACL_ERROR_RT_PARAM_INVALID, "a data length past the area");
    EXPECT_CODE(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID, "aclrtFree of a buffer's data area");

    /* User data: 96 bytes, offset + size at most 96. */
    CHECK(aclrtSetBufUserData(a, user, sizeof user, 88));
    CHECK(aclrtGetBufUserData(a, back, sizeof back, 0));
    EXPECT(memcmp(back + 88, user, 8) == 0 && back[0] == 0 && back[87] == 0, "aclrtSetBufUserData at 88, read back whole");
    EXPECT_CODE(aclrtSetBufUserData(a, user, 8, 89), ACL_ERROR_INVALID_PARAM, "user data past 96 bytes (8 at 89)");
    EXPECT_CODE(aclrtGetBufUserData(a, back, 97, 0), ACL_ERROR_INVALID_PARAM, "reading 97 bytes of user data");
    EXPECT_CODE(aclrtGetBufUserData(a, NULL, 4, 0), ACL_ERROR_INVALID_PARAM, "a NULL dataPtr");
    EXPECT_CODE(aclrtSetBufUserData(NULL, user, 4, 0), ACL_ERROR_INVALID_PARAM, "a NULL buf");

    /* Reference copies share the data area, which goes with the last. */
    CHECK(aclrtCopyBufRef(a, &c));
    q = buf_data(c, &size);
    CHECK(aclrtGetBufDataLen(c, &len));
    CHECK(aclrtGetBufUserData(c, back, 8, 88));
    EXPECT(c != a && q == p && size == 256 && len == 256 && memcmp(back, user, 8) == 0,
           "aclrtCopyBufRef: a new buffer over the same data, with its length and user data");
    CHECK(aclrtCopyBufRef(c, &c2));
    CHECK(aclrtFreeBuf(a));
    EXPECT_CODE(aclrtGetBufDataLen(a, &len), ACL_ERROR_RT_INVALID_HANDLE, "a freed buffer");
    EXPECT_CODE(aclrtFreeBuf(a), ACL_ERROR_RT_INVALID_HANDLE, "freeing a buffer twice");
    CHECK(aclrtFreeBuf(c));
    memset(out, 0, sizeof out);
    CHECK(aclrtMemcpy(out, sizeof out, q, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(out, in, 256) == 0, "the data outlives two of its three buffers");
    CHECK(aclrtFreeBuf(c2));
    EXPECT_CODE(aclrtMemcpy(out, sizeof out, q, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
                "the data area after its last buffer was freed");

    /* Refusals of aclrtAllocBuf and of handles. */
    EXPECT_CODE(aclrtAllocBuf(&a, 0), ACL_ERROR_INVALID_PARAM, "aclrtAllocBuf of 0 bytes");
    EXPECT_CODE(aclrtAllocBuf(&a, ((size_t)4 << 30) + 1), ACL_ERROR_RT_PARAM_INVALID, "aclrtAllocBuf past 4 GiB");
    EXPECT_CODE(aclrtAllocBuf(NULL, 16), ACL_ERROR_INVALID_PARAM, "a NULL buf");
    EXPECT_CODE(aclrtGetBufDataLen((aclrtMbuf)s, &len), ACL_ERROR_RT_INVALID_HANDLE, "a stream passed as a buffer");
    CHECK(aclrtAllocBuf(&a, 16));
    EXPECT_CODE(aclrtGetBufData(a, NULL, &size), ACL_ERROR_INVALID_PARAM, "a NULL dataPtr");
    EXPECT_CODE(aclrtGetBufData(a, &p, NULL), ACL_ERROR_INVALID_PARAM, "a NULL size");
    EXPECT_CODE(aclrtGetBufDataLen(a, NULL), ACL_ERROR_INVALID_PARAM, "a NULL len");
    EXPECT_CODE(aclrtCopyBufRef(a, NULL), ACL_ERROR_INVALID_PARAM, "a NULL newBuf");
    EXPECT_CODE(aclrtFreeBuf(NULL), ACL_ERROR_INVALID_PARAM, "freeing NULL");
    CHECK(aclrtFreeBuf(a));
}

static void chains(void)
{
    aclrtMbuf head = NULL, m[3], other = NULL, got = NULL, extra = NULL;
    uint32_t num = 0;
    size_t len = 0;
    int same = 1;

    CHECK(aclrtAllocBuf(&head, 32));
    CHECK(aclrtGetBufChainNum(head, &num));
    EXPECT(num == 1, "a lone buffer is a chain of 1");
    for (int i = 0; i < 3; i++) {
        CHECK(aclrtAllocBuf(&m[i], 32));
        CHECK(aclrtAppendBufChain(head, m[i]));
    }
    CHECK(aclrtGetBufChainNum(head, &num));
    for (uint32_t i = 0; i < 4; i++) {
        CHECK(aclrtGetBufFromChain(head, i, &got));
        same = same && got == (i == 0 ? head : m[i - 1]);
    }
    EXPECT(num == 4 && same, "aclrtAppendBufChain x3: 4 buffers, index 0 the head, the rest in order");
    EXPECT_CODE(aclrtGetBufFromChain(head, 4, &got), ACL_ERROR_RT_PARAM_INVALID, "index 4 of 4");
    EXPECT_CODE(aclrtGetBufFromChain(head, 0, NULL), ACL_ERROR_INVALID_PARAM, "a NULL buf out");
    EXPECT_CODE(aclrtGetBufChainNum(head, NULL), ACL_ERROR_INVALID_PARAM, "a NULL num");
    EXPECT_CODE(aclrtAppendBufChain(head, head), ACL_ERROR_RT_PARAM_INVALID, "appending the head to itself");
    CHECK(aclrtAllocBuf(&other, 32));
    EXPECT_CODE(aclrtAppendBufChain(other, m[1]), ACL_ERROR_RT_PARAM_INVALID, "appending a buffer already in a chain");
    EXPECT_CODE(aclrtAppendBufChain(other, head), ACL_ERROR_RT_PARAM_INVALID, "appending a chain's head");
    EXPECT_CODE(aclrtAppendBufChain(m[0], other), ACL_ERROR_RT_PARAM_INVALID, "appending to a member");
    EXPECT_CODE(aclrtGetBufChainNum(m[2], &num), ACL_ERROR_RT_PARAM_INVALID, "a member as headBuf");
    EXPECT_CODE(aclrtFreeBuf(m[0]), ACL_ERROR_RT_PARAM_INVALID, "freeing a member");
    EXPECT_CODE(aclrtAppendBufChain(NULL, other), ACL_ERROR_INVALID_PARAM, "a NULL headBuf");
    EXPECT_CODE(aclrtAppendBufChain(head, NULL), ACL_ERROR_INVALID_PARAM, "a NULL buf to append");
    CHECK(aclrtFreeBuf(head));
    EXPECT_CODE(aclrtGetBufDataLen(m[2], &len), ACL_ERROR_RT_INVALID_HANDLE,
                "freeing the head freed its chain");

    /* 128 buffers at most. */
    head = other;
    for (int i = 1; i < 128; i++) {
        CHECK(aclrtAllocBuf(&extra, 1));
        CHECK(aclrtAppendBufChain(head, extra));
    }
    CHECK(aclrtGetBufChainNum(head, &num));
    CHECK(aclrtAllocBuf(&extra, 1));
    EXPECT_CODE(aclrtAppendBufChain(head, extra), ACL_ERROR_RT_PARAM_INVALID, "a 129th buffer");
    EXPECT(num == 128, "a chain of 128 buffers");
    CHECK(aclrtFreeBuf(head));
    CHECK(aclrtFreeBuf(extra));
}

int main(void)
{
    aclDataBuffer *early;
    aclrtStream s = NULL;
    static char host[16];

    /* No install tree: gocann answers for the package it is. */
    home(NULL);
    versions("before aclInit");
    tree_versions();
    early = aclCreateDataBuffer(host, sizeof host);
    EXPECT(early != NULL, "aclCreateDataBuffer before aclInit");

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    versions("after aclInit");
    cann_versions();
    attributes();
    data_buffers();
    buffers(s);
    chains();
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    EXPECT(aclGetDataBufferAddr(early) == host && aclGetDataBufferSizeV2(early) == sizeof host,
           "a data buffer made before aclInit still answers after aclFinalize");
    CHECK(aclDestroyDataBuffer(early));
    printf("PASS 41_buffers\n");
    return 0;
}
