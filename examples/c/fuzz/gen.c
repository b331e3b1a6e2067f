/*
 * Random numbers and argument generators: sizes and integers with their
 * boundary values, handles (live, NULL, stale, of another kind, garbage)
 * and memory pointers (live, interior, off the end, freed, NULL).
 */
#include "fuzz.h"

/* xoshiro256** seeded through splitmix64: the same seed gives the same
 * sequence on every machine. */
static uint64_t st[4];

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        st[i] = splitmix(&seed);
    }
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rnd(void)
{
    uint64_t r = rotl(st[1] * 5, 7) * 9, t = st[1] << 17;
    st[2] ^= st[0];
    st[3] ^= st[1];
    st[1] ^= st[2];
    st[0] ^= st[3];
    st[2] ^= t;
    st[3] = rotl(st[3], 45);
    return r;
}

uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
int one_in(uint64_t n) { return below(n) == 0; }

static const uint64_t huge_sizes[] = {
    0x80000000ULL, 1ULL << 40, 1ULL << 62, UINT64_MAX, 0xfffffffffffff000ULL,
    UINT64_MAX - 7, 1ULL << 63, 0x100000000ULL, 0x100000008ULL,
};

uint64_t size_huge(void)
{
    /* 0x80000000 and 2^32 fit in a 64 GiB device: only the rest are
     * sizes nothing can have. */
    return huge_sizes[1 + below(4)];
}

uint64_t size_any(void)
{
    switch (below(8)) {
    case 0:
        return 0;
    case 1:
        return huge_sizes[below(ARRAY_LEN(huge_sizes))];
    case 2:
        return 1 + below(8);
    case 3:
        return (uint64_t)1 << below(20);
    default:
        return 1 + below(4096);
    }
}

int32_t int_any(void)
{
    static const int32_t v[] = {0, 1, -1, 2, 3, 7, 8, 64, 1000, INT32_MAX, INT32_MIN, -2, 0x10000};
    return v[below(ARRAY_LEN(v))];
}

uint32_t flags_any(uint32_t known)
{
    switch (below(6)) {
    case 0:
        return 0;
    case 1:
        return UINT32_MAX;
    case 2:
        return (uint32_t)rnd();
    default: {
        uint32_t f = 0;
        for (int b = 0; b < 32; b++) {
            if ((known >> b & 1) && one_in(3)) {
                f |= 1u << b;
            }
        }
        return f;
    }
    }
}

const char *size_name(uint64_t v)
{
    static char buf[4][32];
    static int n;
    char *b = buf[n++ & 3];
    if (v == UINT64_MAX) {
        return "SIZE_MAX";
    }
    if (v >= (1ULL << 32) && (v & (v - 1)) == 0) {
        snprintf(b, 32, "2^%d", __builtin_ctzll(v));
        return b;
    }
    snprintf(b, 32, v > 0xffff ? "%#llx" : "%llu", (unsigned long long)v);
    return b;
}

/* ---- handles ---------------------------------------------------------- */

/* Kinds a wrong-kind handle may not be taken from: the ones some calls
 * accept in place of the wanted kind. */
static int interchangeable(int want, int got)
{
    return (want == K_STREAM && got == K_MSTREAM) || (want == K_MSTREAM && got == K_STREAM);
}

static char garbage_target[64];

static void *garbage(void)
{
    int a;
    switch (below(6)) {
    case 0:
        return (void *)(uintptr_t)1;
    case 1:
        return (void *)(uintptr_t)0xdeadbeefULL;
    case 2:
        return (void *)UINTPTR_MAX;
    case 3:
        return garbage_target;      /* real host memory */
    case 4:
        a = alloc_pick(1 << M_DEV);
        return a >= 0 ? fz.allocs[a].p : (void *)garbage_target;   /* device memory */
    default:
        return (void *)(uintptr_t)(0x1000 + below(0x100000) * 8);
    }
}

harg pick_handle(int kind, int null_ok)
{
    harg r = {NULL, -1, INVALID, "NULL"};
    for (;;) {
        switch (below(10)) {
        case 0:
            r.h = NULL;
            r.v = null_ok ? VALID : INVALID;
            r.what = "NULL";
            return r;
        case 1:
            if ((r.h = stale_handle(kind)) != NULL) {
                r.what = "stale";
                r.v = INVALID;
                return r;
            }
            continue;
        case 2: {
            int k = (int)below(NKINDS), i;
            if (k == kind || interchangeable(kind, k) || (i = obj_pick(k)) < 0) {
                continue;
            }
            r.h = fz.objs[i].h;
            r.what = "wrong-kind";
            r.v = INVALID;
            return r;
        }
        case 3:
            if (!one_in(3)) {
                continue;
            }
            r.h = garbage();
            r.what = "garbage";
            r.v = INVALID;
            return r;
        default:
            if ((r.idx = obj_pick(kind)) < 0) {
                if (one_in(4)) {
                    r.h = NULL;
                    r.v = null_ok ? VALID : INVALID;
                    return r;
                }
                continue;
            }
            r.h = fz.objs[r.idx].h;
            r.what = "live";
            r.v = VALID;
            return r;
        }
    }
}

