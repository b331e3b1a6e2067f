/*
 * Virtual and managed memory: reserved ranges, physical handles, mappings
 * (one handle at several addresses), access, retains and properties,
 * managed allocations with their advice, attributes and prefetches. The
 * model here is exact: which ranges are reserved and mapped by what,
 * which handles are live and with how many references, what a device
 * closing or aclFinalize takes with it; bytes written through one mapping
 * are read back through another of the same handle.
 */
#include "fuzz.h"

#include <string.h>

#define MIB2 ((uint64_t)2 << 20)
#define NRESV 8
#define NPHYS 8
#define NMAP 16
#define NMANAGED 4

typedef struct {
    int live;
    char *addr;
    uint64_t size;
} vresv;

typedef struct {
    int live;            /* a reference left: the handle is usable */
    aclrtDrvMemHandle h;
    int dev;
    uint64_t size;
    int refs, maps;      /* its memory goes when both are 0 */
    int held;            /* memory still held (refs or maps), for the device budget */
} vphys;

typedef struct {
    int live;
    char *addr;
    uint64_t size;
    int phys, resv;
    unsigned access;     /* device access of its own device */
} vmap;

typedef struct {
    int live;
    char *p;
    uint64_t size;
    int dev;
} vmanaged;

static vresv resv[NRESV];
static vphys phys[NPHYS];
static vmap maps[NMAP];
static vmanaged mgd[NMANAGED];
static aclrtDrvMemHandle dead_handles[8];
static unsigned ndead;

static aclrtPhysicalMemProp dev_prop(int dev)
{
    aclrtPhysicalMemProp p;
    memset(&p, 0, sizeof p);
    p.memAttr = one_in(2) ? ACL_MEM_HUGE : ACL_HBM_MEM_NORMAL;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = (uint32_t)dev;
    return p;
}

static int free_slot(const void *arr, size_t stride, int n)
{
    for (int i = 0; i < n; i++) {
        if (*(const int *)((const char *)arr + (size_t)i * stride) == 0) {
            return i;
        }
    }
    return -1;
}

static int pick_live(const void *arr, size_t stride, int n)
{
    int start = (int)below((uint64_t)n);
    for (int k = 0; k < n; k++) {
        int i = (start + k) % n;
        if (*(const int *)((const char *)arr + (size_t)i * stride) != 0) {
            return i;
        }
    }
    return -1;
}

/* phys_release gives a handle's memory back once nothing holds it. */
static void phys_settle(int i)
{
    vphys *p = &phys[i];
    if (p->held && p->refs == 0 && p->maps == 0) {
        p->held = 0;
        fz.dev_bytes[p->dev] -= p->size < fz.dev_bytes[p->dev] ? p->size : fz.dev_bytes[p->dev];
    }
    if (p->refs == 0 && p->live) {
        p->live = 0;
        dead_handles[ndead++ % 8] = p->h;
    }
}

static void map_drop(int m)
{
    maps[m].live = 0;
    phys[maps[m].phys].maps--;
    phys_settle(maps[m].phys);
}

/* vmm_device_closed: a device that closes takes its physical memory, and
 * so its mappings, and its managed memory. */
void vmm_device_closed(int dev)
{
    for (int m = 0; m < NMAP; m++) {
        if (maps[m].live && phys[maps[m].phys].dev == dev) {
            maps[m].live = 0;
        }
    }
    for (int i = 0; i < NPHYS; i++) {
        if ((phys[i].live || phys[i].held) && phys[i].dev == dev) {
            if (phys[i].live) {
                dead_handles[ndead++ % 8] = phys[i].h;
            }
            memset(&phys[i], 0, sizeof phys[i]);
        }
    }
    for (int i = 0; i < NMANAGED; i++) {
        if (mgd[i].live && mgd[i].dev == dev) {
            mgd[i].live = 0;
        }
    }
}

