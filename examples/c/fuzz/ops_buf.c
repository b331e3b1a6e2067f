/*
 * Shared buffers (acl_rt_mbuf.h), data buffers and the version queries.
 * Buffers are modelled here: a header lives until freed (with its chain's
 * first buffer) or until aclFinalize (fz.rt_epoch); its data area, shared
 * by reference copies, lives until its last header is freed or its device
 * closes (fz.dev_epoch). Data buffers need no runtime and outlive
 * aclFinalize.
 */
#include "fuzz.h"

#include <string.h>

#define NBUF 24
#define USER 96

typedef struct mbuf {
    int used;
    aclrtMbuf h;
    uint64_t rt_epoch, dev_epoch;
    int dev, grp;         /* grp: the data area, shared by reference copies */
    size_t size, len;
    uint8_t user[USER];
    int head;             /* index of the chain's first buffer, -1 */
    int chain[NBUF];      /* for a first buffer: the buffers appended */
    int nchain;
} mbuf;

static mbuf bufs[NBUF];
static aclrtMbuf stale_bufs[8];
static int next_grp = 1;

static int buf_alive(int i) { return bufs[i].used && bufs[i].rt_epoch == fz.rt_epoch; }
static int data_alive(int i) { return buf_alive(i) && bufs[i].dev_epoch == fz.dev_epoch[bufs[i].dev]; }

static int pick_buf(void)
{
    int i = (int)below(NBUF);
    if (bufs[i].used && !buf_alive(i)) {
        /* from before aclFinalize: refused, then forgotten */
        callf("aclrtGetBufDataLen(buf%d of before aclFinalize)", i);
        size_t len = 0;
        must_fail(ret(aclrtGetBufDataLen(bufs[i].h, &len)), "a buffer of before aclFinalize");
        bufs[i].used = 0;
        return -1;
    }
    return bufs[i].used ? i : -1;
}

static int free_slot(void)
{
    for (int i = 0; i < NBUF; i++) {
        if (!bufs[i].used || !buf_alive(i)) {
            return i;
        }
    }
    return -1;
}

static void forget(int i)
{
    stale_bufs[below(ARRAY_LEN(stale_bufs))] = bufs[i].h;
    bufs[i].used = 0;
}

static void op_buf_alloc(void)
{
    int slot = free_slot();
    if (slot < 0 || ensure_device() != 0) {
        return;
    }
    int bad = one_in(6) ? 1 + (int)below(3) : 0;
    size_t size = bad == 1 ? 0 : bad == 2 ? ((size_t)4 << 30) + 1 + below(1 << 20) : 1 + below(4096);
    aclrtMbuf h = NULL;
    callf("aclrtAllocBuf(%s, %zu)", bad == 3 ? "NULL" : "&b", size);
    aclError rc = ret(aclrtAllocBuf(bad == 3 ? NULL : &h, size));
    if (bad) {
        must_fail(rc, bad == 1 ? "size 0" : bad == 2 ? "a size past 4 GiB" : "a NULL buf");
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc != 0) {
        return;
    }
    mbuf *b = &bufs[slot];
    memset(b, 0, sizeof *b);
    *b = (mbuf){.used = 1, .h = h, .rt_epoch = fz.rt_epoch, .dev = cur_dev(), .grp = next_grp++, .size = size, .head = -1};
    b->dev_epoch = fz.dev_epoch[b->dev];
}

/* The data area: the same for every header of a group; bytes written
 * through one header read back through another. */