harg pick_stream(void)
{
    harg r = pick_handle(K_STREAM, 1);
    if (r.h == NULL) {
        r.what = "NULL(default)";
        r.v = fz.cur_ctx >= 0 ? VALID : INVALID;
    }
    return r;
}

const char *hdesc(const harg *a)
{
    static char buf[8][48];
    static int n;
    char *b = buf[n++ & 7];
    if (a->idx >= 0) {
        snprintf(b, 48, "%s#%llu", fz.objs[a->idx].kind == K_STREAM && fz.objs[a->idx].is_default ? "defstream" : "obj",
                 (unsigned long long)fz.objs[a->idx].serial);
    } else {
        snprintf(b, 48, "%s %p", a->what, a->h);
    }
    return b;
}

/* The runtime gave the address of freed memory to memory of its own that
 * the caller may use too (a model's argument block or condition word; a
 * device opened again keeps its addresses): it is not freed memory then. */
static int runtime_reused(const void *p)
{
    aclrtPtrAttributes at;
    return aclrtPointerGetAttributes(p, &at) == ACL_SUCCESS && at.location.type == ACL_MEM_LOCATION_TYPE_DEVICE;
}

/* ---- pointers --------------------------------------------------------- */

parg valid_ptr(int a, uint64_t count)
{
    alloc *m = &fz.allocs[a];
    parg r = {m->p, m->extent, a, VALID, "live", m->kind, m->dev};
    if (count < m->extent && one_in(2)) {
        uint64_t off = below(m->extent - count + 1);
        r.p += off;
        r.room -= off;
        r.what = "interior";
    }
    return r;
}

parg pick_ptr(int kindmask, uint64_t count)
{
    parg r = {NULL, 0, -1, INVALID, "NULL", M_DEV, -1};
    int a, f;
    for (int tries = 0; tries < 8; tries++) {
        switch (below(12)) {
        case 0:
            return r;
        case 1: /* off the end of a device allocation */
            if ((a = alloc_pick(kindmask & (1 << M_DEV | 1 << M_PINNED))) < 0) {
                continue;
            }
            /* Page-locked memory: inside it, or the runtime cannot know it
             * from any other host memory. */
            r = valid_ptr(a, 0);
            r.p = fz.allocs[a].p + below(fz.allocs[a].extent + (fz.allocs[a].kind == M_DEV));
            r.room = (uint64_t)(fz.allocs[a].p + fz.allocs[a].extent - r.p);
            r.what = "off-the-end";
            r.v = count > r.room ? INVALID : VALID;
            return r;
        case 2: /* freed, not reused */
            if ((f = freed_pick(kindmask & (1 << M_DEV), !(fz.avoid & AV_CLOSED_DEV))) < 0) {
                continue;
            }
            r.p = fz.freed[f].p + (one_in(2) ? 0 : below(fz.freed[f].size));
            r.room = 0;
            r.what = fz.freed[f].closed ? "freed(closed device)" : "freed";
            r.v = INVALID;
            r.kind = fz.freed[f].kind;
            r.dev = fz.freed[f].dev;
            if (overlaps_live(r.p, count ? count : 1) || runtime_reused(r.p)) {
                r = (parg){NULL, 0, -1, INVALID, "NULL", M_DEV, -1};
                continue;
            }
            return r;
        default:
            if ((a = alloc_pick(kindmask)) < 0 || fz.allocs[a].extent < count) {
                continue;
            }
            return valid_ptr(a, count);
        }
    }
    return r;
}

/* Room in a live allocation from p on, or 0. */
uint64_t room_of(const void *p)
{
    int a = alloc_of(p);
    return a < 0 ? 0 : (uint64_t)(fz.allocs[a].p + fz.allocs[a].extent - (const char *)p);
}

/* Fills buf with a pattern derived from seed. */
void pattern(void *buf, uint64_t n, uint64_t seed)
{
    uint8_t *b = buf;
    uint64_t x = seed | 1;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b[i] = (uint8_t)x;
    }
}

int first_diff(const void *a, const void *b, uint64_t n)
{
    const uint8_t *x = a, *y = b;
    for (uint64_t i = 0; i < n; i++) {
        if (x[i] != y[i]) {
            return (int)i;
        }
    }
    return -1;
}

/* A random lower-case name of fewer than n bytes, NUL included. */
void rand_name(char *buf, size_t n)
{
    size_t len = below(n);
    for (size_t i = 0; i < len; i++) {
        buf[i] = (char)('a' + below(26));
    }
    buf[len] = 0;
}
