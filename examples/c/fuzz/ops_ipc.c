/*
 * IPC memory inside one process: exports of whatever memory the model
 * holds, their closes, and keys that name nothing. Nothing here is
 * imported by another process: ops_ipcpeer.c exports to one.
 */
#include "fuzz.h"

#include <string.h>

#define MAXKEYS 8

/* Keys this process exported and did not close; a device close or
 * aclFinalize may have ended them since, so their closes are not judged. */
static char keys[MAXKEYS][65];

/* A key that names nothing, well-formed or not. */
static void bad_key(char *k, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    size_t len = below(4) == 0 ? below(80) : 64;
    if (len >= n) {
        len = n - 1;
    }
    for (size_t i = 0; i < len; i++) {
        k[i] = one_in(16) ? (char)('g' + below(20)) : digits[below(16)];
    }
    k[len] = 0;
}

static void op_ipc_export(void)
{
    if (ensure_device() != 0) {
        return;
    }
    parg p = pick_ptr(1 << M_DEV | 1 << M_PINNED | 1 << M_PAGEABLE, 1);
    uint64_t size = one_in(4) ? size_any() : (p.room > 0 ? 1 + below(p.room) : 1);
    size_t len = one_in(8) ? (size_t)below(70) : 65;
    uint64_t flags = one_in(8) ? (uint64_t)flags_any(1) : below(2);
    char key[65] = {0};
    callf("aclrtIpcMemGetExportKey(%s %p, %s, key, %zu, %#llx)", p.what, (void *)p.p, size_name(size), len,
          (unsigned long long)flags);
    aclError rc = ret(aclrtIpcMemGetExportKey(p.p, size, key, len, flags));
    if (p.v == INVALID || p.kind != M_DEV) {
        must_fail(rc, "memory not from aclrtMalloc");
    } else if (size == 0 || len < 65 || flags > 1 || size > p.room) {
        must_fail(rc, "a size, key length or flags out of range");
    }
    if (rc != 0) {
        return;
    }
    if (strnlen(key, sizeof key) != 64) {
        mismatch("aclrtIpcMemGetExportKey wrote a key of %zu characters, expected 64", strnlen(key, sizeof key));
    }
    int slot = (int)below(MAXKEYS);
    if (keys[slot][0] != 0) {
        callf("aclrtIpcMemClose(%.8s...)", keys[slot]);
        ret(aclrtIpcMemClose(keys[slot]));
    }
    memcpy(keys[slot], key, sizeof key);
    callf("aclrtIpcMemSetImportPid(%.8s..., &1, 1)", key);
    int32_t pid = 1;
    must_pass(ret(aclrtIpcMemSetImportPid(key, &pid, 1)), 0);
    /* Closed at once, now and then: a second close names nothing. */
    if (one_in(2)) {
        callf("aclrtIpcMemClose(%.8s...)", key);
        must_pass(ret(aclrtIpcMemClose(key)), 0);
        callf("aclrtIpcMemClose(%.8s...) again", key);
        must_fail(ret(aclrtIpcMemClose(key)), "a key closed already");
        keys[slot][0] = 0;
    }
}

static void op_ipc_close(void)
{
    int slot = (int)below(MAXKEYS);
    if (keys[slot][0] == 0 || ensure_device() != 0) {
        return;
    }
    callf("aclrtIpcMemClose(%.8s...)", keys[slot]);
    ret(aclrtIpcMemClose(keys[slot]));
    keys[slot][0] = 0;
}

static void op_ipc_bad_key(void)
{
    if (ensure_device() != 0) {
        return;
    }
    char key[96];
    bad_key(key, sizeof key);
    void *p = NULL;
    int32_t pid = 1;
    switch (below(4)) {
    case 0:
        callf("aclrtIpcMemImportByKey(&p, \"%.16s...\", 0)", key);
        must_fail(ret(aclrtIpcMemImportByKey(&p, key, below(3))), "a key that names nothing");
        break;
    case 1:
        callf("aclrtIpcMemClose(\"%.16s...\")", key);
        must_fail(ret(aclrtIpcMemClose(key)), "a key that names nothing");
        break;
    case 2:
        callf("aclrtIpcMemSetImportPid(\"%.16s...\", &1, 1)", key);
        must_fail(ret(aclrtIpcMemSetImportPid(key, &pid, 1)), "a key that names nothing");
        break;
    default:
    {
        uint64_t v = rnd() | 1;
        aclrtDrvMemHandle h = NULL;
        callf("aclrtMemImportFromShareableHandle(%#llx, 0, &h)", (unsigned long long)v);
        must_fail(ret(aclrtMemImportFromShareableHandle(v, 0, &h)), "a handle that names nothing");
        break;
    }
    }
}

const struct op ops_ipc[] = {
    {"ipc_export", 2, op_ipc_export},
    {"ipc_close", 1, op_ipc_close},
    {"ipc_bad_key", 2, op_ipc_bad_key},
    {NULL, 0, NULL},
};
