/*
 * 55_ipc_memory: device memory shared between processes of one simulated
 * machine (GOCANN_MACHINE; set here if the environment has none). The
 * program forks two children before any runtime call, as processes using
 * the runtime must start apart: the parent exports, child A imports, and
 * child B imports and is killed with SIGKILL while it holds the import.
 * Keys, process ids and handles travel over pipes.
 *
 * IPC memory: aclrtIpcMemGetExportKey, the whitelist (an import refused
 * with ACL_ERROR_RT_NO_PERMISSION until aclrtIpcMemSetImportPid names the
 * importer's aclrtDeviceGetBareTgid), aclrtIpcMemImportByKey, bytes read
 * and written in place on both sides, two imports of one key each closed
 * by its own aclrtIpcMemClose, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
 * the exporter closing first (imports made before keep working, later ones
 * fail), aclrtFree of an import refused. Shareable handles:
 * aclrtMemExportToShareableHandle of physical memory, the whitelist
 * (aclrtMemSetPidToShareableHandle), aclrtMemImportFromShareableHandle and
 * its V2, mapped with aclrtMapMem and read in the importer. Every refusal
 * code, the Atlas A3-only calls refused on the default Atlas A2; then,
 * both runtimes started again on an Atlas A3, a fabric handle
 * (aclrtMemExportToShareableHandleV2, aclrtMemSetPidToShareableHandleV2,
 * aclrtMemImportFromShareableHandleV2), aclrtIpcMemSetAttr and
 * aclrtIpcMemImportPidInterServer. No machine file is left in /dev/shm
 * once every process ended.
 */
#include "common.h"

#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE (2u << 20)

/* A pipe each way between the parent and one child. */
struct chan {
    int to[2], from[2];
};

static void send_line(int fd, const char *s)
{
    size_t n = strlen(s);
    if (write(fd, s, n) != (ssize_t)n || write(fd, "\n", 1) != 1) {
        fail_exit(__FILE__, __LINE__, 0, "writing to a pipe");
    }
}

/* recv_line reads one line, waiting at most 20 s for a peer that died. */
static void recv_line(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    while (n + 1 < cap) {
        struct pollfd p = {fd, POLLIN, 0};
        char c;
        if (poll(&p, 1, 20000) != 1 || read(fd, &c, 1) != 1) {
            fail_exit(__FILE__, __LINE__, 0, "the other process did not answer");
        }
        if (c == '\n') {
            break;
        }
        buf[n++] = c;
    }
    buf[n] = 0;
}

static void setup(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
}

/* init_a3 starts the runtime again on an Atlas A3 (Ascend910_9391), on
 * machine <machine>-a3, and sets device 0. */
static void init_a3(const char *machine)
{
    char json[256], file[64];
    snprintf(json, sizeof json, "{\"simulator\": {\"soc_name\": \"Ascend910_9391\", \"machine\": \"%s-a3\"}}\n", machine);
    snprintf(file, sizeof file, "/tmp/55_ipc_memory_%d.json", (int)getpid());
    write_file(file, json);
    CHECK(aclInit(file));
    remove(file);
    CHECK(aclrtSetDevice(0));
}

/* hex_to turns 2n hexadecimal digits into n bytes. */
static void hex_to(uint8_t *b, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(s + 2 * i, "%2x", &v);
        b[i] = (uint8_t)v;
    }
}

static void pattern(uint8_t *b, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++) {
        b[i] = (uint8_t)(seed + 7 * i);
    }
}