static void op_buf_data(void)
{
    int i = pick_buf();
    if (i < 0) {
        return;
    }
    void *p = NULL;
    size_t size = 0;
    callf("aclrtGetBufData(buf%d, &p, &size)", i);
    aclError rc = ret(aclrtGetBufData(bufs[i].h, &p, &size));
    if (!data_alive(i)) {
        must_fail(rc, "a data area gone with its device");
        return;
    }
    must_pass(rc, 0);
    fz.checks++;
    if (rc != 0 || size != bufs[i].size) {
        if (rc == 0) {
            finding("WRONG VALUE", "aclrtGetBufData", "buf%d has size %zu, want %zu", i, size, bufs[i].size);
        }
        return;
    }
    int j = i;
    for (int k = 0; k < NBUF; k++) {
        if (k != i && buf_alive(k) && bufs[k].grp == bufs[i].grp && one_in(2)) {
            j = k;
        }
    }
    if (bufs[i].dev != cur_dev() || fz.cur_ctx < 0) {
        return;
    }
    uint8_t in[4096], out[4096];
    uint64_t n = 1 + below(size);
    pattern(in, n, fz.call);
    callf("aclrtMemcpy(buf%d data, %zu, in, %llu, H2D)", i, size, (unsigned long long)n);
    rc = ret(aclrtMemcpy(p, size, in, n, ACL_MEMCPY_HOST_TO_DEVICE));
    must_pass(rc, allow_for_ctx(fz.cur_ctx));
    if (rc != 0) {
        return;
    }
    void *q = NULL;
    callf("aclrtGetBufData(buf%d, &q, &size)", j);
    rc = ret(aclrtGetBufData(bufs[j].h, &q, &size));
    must_pass(rc, 0);
    fz.checks++;
    if (rc == 0 && q != p) {
        finding("WRONG VALUE", "aclrtGetBufData", "buf%d and its reference buf%d: data %p and %p", i, j, p, q);
        return;
    }
    callf("aclrtMemcpy(out, %llu, buf%d data, %llu, D2H)", (unsigned long long)n, j, (unsigned long long)n);
    rc = ret(aclrtMemcpy(out, n, q, n, ACL_MEMCPY_DEVICE_TO_HOST));
    must_pass(rc, allow_for_ctx(fz.cur_ctx));
    fz.checks++;
    if (rc == 0 && memcmp(in, out, n) != 0) {
        mismatch("buf%d data read through buf%d differs at %d", i, j, first_diff(in, out, n));
    }
}

static void op_buf_len_user(void)
{
    int i = pick_buf();
    if (i < 0) {
        return;
    }
    mbuf *b = &bufs[i];
    if (one_in(2)) {
        size_t len = one_in(4) ? b->size + 1 + below(64) : below(b->size + 1), got = 0;
        callf("aclrtSetBufDataLen(buf%d, %zu) [size %zu]", i, len, b->size);
        aclError rc = ret(aclrtSetBufDataLen(b->h, len));
        if (len > b->size) {
            must_fail(rc, "a data length past the data area");
        } else {
            must_pass(rc, 0);
            b->len = rc == 0 ? len : b->len;
        }
        callf("aclrtGetBufDataLen(buf%d, &len)", i);
        rc = ret(aclrtGetBufDataLen(b->h, &got));
        must_pass(rc, 0);
        fz.checks++;
        if (rc == 0 && got != b->len) {
            finding("WRONG VALUE", "aclrtGetBufDataLen", "buf%d: %zu, set %zu", i, got, b->len);
        }
        return;
    }
    size_t off = below(USER + 4), n = below(USER + 4);
    int bad = off + n > USER, nul = one_in(10);
    uint8_t data[USER + 8];
    if (one_in(2)) {
        pattern(data, n, fz.call);
        callf("aclrtSetBufUserData(buf%d, %s, %zu, %zu)", i, nul ? "NULL" : "data", n, off);
        aclError rc = ret(aclrtSetBufUserData(b->h, nul ? NULL : data, n, off));
        if (bad || nul) {
            must_fail(rc, bad ? "user data past 96 bytes" : "a NULL dataPtr");
            return;
        }
        must_pass(rc, 0);
        if (rc == 0) {
            memcpy(b->user + off, data, n);
        }
        return;
    }
    callf("aclrtGetBufUserData(buf%d, %s, %zu, %zu)", i, nul ? "NULL" : "data", n, off);
    aclError rc = ret(aclrtGetBufUserData(b->h, nul ? NULL : data, n, off));
    if (bad || nul) {
        must_fail(rc, bad ? "user data past 96 bytes" : "a NULL dataPtr");
        return;
    }
    must_pass(rc, 0);
    fz.checks++;
    if (rc == 0 && memcmp(data, b->user + off, n) != 0) {
        mismatch("buf%d user data at %zu differs at %d", i, off, first_diff(data, b->user + off, n));
    }
}

