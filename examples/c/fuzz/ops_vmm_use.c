/*
 * Virtual memory in use: access set and read back and checked by a copy,
 * bytes written through one mapping read back through another of the
 * same handle, retained handles and their properties.
 */
#include "vmm.h"

#include <string.h>

/* op_access sets access on a mapping, reads it back, and checks that a
 * copy needs it. */
static void op_access(void)
{
    int m = pick_live(maps, sizeof maps[0], NMAP);
    if (m < 0) {
        return;
    }
    int d = phys[maps[m].phys].dev;
    static const unsigned flags[] = {ACL_RT_MEM_ACCESS_FLAGS_NONE, ACL_RT_MEM_ACCESS_FLAGS_READ,
                                     ACL_RT_MEM_ACCESS_FLAGS_READWRITE, 2};
    unsigned f = flags[below(4)];
    aclrtMemAccessDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.flags = (aclrtMemAccessFlags)f;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = (uint32_t)d;
    uint64_t size = one_in(8) ? maps[m].size / 2 : maps[m].size;
    callf("aclrtMemSetAccess(%p, %llu, {flags %u, device %d}, 1)", (void *)maps[m].addr, (unsigned long long)size, f, d);
    aclError rc = ret(aclrtMemSetAccess(maps[m].addr, size, &desc, 1));
    if (f == 2 || size != maps[m].size) {
        must_fail(rc, f == 2 ? "access flags 2" : "a size other than the mapping's");
    } else {
        must_pass(rc, 0);
        if (rc == 0) {
            maps[m].access = f;
        }
    }
    aclrtMemLocation loc = {(uint32_t)d, ACL_MEM_LOCATION_TYPE_DEVICE};
    uint64_t got = 99;
    callf("aclrtMemGetAccess(%p, device %d, &flag)", (void *)maps[m].addr, d);
    rc = ret(aclrtMemGetAccess(maps[m].addr, &loc, &got));
    must_pass(rc, 0);
    if (rc == 0 && got != maps[m].access) {
        finding("WRONG VALUE", "aclrtMemGetAccess", "flags %llu, set %u", (unsigned long long)got, maps[m].access);
    }
    if (cur_dev() != d) {
        return;
    }
    char buf[64];
    memset(buf, 7, sizeof buf);
    callf("aclrtMemcpy(%p, 64, host, 64, H2D) with access %u", (void *)maps[m].addr, maps[m].access);
    rc = ret(aclrtMemcpy(maps[m].addr, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    if (maps[m].access != ACL_RT_MEM_ACCESS_FLAGS_READWRITE) {
        must_fail(rc, "a copy into mapped memory without write access");
    } else {
        must_pass(rc, allow_for_ctx(fz.cur_ctx));
    }
}

/* op_alias writes through one mapping and reads through another mapping
 * of the same handle (or the same one). */
static void op_alias(void)
{
    int a = pick_live(maps, sizeof maps[0], NMAP);
    if (a < 0 || maps[a].access != ACL_RT_MEM_ACCESS_FLAGS_READWRITE || cur_dev() != phys[maps[a].phys].dev) {
        return;
    }
    int b = a;
    for (int m = 0; m < NMAP; m++) {
        if (m != a && maps[m].live && maps[m].phys == maps[a].phys && maps[m].access != 0 && one_in(2)) {
            b = m;
        }
    }
    uint64_t n = 1 + below(8192), off = below(maps[a].size - n);
    static unsigned char want[8192], got[8192];
    pattern(want, n, fz.call);
    callf("aclrtMemcpy(%p, %llu, host, %llu, H2D)", (void *)(maps[a].addr + off), (unsigned long long)n,
          (unsigned long long)n);
    aclError rc = ret(aclrtMemcpy(maps[a].addr + off, n, want, n, ACL_MEMCPY_HOST_TO_DEVICE));
    must_pass(rc, allow_for_ctx(fz.cur_ctx));
    if (rc != 0) {
        return;
    }
    callf("aclrtMemcpy(host, %llu, %p, %llu, D2H) through the other mapping", (unsigned long long)n,
          (void *)(maps[b].addr + off), (unsigned long long)n);
    rc = ret(aclrtMemcpy(got, n, maps[b].addr + off, n, ACL_MEMCPY_DEVICE_TO_HOST));
    must_pass(rc, allow_for_ctx(fz.cur_ctx));
    int i;
    if (rc == 0 && (i = first_diff(want, got, n)) >= 0) {
        mismatch("byte %d of %llu written at %p reads %#x at %p", i, (unsigned long long)n, (void *)(maps[a].addr + off),
                 got[i], (void *)(maps[b].addr + off));
    }
}

static void op_retain(void)
{
    int m = pick_live(maps, sizeof maps[0], NMAP);
    if (m < 0) {
        return;
    }
    aclrtDrvMemHandle h = NULL;
    int inside = one_in(5);
    char *at = maps[m].addr + (inside ? 4096 : 0);
    callf("aclrtMemRetainAllocationHandle(%p, &h)", (void *)at);
    aclError rc = ret(aclrtMemRetainAllocationHandle(at, &h));
    vphys *p = &phys[maps[m].phys];
    if (inside || p->refs == 0) {
        must_fail(rc, inside ? "an address inside a mapping" : "a mapping whose handle was freed");
        return;
    }
    must_pass(rc, 0);
    if (rc != 0) {
        return;
    }
    if (h != p->h) {
        finding("WRONG VALUE", "aclrtMemRetainAllocationHandle", "handle %p, mapped %p", h, p->h);
    }
    p->refs++;
    aclrtPhysicalMemProp prop;
    callf("aclrtMemGetAllocationPropertiesFromHandle(%p, &prop)", h);
    rc = ret(aclrtMemGetAllocationPropertiesFromHandle(h, &prop));
    must_pass(rc, 0);
    if (rc == 0 && (prop.location.type != ACL_MEM_LOCATION_TYPE_DEVICE || (int)prop.location.id != p->dev)) {
        finding("WRONG VALUE", "aclrtMemGetAllocationPropertiesFromHandle", "location %d/%u, expected device %d",
                prop.location.type, prop.location.id, p->dev);
    }
}

const struct op ops_vmm_use[] = {
    {"vmm_access", 2, op_access},
    {"vmm_alias", 4, op_alias},
    {"vmm_retain", 2, op_retain},
    {NULL, 0, NULL},
};