/* vmm_finalized: aclFinalize takes everything. */
void vmm_finalized(void)
{
    memset(resv, 0, sizeof resv);
    memset(maps, 0, sizeof maps);
    for (int i = 0; i < NPHYS; i++) {
        if (phys[i].live) {
            dead_handles[ndead++ % 8] = phys[i].h;
        }
    }
    memset(phys, 0, sizeof phys);
    memset(mgd, 0, sizeof mgd);
}

static int resv_overlaps(const char *a, uint64_t n)
{
    for (int i = 0; i < NRESV; i++) {
        if (resv[i].live && a < resv[i].addr + resv[i].size && resv[i].addr < a + n) {
            return 1;
        }
    }
    return 0;
}

static void op_reserve(void)
{
    if (ensure_device() != 0) {
        return;
    }
    int slot = free_slot(resv, sizeof resv[0], NRESV);
    uint64_t size = MIB2 * (1 + below(4));
    size_t alignment = 0;
    uint64_t flags = 0;
    void *hint = NULL, *out = NULL;
    const char *bad = NULL;
    switch (below(8)) {
    case 0:
        size = 0, bad = "size 0";
        break;
    case 1:
        alignment = 4096, bad = "alignment other than 0";
        break;
    case 2:
        size += 1 + below(MIB2 - 1), bad = "a size off the 2 MiB granularity";
        break;
    case 3:
        flags = 2 + below(100), bad = "flags other than 0 or 1";
        break;
    case 4: {
        int r = pick_live(resv, sizeof resv[0], NRESV);
        if (r >= 0) {
            /* Next to a live range, on a multiple of the size rounded up. */
            uint64_t align = 1;
            while (align < size) {
                align <<= 1;
            }
            uintptr_t at = ((uintptr_t)resv[r].addr + resv[r].size + below(64) * MIB2 + align - 1) / align * align;
            hint = (void *)at;
            if (one_in(3)) {
                hint = resv[r].addr, bad = "expectPtr of a reserved range";
            } else if (resv_overlaps(hint, size)) {
                bad = "expectPtr overlapping a reserved range";
            }
        }
        break;
    }
    case 5:
        hint = (void *)(uintptr_t)0x10000000, bad = "expectPtr outside the window";
        break;
    }
    callf("aclrtReserveMemAddress(&p, %llu, %zu, %p, %llu)", (unsigned long long)size, alignment, hint,
          (unsigned long long)flags);
    aclError rc = ret(aclrtReserveMemAddress(&out, size, alignment, hint, flags));
    if (bad) {
        must_fail(rc, bad);
        if (rc == 0) {
            ret(aclrtReleaseMemAddress(out));
        }
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc != 0) {
        return;
    }
    if (hint != NULL && out != hint) {
        finding("WRONG VALUE", "aclrtReserveMemAddress: expectPtr", "free expectPtr %p gave %p", hint, out);
    }
    if (resv_overlaps(out, size)) {
        finding("WRONG VALUE", "aclrtReserveMemAddress: overlap", "%p (%llu bytes) overlaps a live reservation", out,
                (unsigned long long)size);
    }
    if (slot < 0) {
        callf("aclrtReleaseMemAddress(%p)", out);
        must_pass(ret(aclrtReleaseMemAddress(out)), 0);
        return;
    }
    resv[slot] = (vresv){1, out, size};
}

static int resv_maps(int r)
{
    int n = 0;
    for (int m = 0; m < NMAP; m++) {
        n += maps[m].live && maps[m].resv == r;
    }
    return n;
}

static void op_release(void)
{
    int r = pick_live(resv, sizeof resv[0], NRESV);
    if (r < 0 || one_in(6)) {
        void *p = one_in(2) ? NULL : (r >= 0 ? resv[r].addr + MIB2 / 2 : (void *)(uintptr_t)0x5000);
        callf("aclrtReleaseMemAddress(%p)", p);
        must_fail(ret(aclrtReleaseMemAddress(p)), p == NULL ? "a NULL virPtr" : "not the start of a reservation");
        return;
    }
    callf("aclrtReleaseMemAddress(%p)", (void *)resv[r].addr);
    aclError rc = ret(aclrtReleaseMemAddress(resv[r].addr));
    if (resv_maps(r) > 0) {
        must_fail(rc, "a reservation that still has mappings");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        resv[r].live = 0;
    }
}