static void op_buf_ref(void)
{
    int i = pick_buf(), slot = free_slot();
    if (i < 0 || slot < 0 || slot == i) {
        return;
    }
    aclrtMbuf h = NULL;
    callf("aclrtCopyBufRef(buf%d, &n)", i);
    aclError rc = ret(aclrtCopyBufRef(bufs[i].h, &h));
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    mbuf *n = &bufs[slot];
    *n = bufs[i];
    n->h = h;
    n->head = -1;
    n->nchain = 0;
}

static void op_buf_chain(void)
{
    int hd = pick_buf(), b = pick_buf();
    if (hd < 0) {
        return;
    }
    mbuf *h = &bufs[hd];
    if (b >= 0 && one_in(2)) {
        callf("aclrtAppendBufChain(buf%d, buf%d)", hd, b);
        aclError rc = ret(aclrtAppendBufChain(h->h, bufs[b].h));
        if (h->head >= 0 || b == hd || bufs[b].head >= 0 || bufs[b].nchain > 0 || h->nchain + 1 >= 128) {
            must_fail(rc, "a member as head, the head itself, a chained buffer or a full chain");
            return;
        }
        must_pass(rc, 0);
        if (rc == 0) {
            h->chain[h->nchain++] = b;
            bufs[b].head = hd;
        }
        return;
    }
    uint32_t num = 0;
    callf("aclrtGetBufChainNum(buf%d, &num)", hd);
    aclError rc = ret(aclrtGetBufChainNum(h->h, &num));
    if (h->head >= 0) {
        must_fail(rc, "a buffer appended to a chain as headBuf");
        return;
    }
    must_pass(rc, 0);
    fz.checks++;
    if (rc == 0 && num != (uint32_t)h->nchain + 1) {
        finding("WRONG VALUE", "aclrtGetBufChainNum", "buf%d: %u, want %d", hd, num, h->nchain + 1);
    }
    uint32_t idx = (uint32_t)below((uint64_t)h->nchain + 2);
    aclrtMbuf got = NULL;
    callf("aclrtGetBufFromChain(buf%d, %u, &b)", hd, idx);
    rc = ret(aclrtGetBufFromChain(h->h, idx, &got));
    if (idx > (uint32_t)h->nchain) {
        must_fail(rc, "an index past the chain");
        return;
    }
    must_pass(rc, 0);
    fz.checks++;
    aclrtMbuf want = idx == 0 ? h->h : bufs[h->chain[idx - 1]].h;
    if (rc == 0 && got != want) {
        finding("WRONG VALUE", "aclrtGetBufFromChain", "buf%d index %u: %p, want %p", hd, idx, got, want);
    }
}

