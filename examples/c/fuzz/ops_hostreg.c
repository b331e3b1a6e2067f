/*
 * Host memory the device can see: aclrtHostRegister / V2 with every flag,
 * aclrtHostGetDevicePointer, aclrtHostUnregister, a kernel writing mapped
 * memory in place, aclrtHostMemMapCapabilities, aclrtCheckMemType and
 * aclrtMallocHostWithCfg. Registration works on the program's own
 * page-aligned regions, never freed, so the model of what is registered
 * is exact: ranges registered until unregistered or aclFinalize.
 */
#include "fuzz.h"

#include <string.h>
#include <sys/mman.h>

#define NREG 4
#define PAGES 4
#define PG 4096

static char *regions[NREG];

typedef struct reg {
    int live;
    char *p;
    uint64_t size;
    int mapped;
} reg;

static reg regs[NREG * PAGES];

void hostreg_forget(void) { memset(regs, 0, sizeof regs); }

static char *region(int i)
{
    if (regions[i] == NULL) {
        void *m = mmap(NULL, PAGES * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        regions[i] = m == MAP_FAILED ? NULL : m;
    }
    return regions[i];
}

static int overlapping(const char *p, uint64_t n)
{
    for (size_t i = 0; i < ARRAY_LEN(regs); i++) {
        if (regs[i].live && p < regs[i].p + regs[i].size && regs[i].p < p + n) {
            return 1;
        }
    }
    return 0;
}

static reg *covering(const char *p)
{
    for (size_t i = 0; i < ARRAY_LEN(regs); i++) {
        if (regs[i].live && p >= regs[i].p && p < regs[i].p + regs[i].size) {
            return &regs[i];
        }
    }
    return NULL;
}

static void add_reg(char *p, uint64_t n, int mapped)
{
    for (size_t i = 0; i < ARRAY_LEN(regs); i++) {
        if (!regs[i].live) {
            regs[i] = (reg){1, p, n, mapped};
            return;
        }
    }
}

/* A pointer into a region and a size within it, sometimes unaligned or
 * NULL. */
static char *reg_range(uint64_t *n)
{
    char *base = region((int)below(NREG));
    if (base == NULL || one_in(20)) {
        *n = PG;
        return NULL;
    }
    uint64_t page = below(PAGES);
    char *p = base + page * PG + (one_in(10) ? 8 * (1 + below(8)) : 0);
    uint64_t left = (uint64_t)(base + PAGES * PG - p);
    *n = one_in(20) ? 0 : 1 + below(left);
    return p;
}

static void op_hostreg(void)
{
    if (ensure_device() != 0) {
        return;
    }
    uint64_t n;
    char *p = reg_range(&n);
    int v1 = one_in(3);
    uint32_t flag;
    const char *why = p == NULL ? "a NULL ptr" : n == 0 ? "size 0" : NULL;
    aclError rc;
    void *dev = (void *)1;
    if (v1) {
        static const int types[] = {ACL_HOST_REGISTER_MAPPED, ACL_HOST_REGISTER_IOMEMORY, ACL_HOST_REGISTER_READONLY, 1, 0x40};
        int type = one_in(4) ? types[below(ARRAY_LEN(types))] : ACL_HOST_REGISTER_MAPPED;
        int nulldev = one_in(20);
        flag = ACL_HOST_REG_MAPPED;
        why = why ? why : nulldev ? "a NULL devPtr" : type != ACL_HOST_REGISTER_MAPPED ? "a type other than MAPPED" : NULL;
        callf("aclrtHostRegister(%p, %llu, %d, %s)", (void *)p, (unsigned long long)n, type, nulldev ? "NULL" : "&dev");
        rc = ret(aclrtHostRegister(p, n, (aclrtHostRegisterType)type, nulldev ? NULL : &dev));
    } else {
        static const uint32_t flags[] = {ACL_HOST_REG_MAPPED, ACL_HOST_REG_PINNED, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED,
                                         0, 0x1, ACL_HOST_REG_IOMEMORY, ACL_HOST_REG_READONLY | ACL_HOST_REG_MAPPED, 0x20};
        flag = one_in(4) ? flags[below(ARRAY_LEN(flags))] : flags[below(3)];
        uint32_t known = ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED;
        why = why ? why : (flag & known) == 0 || (flag & ~known) != 0 ? "a flag outside MAPPED and PINNED" : NULL;
        callf("aclrtHostRegisterV2(%p, %llu, %#x)", (void *)p, (unsigned long long)n, flag);
        rc = ret(aclrtHostRegisterV2(p, n, flag));
    }
    if (why == NULL && (uintptr_t)p % PG != 0) {
        why = "a ptr not 4 KiB aligned";
    }
    if (why == NULL && overlapping(p, n)) {
        why = "a range overlapping a registered one";
    }
    if (why != NULL) {
        must_fail(rc, why);
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        add_reg(p, n, (flag & ACL_HOST_REG_MAPPED) != 0);
        fz.checks++;
        if (v1 && dev != p) {
            finding("WRONG VALUE", "hostreg-devptr", "aclrtHostRegister gave device address %p for host %p", dev, (void *)p);
        }
    }
}

static void op_hostunreg(void)
{
    if (ensure_device() != 0) {
        return;
    }
    char *p = NULL;
    int live = 0;
    for (size_t i = 0; i < ARRAY_LEN(regs) && !one_in(4); i++) {
        if (regs[i].live) {
            p = regs[i].p;
        }
    }
    if (p == NULL && !one_in(8)) {
        uint64_t n;
        p = reg_range(&n);
    }
    reg *r = NULL;
    for (size_t i = 0; i < ARRAY_LEN(regs); i++) {
        if (regs[i].live && regs[i].p == p) {
            r = &regs[i];
            live = 1;
        }
    }
    callf("aclrtHostUnregister(%p)", (void *)p);
    aclError rc = ret(aclrtHostUnregister(p));
    if (!live) {
        must_fail(rc, p == NULL ? "a NULL ptr" : "not the start of a registration");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        r->live = 0;
    }
}

static void op_hostdevptr(void)
{
    if (ensure_device() != 0) {
        return;
    }
    uint64_t n;
    char *p = reg_range(&n);
    if (p != NULL && n > 0) {
        p += below(n);
    }
    uint32_t flag = one_in(10) ? 1 : 0;
    void *dev = NULL;
    callf("aclrtHostGetDevicePointer(%p, &dev, %u)", (void *)p, flag);
    aclError rc = ret(aclrtHostGetDevicePointer(p, &dev, flag));
    reg *r = p ? covering(p) : NULL;
    if (p == NULL || flag != 0 || r == NULL || !r->mapped) {
        must_fail(rc, p == NULL ? "a NULL pHost" : flag ? "flag not 0" : "not mapped registered memory");
        return;
    }
    must_pass(rc, 0);
    fz.checks++;
    if (rc == 0 && dev != p) {
        finding("WRONG VALUE", "hostreg-devptr", "aclrtHostGetDevicePointer(%p) = %p, expected the host address", (void *)p, dev);
    }
}

/* A kernel writes mapped registered memory; the host reads it in place. */
static void op_hostreg_kernel(void)
{
    if (ensure_device() != 0 || fz.objs[fz.cur_ctx].tainted) {
        return;
    }
    reg *r = NULL;
    for (size_t i = 0; i < ARRAY_LEN(regs); i++) {
        if (regs[i].live && regs[i].mapped && (r == NULL || one_in(2))) {
            r = &regs[i];
        }
    }
    int s = clean_stream(fz.cur_ctx);
    if (r == NULL || s < 0 || use_ctx_of_stream(s) != 0) {
        return;
    }
    uint64_t n = r->size < 512 ? r->size : 1 + below(512);
    uint8_t pat = (uint8_t)rnd();
    memset(r->p, 0, n);
    aclError rc;
    if (kernel_fill(s, fz.objs[s].h, r->p, n, pat, &rc) != 0 || rc != 0) {
        return;
    }
    callf("aclrtSynchronizeStream(%p) [kernel into registered memory]", fz.objs[s].h);
    rc = ret(aclrtSynchronizeStream(fz.objs[s].h));
    must_pass(rc, allow_for_stream(s));
    if (rc != 0) {
        return;
    }
    fz.checks++;
    for (uint64_t i = 0; i < n; i++) {
        if ((uint8_t)r->p[i] != (uint8_t)(pat + i)) {
            mismatch("a kernel writing registered host memory at %p: byte %llu is %#x, expected %#x", (void *)r->p,
                     (unsigned long long)i, (uint8_t)r->p[i], (uint8_t)(pat + i));
            return;
        }
    }
}

static void op_hostmap_caps(void)
{
    if (ensure_device() != 0) {
        return;
    }
    int dev = one_in(8) ? bad_dev() : valid_dev();
    int hac = (int)below(12);
    aclrtHostMemMapCapability cap = (aclrtHostMemMapCapability)7;
    int nullcap = one_in(20);
    callf("aclrtHostMemMapCapabilities(%d, %d, %s)", dev, hac, nullcap ? "NULL" : "&cap");
    aclError rc = ret(aclrtHostMemMapCapabilities((uint32_t)dev, (aclrtHacType)hac, nullcap ? NULL : &cap));
    if (nullcap || dev < 0 || dev >= fz.ndev || hac >= 10) {
        must_fail(rc, nullcap ? "a NULL capabilities" : hac >= 10 ? "hacType past the enum" : "an invalid device");
        return;
    }
    must_pass(rc, 0);
    int want = hac == ACL_RT_HAC_TYPE_AIC || hac == ACL_RT_HAC_TYPE_AIV;
    fz.checks++;
    if (rc == 0 && (int)cap != want) {
        finding("WRONG VALUE", "hostmap-caps", "aclrtHostMemMapCapabilities(%d, %d) = %d, expected %d", dev, hac, (int)cap, want);
    }
}

static void op_checkmemtype(void)
{
    if (ensure_device() != 0) {
        return;
    }
    void *list[4];
    uint32_t n = (uint32_t)(1 + below(4));
    int all_dev = 1;
    for (uint32_t i = 0; i < n; i++) {
        parg p = pick_ptr(one_in(4) ? 1 << M_PINNED | 1 << M_PAGEABLE : 1 << M_DEV, 1);
        list[i] = p.p;
        all_dev = all_dev && p.p != NULL && p.kind == M_DEV && p.a >= 0 && p.room > 0 && p.dev == cur_dev();
    }
    uint32_t memType = one_in(8) ? (uint32_t)below(64) : one_in(3) ? ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP : ACL_RT_MEM_TYPE_DEV;
    uint32_t reserve = one_in(20) ? 1 : 0, res = 9;
    if (one_in(20)) {
        n = 0;
    }
    callf("aclrtCheckMemType(%u addresses, %#x, &res, %u)", n, memType, reserve);
    aclError rc = ret(aclrtCheckMemType(list, n, memType, &res, reserve));
    const uint32_t known = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD;
    if (reserve || n == 0 || memType == 0 || (memType & ~known)) {
        must_fail(rc, reserve ? "reserve not 0" : n == 0 ? "size 0" : "memType outside DEV, DVPP and RSVD");
        return;
    }
    must_pass(rc, 0);
    uint32_t want = all_dev && (memType & ACL_RT_MEM_TYPE_DEV);
    fz.checks++;
    if (rc == 0 && res != want) {
        finding("WRONG VALUE", "checkmemtype", "aclrtCheckMemType = %u, expected %u", res, want);
    }
}

static void op_mallochost_cfg(void)
{
    if (ensure_device() != 0) {
        return;
    }
    aclrtMallocAttribute attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
    attrs[0].value.moduleId = 33;
    attrs[1].attr = ACL_RT_MEM_ATTR_VA_FLAG;
    attrs[1].value.vaFlag = (uint32_t)below(2);
    const char *why = NULL;
    switch (below(10)) {
    case 0:
        attrs[1].value.vaFlag = 2 + (uint32_t)below(100);
        why = "vaFlag above 1";
        break;
    case 1:
        attrs[0].attr = one_in(2) ? ACL_RT_MEM_ATTR_DEVICE_ID : ACL_RT_MEM_ATTR_RSV;
        why = "an attribute host memory does not take";
        break;
    }
    aclrtMallocConfig cfg = {attrs, 1 + below(2)};
    if (why && attrs[1].value.vaFlag > 1 && cfg.numAttrs == 1) {
        why = NULL;
    }
    int nocfg = one_in(4);
    uint64_t size = one_in(20) ? 0 : 1 + below(65536);
    void *p = NULL;
    callf("aclrtMallocHostWithCfg(&p, %llu, %s)", (unsigned long long)size, nocfg ? "NULL" : "cfg");
    aclError rc = ret(aclrtMallocHostWithCfg(&p, size, nocfg ? NULL : &cfg));
    if (size == 0 || (!nocfg && why != NULL)) {
        must_fail(rc, size == 0 ? "size 0" : why);
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc == 0 && alloc_new(M_PINNED, p, size, -1) < 0) {
        callf("aclrtFreeHost(%p)", p);
        ret(aclrtFreeHost(p));
    }
}

const struct op ops_hostreg[] = {
    {"host_register", 4, op_hostreg},
    {"host_unregister", 3, op_hostunreg},
    {"host_devptr", 2, op_hostdevptr},
    {"host_kernel", 1, op_hostreg_kernel},
    {"hostmap_caps", 1, op_hostmap_caps},
    {"check_memtype", 2, op_checkmemtype},
    {"mallochost_cfg", 2, op_mallochost_cfg},
    {NULL, 0, NULL},
};