static void op_phys_alloc(void)
{
    if (ensure_device() != 0) {
        return;
    }
    int d = cur_dev();
    int slot = -1;
    for (int k = 0; k < NPHYS && slot < 0; k++) {
        if (!phys[k].live && !phys[k].held) {
            slot = k; /* a freed handle still mapped keeps its slot */
        }
    }
    uint64_t size = MIB2 * (1 + below(4));
    if (one_in(4)) {
        size -= below(MIB2); /* rounded up to the granularity */
    }
    aclrtPhysicalMemProp p = dev_prop(d);
    uint64_t flags = 0;
    const char *bad = NULL;
    switch (below(10)) {
    case 0:
        size = 0, bad = "size 0";
        break;
    case 1:
        flags = 1, bad = "flags 1";
        break;
    case 2:
        p.handleType = ACL_MEM_HANDLE_TYPE_POSIX, bad = "handleType POSIX";
        break;
    case 3:
        p.memAttr = ACL_DDR_MEM_NORMAL, bad = "DDR memory on a device";
        break;
    case 4:
        p.location.id = (uint32_t)(fz.ndev + (int)below(100)), bad = "a device id out of range";
        break;
    case 5:
        p.location.type = ACL_MEM_LOCATION_TYPE_MANAGED, bad = "location MANAGED";
        break;
    }
    aclrtDrvMemHandle h = NULL;
    callf("aclrtMallocPhysical(&h, %llu, {attr %d, loc %d/%u}, %llu)", (unsigned long long)size, p.memAttr,
          p.location.type, p.location.id, (unsigned long long)flags);
    aclError rc = ret(aclrtMallocPhysical(&h, size, &p, flags));
    if (bad) {
        must_fail(rc, bad);
        if (rc == 0) {
            ret(aclrtFreePhysical(h));
        }
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc != 0) {
        return;
    }
    uint64_t rounded = (size + MIB2 - 1) / MIB2 * MIB2;
    if (slot < 0) {
        callf("aclrtFreePhysical(%p)", h);
        must_pass(ret(aclrtFreePhysical(h)), 0);
        return;
    }
    phys[slot] = (vphys){1, h, d, rounded, 1, 0, 1};
    fz.dev_bytes[d] += rounded;
}

static void op_phys_free(void)
{
    int i = pick_live(phys, sizeof phys[0], NPHYS);
    if (i < 0 || one_in(5)) {
        aclrtDrvMemHandle h = ndead > 0 && one_in(2) ? dead_handles[below(ndead < 8 ? ndead : 8)] : NULL;
        callf("aclrtFreePhysical(%p)", h);
        must_fail(ret(aclrtFreePhysical(h)), h == NULL ? "a NULL handle" : "a freed handle");
        return;
    }
    callf("aclrtFreePhysical(%p)", phys[i].h);
    must_pass(ret(aclrtFreePhysical(phys[i].h)), 0);
    phys[i].refs--;
    phys_settle(i);
}

/* A free place for size bytes in reservation r, 2 MiB aligned; NULL if
 * none. */
static char *map_place(int r, uint64_t size)
{
    for (uint64_t off = 0; off + size <= resv[r].size; off += MIB2) {
        char *at = resv[r].addr + off;
        int clash = 0;
        for (int m = 0; m < NMAP; m++) {
            if (maps[m].live && maps[m].resv == r && at < maps[m].addr + maps[m].size && maps[m].addr < at + size) {
                clash = 1;
            }
        }
        if (!clash) {
            return at;
        }
    }
    return NULL;
}

static int resv_dev(int r)
{
    for (int m = 0; m < NMAP; m++) {
        if (maps[m].live && maps[m].resv == r) {
            return phys[maps[m].phys].dev;
        }
    }
    return -1;
}