static void op_buf_free(void)
{
    if (one_in(8)) {
        aclrtMbuf s = stale_bufs[below(ARRAY_LEN(stale_bufs))];
        callf("aclrtFreeBuf(%s %p)", s ? "freed" : "NULL", s);
        must_fail(ret(aclrtFreeBuf(s)), s ? "a freed buffer" : "a NULL buffer");
        return;
    }
    int i = pick_buf();
    if (i < 0) {
        return;
    }
    callf("aclrtFreeBuf(buf%d)", i);
    aclError rc = ret(aclrtFreeBuf(bufs[i].h));
    if (bufs[i].head >= 0) {
        must_fail(rc, "a buffer appended to a chain");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    for (int k = 0; k < bufs[i].nchain; k++) {
        forget(bufs[i].chain[k]);
    }
    forget(i);
}

/* ---- data buffers and versions ---------------------------------------- */

#define NDBUF 4
static struct {
    aclDataBuffer *h;
    void *data;
    size_t size;
} dbufs[NDBUF];
static aclDataBuffer *stale_dbuf;

static void op_data_buffer(void)
{
    int i = (int)below(NDBUF);
    void *data = one_in(4) ? NULL : (void *)(uintptr_t)(0x10000 + below(1 << 20) * 16);
    size_t size = data == NULL && !one_in(3) ? 0 : (size_t)below(1ULL << 34);
    if (dbufs[i].h == NULL) {
        callf("aclCreateDataBuffer(%p, %zu)", data, size);
        aclDataBuffer *h = aclCreateDataBuffer(data, size);
        fz.checks++;
        if ((h == NULL) != (data == NULL && size != 0)) {
            finding(h == NULL ? "UNEXPECTED FAILURE" : "WRONG SUCCESS", "aclCreateDataBuffer", "data %p size %zu", data, size);
        }
        dbufs[i].h = h;
        dbufs[i].data = data;
        dbufs[i].size = size;
        return;
    }
    switch (below(3)) {
    case 0: {
        callf("aclUpdateDataBuffer(db%d, %p, %zu)", i, data, size);
        aclError rc = ret(aclUpdateDataBuffer(dbufs[i].h, data, size));
        if (data == NULL && size != 0) {
            must_fail(rc, "NULL data with a size");
            return;
        }
        must_pass(rc, 0);
        if (rc == 0) {
            dbufs[i].data = data;
            dbufs[i].size = size;
        }
        return;
    }
    case 1:
        callf("aclGetDataBufferAddr/SizeV2(db%d)", i);
        fz.checks++;
        if (aclGetDataBufferAddr(dbufs[i].h) != dbufs[i].data || aclGetDataBufferSizeV2(dbufs[i].h) != dbufs[i].size) {
            finding("WRONG VALUE", "aclGetDataBufferAddr", "db%d: %p %zu, want %p %zu", i, aclGetDataBufferAddr(dbufs[i].h),
                    aclGetDataBufferSizeV2(dbufs[i].h), dbufs[i].data, dbufs[i].size);
        }
        return;
    default:
        callf("aclDestroyDataBuffer(db%d)", i);
        must_pass(ret(aclDestroyDataBuffer(dbufs[i].h)), 0);
        stale_dbuf = dbufs[i].h;
        dbufs[i].h = NULL;
        if (one_in(2)) {
            callf("aclDestroyDataBuffer(destroyed db%d)", i);
            must_fail(ret(aclDestroyDataBuffer(stale_dbuf)), "a destroyed data buffer");
        }
    }
}

static void op_version(void)
{
    char name[16] = "runtime", v[ACL_PKG_VERSION_MAX_SIZE];
    int32_t num = 0, value = -1;
    int other = one_in(3);
    if (other) {
        rand_name(name, sizeof name);
    }
    callf("aclsysGetVersionNum(\"%s\", &num)", name);
    aclError rc = ret(aclsysGetVersionNum(name, &num));
    if (other && strcmp(name, "runtime") != 0) {
        must_fail(rc, "a package not installed");
    } else {
        must_pass(rc, 0);
        fz.checks++;
        if (rc == 0 && (aclsysGetVersionStr(name, v) != 0 || strcmp(v, "9.1.0") != 0 || num != 90100000)) {
            finding("WRONG VALUE", "aclsysGetVersionStr", "runtime: %s, %d", v, num);
        }
    }
    aclCannAttr a = (aclCannAttr)((int)below(5) - 1);
    callf("aclGetCannAttribute(%d, &value)", (int)a);
    rc = ret(aclGetCannAttribute(a, &value));
    if (a < ACL_CANN_ATTR_INF_NAN || a > ACL_CANN_ATTR_JIT_COMPILE) {
        must_fail(rc, "an attribute CANN does not name");
    } else {
        must_pass(rc, 0);
    }
}

const struct op ops_buf[] = {
    {"buf_alloc", 3, op_buf_alloc},
    {"buf_data", 3, op_buf_data},
    {"buf_len_user", 3, op_buf_len_user},
    {"buf_ref", 2, op_buf_ref},
    {"buf_chain", 3, op_buf_chain},
    {"buf_free", 3, op_buf_free},
    {"data_buffer", 2, op_data_buffer},
    {"version", 1, op_version},
    {NULL, 0, NULL},
};
