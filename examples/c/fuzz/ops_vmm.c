/*
 * Virtual memory: reserved ranges, physical handles, mappings (one handle
 * at several addresses). The model (vmm.h) is exact: which ranges are
 * reserved and mapped by what, which handles are live and with how many
 * references, what a device closing or aclFinalize takes with it. Access,
 * reads through a second mapping and retains are in ops_vmm_use.c,
 * managed memory in ops_managed.c.
 */
#include "vmm.h"

#include <string.h>

vresv resv[NRESV];
vphys phys[NPHYS];
vmap maps[NMAP];
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

int pick_live(const void *arr, size_t stride, int n)
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
    managed_device_closed(dev);
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
    managed_finalized();
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

const struct op ops_vmm[] = {
    {"vmm_reserve", 4, op_reserve},
    {"vmm_release", 3, op_release},
    {"vmm_phys_alloc", 4, op_phys_alloc},
    {"vmm_phys_free", 3, op_phys_free},
    {"vmm_map", 5, op_map},
    {"vmm_unmap", 3, op_unmap},
    {NULL, 0, NULL},
};