static void op_map(void)
{
    int r = pick_live(resv, sizeof resv[0], NRESV), i = pick_live(phys, sizeof phys[0], NPHYS);
    int slot = free_slot(maps, sizeof maps[0], NMAP);
    if (r < 0 || i < 0 || slot < 0 || !fz.inited) {
        return;
    }
    int noaccess = one_in(3);
    char *at = map_place(r, phys[i].size);
    const char *bad = NULL;
    uint64_t size = phys[i].size, off = 0;
    aclrtDrvMemHandle h = phys[i].h;
    if (at == NULL) {
        at = resv[r].addr, bad = "mapping over a mapping or past the reservation";
    } else if (resv_dev(r) >= 0 && resv_dev(r) != phys[i].dev) {
        bad = "a reservation already mapping another device's memory";
    }
    switch (below(8)) {
    case 0:
        size += MIB2, bad = "a size other than the handle's";
        break;
    case 1:
        off = MIB2, bad = "offset other than 0";
        break;
    case 2:
        if (ndead > 0) {
            h = dead_handles[below(ndead < 8 ? ndead : 8)], bad = "a freed handle";
        }
        break;
    case 3:
        at += 4096, bad = "an address off the granularity";
        break;
    }
    callf("%s(%p, %llu, %llu, %p, 0)", noaccess ? "aclrtMemMapNoAccess" : "aclrtMapMem", (void *)at,
          (unsigned long long)size, (unsigned long long)off, h);
    aclError rc = ret(noaccess ? aclrtMemMapNoAccess(at, size, off, h, 0) : aclrtMapMem(at, size, off, h, 0));
    if (bad) {
        must_fail(rc, bad);
        if (rc == 0) {
            ret(aclrtUnmapMem(at));
        }
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        maps[slot] = (vmap){1, at, size, i, r, noaccess ? 0u : 3u};
        phys[i].maps++;
    }
}

static void op_unmap(void)
{
    int m = pick_live(maps, sizeof maps[0], NMAP);
    if (m < 0 || one_in(5)) {
        int r = pick_live(resv, sizeof resv[0], NRESV);
        if (r < 0) {
            return;
        }
        char *at = map_place(r, MIB2);
        if (at == NULL) {
            at = resv[r].addr + 4096;
        }
        callf("aclrtUnmapMem(%p)", (void *)at);
        must_fail(ret(aclrtUnmapMem(at)), "unmapping what is not mapped");
        return;
    }
    callf("aclrtUnmapMem(%p)", (void *)maps[m].addr);
    must_pass(ret(aclrtUnmapMem(maps[m].addr)), 0);
    map_drop(m);
}

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

static void op_managed_alloc(void)
{
    if (ensure_device() != 0) {
        return;
    }
    int slot = free_slot(mgd, sizeof mgd[0], NMANAGED);
    uint64_t size = 1 + below(3 * MIB2);
    uint32_t flag = one_in(6) ? 0 : ACL_RT_MEM_ATTACH_GLOBAL;
    if (one_in(8)) {
        size = 0;
    }
    void *p = NULL;
    callf("aclrtMemAllocManaged(&p, %llu, %u)", (unsigned long long)size, flag);
    aclError rc = ret(aclrtMemAllocManaged(&p, size, flag));
    if (size == 0 || flag != ACL_RT_MEM_ATTACH_GLOBAL) {
        must_fail(rc, size == 0 ? "size 0" : "flag other than ACL_RT_MEM_ATTACH_GLOBAL");
        return;
    }
    must_pass(rc, AL_RESOURCE);
    if (rc != 0) {
        return;
    }
    if (slot < 0) {
        callf("aclrtFree(%p)", p);
        must_pass(ret(aclrtFree(p)), 0);
        return;
    }
    mgd[slot] = (vmanaged){1, p, (size + MIB2 - 1) / MIB2 * MIB2, cur_dev()};
    fz.dev_bytes[mgd[slot].dev] += mgd[slot].size;
}

/* op_managed_use: the host writes in place, a copy reads it back; advice,
 * an attribute and a prefetch on the default stream. */