/* Child A: every import, on the parent's cue. */
static int importer(int in, int out)
{
    char key[128], key2[128], line[128];
    int32_t tgid = 0;
    setup();
    CHECK(aclrtDeviceGetBareTgid(&tgid));
    EXPECT(tgid == (int32_t)getpid(), "child: aclrtDeviceGetBareTgid is the process id (%d)", tgid);
    snprintf(line, sizeof line, "%d", tgid);
    send_line(out, line);

    recv_line(in, key, sizeof key);
    void *p = NULL, *q = NULL;
    REFUSE(aclrtIpcMemImportByKey(&p, key, 0), ACL_ERROR_RT_NO_PERMISSION, "whitelist",
           "child: an import before aclrtIpcMemSetImportPid");
    send_line(out, "refused");
    recv_line(in, line, sizeof line);
    CHECK(aclrtIpcMemImportByKey(&p, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT));
    uint8_t got[64], want[64];
    pattern(want, sizeof want, 3);
    CHECK(aclrtMemcpy(got, sizeof got, p, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(got, want, sizeof got) == 0, "child: the imported memory holds the exporter's bytes");
    pattern(want, sizeof want, 100);
    CHECK(aclrtMemcpy(p, sizeof want, want, sizeof want, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemset((uint8_t *)p + 64, 64, 0x5a, 64));
    EXPECT(aclrtFree(p) != ACL_SUCCESS, "child: aclrtFree of an import is refused");
    CHECK(aclrtIpcMemImportByKey(&q, key, 0));
    EXPECT(q != p, "child: a second import of one key is a mapping of its own");
    CHECK(aclrtIpcMemClose(key));
    CHECK(aclrtMemcpy(got, sizeof got, q, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(got, want, sizeof got) == 0, "child: the second import works after the first closed");
    CHECK(aclrtIpcMemClose(key));
    REFUSE(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID, "is invalid", "child: a third aclrtIpcMemClose of two imports");

    /* Refusals of the importing side. */
    char forged[65];
    memcpy(forged, key, sizeof forged);
    forged[0] = forged[0] == 'a' ? 'b' : 'a';
    REFUSE(aclrtIpcMemImportByKey(&p, forged, 0), ACL_ERROR_RT_PARAM_INVALID, "no live export",
           "child: a forged key");
    REFUSE(aclrtIpcMemImportByKey(&p, "xyz", 0), ACL_ERROR_RT_PARAM_INVALID, "key \"xyz\" is invalid",
           "child: a malformed key");
    REFUSE(aclrtIpcMemImportByKey(&p, key, 2), ACL_ERROR_RT_PARAM_INVALID, "flags 2 is invalid", "child: flags 2");
    REFUSE(aclrtIpcMemImportByKey(NULL, key, 0), ACL_ERROR_INVALID_PARAM, "devPtr is NULL", "child: devPtr NULL");
    REFUSE(aclrtIpcMemImportByKey(&p, NULL, 0), ACL_ERROR_INVALID_PARAM, "key is NULL", "child: key NULL");
    int32_t me = tgid;
    REFUSE(aclrtIpcMemSetImportPid(key, &me, 1), ACL_ERROR_RT_PARAM_INVALID, "expected a key this process exported",
           "child: aclrtIpcMemSetImportPid of a key it imported");
    send_line(out, "written");

    /* Without pid validation; then the exporter closes first. */
    recv_line(in, key2, sizeof key2);
    CHECK(aclrtIpcMemImportByKey(&p, key2, ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    pass("child: an export without pid validation imports with no whitelist");
    send_line(out, "holding");
    recv_line(in, line, sizeof line);
    REFUSE(aclrtIpcMemImportByKey(&q, key2, 0), ACL_ERROR_RT_PARAM_INVALID, "no live export",
           "child: an import after the exporter closed");
    CHECK(aclrtMemcpy(got, 8, p, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    pattern(want, 8, 9);
    EXPECT(memcmp(got, want, 8) == 0, "child: an import made before the exporter closed still reads its bytes");
    CHECK(aclrtIpcMemClose(key2));

    /* Shareable handles. */
    recv_line(in, line, sizeof line);
    uint64_t sh = strtoull(line, NULL, 10);
    aclrtDrvMemHandle h = NULL, h2 = NULL;
    REFUSE(aclrtMemImportFromShareableHandle(sh, 0, &h), ACL_ERROR_RT_NO_PERMISSION, "whitelist",
           "child: a shareable handle before aclrtMemSetPidToShareableHandle");
    send_line(out, "refused");
    recv_line(in, line, sizeof line);
    CHECK(aclrtMemImportFromShareableHandle(sh, 0, &h));
    aclrtPhysicalMemProp prop = {ACL_MEM_HANDLE_TYPE_NONE, ACL_MEM_ALLOCATION_TYPE_PINNED, ACL_HBM_MEM_NORMAL,
                                 {0, ACL_MEM_LOCATION_TYPE_DEVICE}, 0};
    size_t gran = 0;
    CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &gran));
    void *va = NULL;
    CHECK(aclrtReserveMemAddress(&va, gran, 0, NULL, 0));
    CHECK(aclrtMapMem(va, gran, 0, h, 0));
    char text[32] = {0};
    CHECK(aclrtMemcpy(text, sizeof text, va, sizeof text, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(strcmp(text, "physical, shared") == 0, "child: the imported physical memory mapped reads \"%s\"", text);
    CHECK(aclrtUnmapMem(va));
    CHECK(aclrtReleaseMemAddress(va));
    CHECK(aclrtFreePhysical(h));
    CHECK(aclrtMemImportFromShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h2));
    CHECK(aclrtFreePhysical(h2));
    pass("child: aclrtMemImportFromShareableHandleV2 of the default type");
    REFUSE(aclrtMemImportFromShareableHandle(sh, 9, &h), ACL_ERROR_RT_INVALID_DEVICEID, "deviceId 9",
           "child: a shareable handle onto device 9");
    REFUSE(aclrtMemImportFromShareableHandleV2(&sh, (aclrtMemSharedHandleType)3, 0, &h), ACL_ERROR_RT_PARAM_INVALID,
           "shareType 3 is invalid", "child: shareType 3");
    REFUSE(aclrtMemImportFromShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1, &h), ACL_ERROR_INVALID_PARAM,
           "flags 1 is invalid", "child: V2 import flags 1");
    send_line(out, "done");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());

    /* On an Atlas A3: a fabric handle, and an IPC key allowed across
     * servers. */
    init_a3(getenv("GOCANN_MACHINE"));
    send_line(out, "a3");
    char fabhex[300];
    recv_line(in, fabhex, sizeof fabhex);
    aclrtMemFabricHandle fab;
    hex_to(fab.data, sizeof fab.data, fabhex);
    CHECK(aclrtMemImportFromShareableHandleV2(&fab, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &h));
    CHECK(aclrtReserveMemAddress(&va, gran, 0, NULL, 0));
    CHECK(aclrtMapMem(va, gran, 0, h, 0));
    memset(text, 0, sizeof text);
    CHECK(aclrtMemcpy(text, sizeof text, va, sizeof text, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(strcmp(text, "fabric") == 0, "child: memory imported from a fabric handle reads \"%s\"", text);
    CHECK(aclrtUnmapMem(va));
    CHECK(aclrtReleaseMemAddress(va));
    CHECK(aclrtFreePhysical(h));
    recv_line(in, key, sizeof key);
    CHECK(aclrtIpcMemImportByKey(&p, key, 0));
    pass("child: a key whose whitelist aclrtIpcMemImportPidInterServer set imports");
    CHECK(aclrtIpcMemClose(key));
    send_line(out, "done");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}

/* Child B: imports, says so, and waits to be killed. */
static int victim(int in, int out)
{
    char key[128], line[16];
    setup();
    recv_line(in, key, sizeof key);
    void *p = NULL;
    CHECK(aclrtIpcMemImportByKey(&p, key, 0));
    CHECK(aclrtMemset(p, 16, 0x77, 16));
    send_line(out, "holding");
    recv_line(in, line, sizeof line); /* never comes */
    return 1;
}

static pid_t spawn(struct chan *c, int (*fn)(int, int))
{
    if (pipe(c->to) != 0 || pipe(c->from) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "pipe");
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(c->to[1]);
        close(c->from[0]);
        exit(fn(c->to[0], c->from[1]));
    }
    close(c->to[0]);
    close(c->from[1]);
    return pid;
}

static void export_refusals(void *p)
{
    char key[65];
    uint8_t host[16];
    REFUSE(aclrtIpcMemGetExportKey(NULL, SIZE, key, sizeof key, 0), ACL_ERROR_INVALID_PARAM, "devPtr is NULL", "devPtr NULL");
    REFUSE(aclrtIpcMemGetExportKey(p, SIZE, NULL, sizeof key, 0), ACL_ERROR_INVALID_PARAM, "key is NULL", "key NULL");
    REFUSE(aclrtIpcMemGetExportKey(p, 0, key, sizeof key, 0), ACL_ERROR_RT_PARAM_INVALID, "size 0 is invalid", "size 0");
    REFUSE(aclrtIpcMemGetExportKey(p, SIZE, key, 0, 0), ACL_ERROR_RT_PARAM_INVALID, "len 0 is invalid", "len 0");
    REFUSE(aclrtIpcMemGetExportKey(p, SIZE, key, 64, 0), ACL_ERROR_RT_PARAM_INVALID, "len 64 is invalid, expected at least 65",
           "a key buffer of 64 bytes");
    REFUSE(aclrtIpcMemGetExportKey(p, SIZE, key, sizeof key, 2), ACL_ERROR_RT_PARAM_INVALID, "flags 2 is invalid", "flags 2");
    REFUSE(aclrtIpcMemGetExportKey((uint8_t *)p + 8, 64, key, sizeof key, 0), ACL_ERROR_RT_PARAM_INVALID,
           "expected its start or a multiple of its page size", "a pointer inside a page");
    REFUSE(aclrtIpcMemGetExportKey(p, SIZE + 1, key, sizeof key, 0), ACL_ERROR_RT_PARAM_INVALID, "runs past its allocation",
           "a range past the allocation");
    REFUSE(aclrtIpcMemGetExportKey(host, 16, key, sizeof key, 0), ACL_ERROR_RT_PARAM_INVALID, "not in a live allocation",
           "host memory");
    REFUSE(aclrtIpcMemClose(NULL), ACL_ERROR_INVALID_PARAM, "key is NULL", "aclrtIpcMemClose(NULL)");
    REFUSE(aclrtIpcMemClose("0123"), ACL_ERROR_RT_PARAM_INVALID, "key \"0123\" is invalid", "aclrtIpcMemClose of a malformed key");
    REFUSE(aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM, "pid is NULL", "aclrtDeviceGetBareTgid(NULL)");
}

/* a3: the parent's side of the Atlas A3 part. */
static void a3(struct chan *a, int32_t pid, const char *machine)
{
    init_a3(machine);
    aclrtPhysicalMemProp prop = {ACL_MEM_HANDLE_TYPE_NONE, ACL_MEM_ALLOCATION_TYPE_PINNED, ACL_HBM_MEM_NORMAL,
                                 {0, ACL_MEM_LOCATION_TYPE_DEVICE}, 0};
    size_t gran = 0;
    CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &gran));
    aclrtDrvMemHandle h = NULL;
    void *va = NULL, *p = NULL;
    CHECK(aclrtMallocPhysical(&h, gran, &prop, 0));
    CHECK(aclrtReserveMemAddress(&va, gran, 0, NULL, 0));
    CHECK(aclrtMapMem(va, gran, 0, h, 0));
    CHECK(aclrtMemcpy(va, 32, "fabric", 7, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtMemFabricHandle fab;
    memset(&fab, 0xee, sizeof fab);
    CHECK(aclrtMemExportToShareableHandleV2(h, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fab));
    CHECK(aclrtMemSetPidToShareableHandleV2(&fab, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &pid, 1));
    char hexs[2 * sizeof fab.data + 1];
    for (size_t i = 0; i < sizeof fab.data; i++) {
        snprintf(hexs + 2 * i, 3, "%02x", fab.data[i]);
    }
    send_line(a->to[1], hexs);

    char key[65];
    CHECK(aclrtMalloc(&p, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtIpcMemGetExportKey(p, SIZE, key, sizeof key, 0));
    CHECK(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS));
    REFUSE(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH),
           ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED, "attr 2", "aclrtIpcMemSetAttr of a UB link on an Atlas A3");
    CHECK(aclrtIpcMemClose(key)); /* forgets the attribute, as CANN does */
    aclrtServerPid sp = {3, &pid, 1};
    CHECK(aclrtIpcMemImportPidInterServer(key, &sp, 1));
    send_line(a->to[1], key);
    char line[16];
    recv_line(a->from[0], line, sizeof line);
    EXPECT(strcmp(line, "done") == 0, "on an Atlas A3: a fabric handle and a key across servers reached child A");
    CHECK(aclrtIpcMemClose(key));
    CHECK(aclrtFree(p));
    CHECK(aclrtUnmapMem(va));
    CHECK(aclrtReleaseMemAddress(va));
    CHECK(aclrtFreePhysical(h));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

/* left counts the files of machine m in /dev/shm. */
static size_t left(const char *m)
{
    char pat[256];
    glob_t g;
    snprintf(pat, sizeof pat, "/dev/shm/gocann-%d-%s*", (int)getuid(), m);
    size_t n = glob(pat, 0, NULL, &g) == 0 ? g.gl_pathc : 0;
    globfree(&g);
    return n;
}

int main(void)
{
    char name[64];
    if (getenv("GOCANN_MACHINE") == NULL || getenv("GOCANN_MACHINE")[0] == 0) {
        snprintf(name, sizeof name, "c53-%d", (int)getpid());
        setenv("GOCANN_MACHINE", name, 1);
    }
    const char *machine = getenv("GOCANN_MACHINE");
    struct chan a, b;
    fflush(stdout);
    pid_t pa = spawn(&a, importer), pb = spawn(&b, victim);

    char line[128], key[65], key2[65];
    setup();
    void *p = NULL, *p2 = NULL;
    CHECK(aclrtMalloc(&p, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    uint8_t buf[128];
    pattern(buf, 64, 3);
    CHECK(aclrtMemcpy(p, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    export_refusals(p);
    CHECK(aclrtIpcMemGetExportKey(p, SIZE, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT));
    EXPECT(strlen(key) == 64 && strspn(key, "0123456789abcdef") == 64, "the key is 64 hexadecimal digits");

    recv_line(a.from[0], line, sizeof line);
    int32_t pid = (int32_t)atoi(line);
    EXPECT(pid == (int32_t)pa, "the child's bare tgid is its process id");
    send_line(a.to[1], key);
    recv_line(a.from[0], line, sizeof line);
    int32_t none = 0;
    REFUSE(aclrtIpcMemSetImportPid(key, &none, 0), ACL_ERROR_RT_PARAM_INVALID, "num 0 is invalid", "a whitelist of 0 processes");
    REFUSE(aclrtIpcMemSetImportPid(key, NULL, 1), ACL_ERROR_INVALID_PARAM, "pid is NULL", "a whitelist NULL");
    CHECK(aclrtIpcMemSetImportPid(key, &pid, 1));
    send_line(a.to[1], "go");
    recv_line(a.from[0], line, sizeof line);
    CHECK(aclrtMemcpy(buf, 128, p, 128, ACL_MEMCPY_DEVICE_TO_HOST));
    uint8_t want[64];
    pattern(want, 64, 100);
    EXPECT(memcmp(buf, want, 64) == 0 && buf[64] == 0x5a && buf[127] == 0x5a, "the exporter sees the bytes the child wrote");

    /* The Atlas A3-only calls, on the default Atlas A2. */
    REFUSE(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS),
           ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtIpcMemSetAttr", "aclrtIpcMemSetAttr on an Atlas A2");
    REFUSE(aclrtIpcMemSetAttr(NULL, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 0), ACL_ERROR_RT_PARAM_INVALID, "key is NULL",
           "aclrtIpcMemSetAttr(NULL)");
    aclrtServerPid sp = {0, &pid, 1};
    REFUSE(aclrtIpcMemImportPidInterServer(key, &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtIpcMemImportPidInterServer",
           "aclrtIpcMemImportPidInterServer on an Atlas A2");
    REFUSE(aclrtIpcMemImportPidInterServer(key, NULL, 1), ACL_ERROR_RT_PARAM_INVALID, "serverPids is NULL",
           "aclrtIpcMemImportPidInterServer without servers");

    /* Child B imports and is killed holding the import. */
    int32_t pidb = (int32_t)pb;
    CHECK(aclrtIpcMemSetImportPid(key, &pidb, 1));
    send_line(b.to[1], key);
    recv_line(b.from[0], line, sizeof line);
    kill(pb, SIGKILL);
    int st = 0;
    waitpid(pb, &st, 0);
    EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "child B was killed with SIGKILL while holding an import");
    CHECK(aclrtMemcpy(buf, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(buf[0] == 0x77 && buf[15] == 0x77, "the exporter goes on and sees what child B wrote before it died");

    /* Without pid validation; the exporter closes first. */
    CHECK(aclrtMalloc(&p2, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    pattern(buf, 8, 9);
    CHECK(aclrtMemcpy(p2, 8, buf, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtIpcMemGetExportKey(p2, SIZE, key2, sizeof key2, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
    send_line(a.to[1], key2);
    recv_line(a.from[0], line, sizeof line);
    CHECK(aclrtIpcMemClose(key2));
    REFUSE(aclrtIpcMemClose(key2), ACL_ERROR_RT_PARAM_INVALID, "is invalid", "a second aclrtIpcMemClose of an export");
    send_line(a.to[1], "closed");

    /* Shareable handles of physical memory. */
    aclrtPhysicalMemProp prop = {ACL_MEM_HANDLE_TYPE_NONE, ACL_MEM_ALLOCATION_TYPE_PINNED, ACL_HBM_MEM_NORMAL,
                                 {0, ACL_MEM_LOCATION_TYPE_DEVICE}, 0};
    size_t gran = 0;
    CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &gran));
    aclrtDrvMemHandle h = NULL, mine = NULL;
    void *va = NULL;
    CHECK(aclrtMallocPhysical(&h, gran, &prop, 0));
    CHECK(aclrtReserveMemAddress(&va, gran, 0, NULL, 0));
    CHECK(aclrtMapMem(va, gran, 0, h, 0));
    CHECK(aclrtMemcpy(va, 32, "physical, shared", 17, ACL_MEMCPY_HOST_TO_DEVICE));
    uint64_t sh = 0;
    aclrtMemFabricHandle fab;
    REFUSE(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_POSIX, 0, &sh), ACL_ERROR_INVALID_PARAM,
           "handleType 2 is invalid", "aclrtMemExportToShareableHandle of type POSIX");
    REFUSE(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 2, &sh), ACL_ERROR_RT_PARAM_INVALID,
           "flags 2 is invalid", "aclrtMemExportToShareableHandle flags 2");
    REFUSE(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fab), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "only an Atlas A3", "a fabric handle on an Atlas A2");
    CHECK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &sh));
    REFUSE(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &sh), ACL_ERROR_RT_PARAM_INVALID,
           "already exported", "a second export of one allocation");
    REFUSE(aclrtMemImportFromShareableHandle(sh, 0, &mine), ACL_ERROR_RT_PARAM_INVALID, "this process exported it",
           "an import of the process's own export");
    REFUSE(aclrtMemSetPidToShareableHandle(sh, &pid, 0), ACL_ERROR_INVALID_PARAM, "pidNum 0 is invalid", "a whitelist of 0");
    snprintf(line, sizeof line, "%llu", (unsigned long long)sh);
    send_line(a.to[1], line);
    recv_line(a.from[0], line, sizeof line);
    CHECK(aclrtMemSetPidToShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1));
    send_line(a.to[1], "go");
    recv_line(a.from[0], line, sizeof line);
    EXPECT(strcmp(line, "done") == 0, "child A finished its imports");

    CHECK(aclrtUnmapMem(va));
    CHECK(aclrtReleaseMemAddress(va));
    CHECK(aclrtFreePhysical(h));
    CHECK(aclrtIpcMemClose(key));
    CHECK(aclrtFree(p));
    CHECK(aclrtFree(p2));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    recv_line(a.from[0], line, sizeof line);
    a3(&a, pid, machine);
    waitpid(pa, &st, 0);
    EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child A exited with status 0");
    char a3name[80];
    snprintf(a3name, sizeof a3name, "%s-a3", machine);
    EXPECT(left(machine) == 0 && left(a3name) == 0, "no file of machine %s or %s is left in /dev/shm", machine, a3name);
    printf("PASS 55_ipc_memory\n");
    return 0;
}