static void op_managed_use(void)
{
    int i = pick_live(mgd, sizeof mgd[0], NMANAGED);
    if (i < 0 || fz.cur_ctx < 0) {
        return;
    }
    vmanaged *m = &mgd[i];
    uint64_t n = 1 + below(4096), off = below(m->size - n);
    pattern(m->p + off, n, fz.call);
    static unsigned char got[4096];
    callf("aclrtMemcpy(host, %llu, managed %p, %llu, D2H)", (unsigned long long)n, (void *)(m->p + off),
          (unsigned long long)n);
    aclError rc = ret(aclrtMemcpy(got, n, m->p + off, n, ACL_MEMCPY_DEVICE_TO_HOST));
    must_pass(rc, allow_for_ctx(fz.cur_ctx));
    int d;
    if (rc == 0 && (d = first_diff(m->p + off, got, n)) >= 0) {
        mismatch("byte %d of %llu the host wrote in managed memory at %p copies out as %#x", d, (unsigned long long)n,
                 (void *)(m->p + off), got[d]);
    }
    aclrtMemManagedLocation loc = {ACL_MEM_LOCATIONTYPE_DEVICE, m->dev};
    uint64_t size = one_in(6) ? MIB2 + 1 : MIB2;
    callf("aclrtMemManagedAdvise(%p, %llu, SET_PREFERRED_LOCATION, device %d)", (void *)m->p, (unsigned long long)size,
          m->dev);
    rc = ret(aclrtMemManagedAdvise(m->p, size, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, loc));
    if (size != MIB2) {
        must_fail(rc, "advice on a size off 2 MiB");
        return;
    }
    must_pass(rc, 0);
    int32_t v = 99;
    callf("aclrtMemManagedGetAttr(PREFERRED_LOCATION, %p, 2 MiB)", (void *)m->p);
    rc = ret(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m->p, MIB2, &v, sizeof v));
    must_pass(rc, 0);
    if (rc == 0 && v != m->dev) {
        finding("WRONG VALUE", "aclrtMemManagedGetAttr", "PREFERRED_LOCATION %d, advised device %d", v, m->dev);
    }
    if (cur_dev() == m->dev && !one_in(3)) {
        callf("aclrtMemManagedPrefetchAsync(%p, 2 MiB, device %d, 0, NULL)", (void *)m->p, m->dev);
        must_pass(ret(aclrtMemManagedPrefetchAsync(m->p, MIB2, loc, 0, NULL)), allow_for_ctx(fz.cur_ctx));
    }
}

static void op_managed_free(void)
{
    int i = pick_live(mgd, sizeof mgd[0], NMANAGED);
    if (i < 0) {
        return;
    }
    int inside = one_in(5);
    char *p = mgd[i].p + (inside ? 4096 : 0);
    callf("aclrtFree(managed %p)", (void *)p);
    aclError rc = ret(aclrtFree(p));
    if (inside) {
        must_fail(rc, "aclrtFree inside managed memory");
        return;
    }
    must_pass(rc, 0);
    if (rc == 0) {
        mgd[i].live = 0;
        fz.dev_bytes[mgd[i].dev] -= mgd[i].size < fz.dev_bytes[mgd[i].dev] ? mgd[i].size : fz.dev_bytes[mgd[i].dev];
        callf("aclrtFree(managed %p) again", (void *)p);
        must_fail(ret(aclrtFree(p)), "aclrtFree of freed managed memory");
    }
}

const struct op ops_vmm[] = {
    {"vmm_reserve", 4, op_reserve},
    {"vmm_release", 3, op_release},
    {"vmm_phys_alloc", 4, op_phys_alloc},
    {"vmm_phys_free", 3, op_phys_free},
    {"vmm_map", 5, op_map},
    {"vmm_unmap", 3, op_unmap},
    {"vmm_access", 2, op_access},
    {"vmm_alias", 4, op_alias},
    {"vmm_retain", 2, op_retain},
    {"managed_alloc", 2, op_managed_alloc},
    {"managed_use", 3, op_managed_use},
    {"managed_free", 2, op_managed_free},
    {NULL, 0, NULL},
};
