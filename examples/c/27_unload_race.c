/*
 * 27_unload_race: kernel launches racing aclrtBinaryUnLoad and the loads
 * that reuse the freed handles. Launcher threads launch the functions of a
 * shared table, keeping a function for several launches, while churn
 * threads unload the table's binaries and load new ones in their place:
 * each new function takes the handle slot of the one unloaded just before
 * it and is launched at once, so its record is ready while launchers still
 * hold the old handle. Every kernel stores its own marker in the word it is
 * given, and a new function runs a kernel no function of the table runs.
 * Each launch must run the kernel it named, be refused as an invalid
 * handle (107017), or, taken before its binary was unloaded, fault when it
 * starts (507015, reported by the stream's synchronization): no launch
 * runs another kernel, and none is lost. Every so often a launch goes to
 * one of two shared streams that another thread keeps destroying and
 * replacing, so threads are inside the direct path as streams end.
 *
 * Usage: 27_unload_race <libmarks.so>
 */
#include "common.h"

#include <pthread.h>

#define MARK(k) (0x6d61726b00000000ull | (k)) /* as kernels/marks.c stores */

enum {
    KERNELS = 16,  /* mark_0 .. mark_15 */
    ENTRIES = 6,   /* functions in the table */
    LAUNCHERS = 4, /* threads launching */
    CHURNERS = 2,  /* threads unloading and loading */
    BATCH = 500,   /* launches between two checks */
    BATCHES = 50,  /* per launcher: 4 x 50 x 500 = 100000 launches */
    KEEP = 8,      /* launches made with a function before the table is read again */
    VICTIMS = 2,   /* shared streams destroyed and replaced */
    SHARED = 16,   /* one launch in SHARED goes to a shared stream */
};

/* entry is one function of the table. Its version is odd from just before
 * its binary is unloaded until the new function is in place; launchers
 * read the function and its marker as a pair, retrying while the version
 * is odd or changes. */
struct entry {
    pthread_mutex_t mu;        /* one churner at a time */
    aclrtBinHandle bin;        /* under mu */
    uint64_t version, fn, mark; /* atomic */
    unsigned kernel;           /* atomic */
};

static struct entry table[ENTRIES];

/* victim is a shared stream; launchers read it as they read entries. */
struct victim {
    uint64_t version, stream; /* atomic */
};

static struct victim victims[VICTIMS];
static const char *binPath;
static aclrtContext ctx;
static int stopChurn; /* atomic */

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* read_entry returns e's version, with its function and marker. */
static uint64_t read_entry(struct entry *e, uint64_t *fn, uint64_t *mark)
{
    for (;;) {
        uint64_t v = __atomic_load_n(&e->version, __ATOMIC_ACQUIRE);
        *fn = __atomic_load_n(&e->fn, __ATOMIC_ACQUIRE);
        *mark = __atomic_load_n(&e->mark, __ATOMIC_ACQUIRE);
        if (v % 2 == 0 && __atomic_load_n(&e->version, __ATOMIC_ACQUIRE) == v) {
            return v;
        }
    }
}

static void sleep_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static uint64_t read_victim(struct victim *v)
{
    for (;;) {
        uint64_t ver = __atomic_load_n(&v->version, __ATOMIC_ACQUIRE);
        uint64_t s = __atomic_load_n(&v->stream, __ATOMIC_ACQUIRE);
        if (ver % 2 == 0 && __atomic_load_n(&v->version, __ATOMIC_ACQUIRE) == ver) {
            return s;
        }
    }
}

/* replace_victim gives v a new stream and destroys the old one, while
 * launchers may still hold it. */
static void replace_victim(struct victim *v)
{
    aclrtStream s = NULL, old = (aclrtStream)(uintptr_t)__atomic_load_n(&v->stream, __ATOMIC_ACQUIRE);
    CHECK(aclrtCreateStream(&s));
    __atomic_fetch_add(&v->version, 1, __ATOMIC_ACQ_REL);
    __atomic_store_n(&v->stream, (uint64_t)(uintptr_t)s, __ATOMIC_RELEASE);
    __atomic_fetch_add(&v->version, 1, __ATOMIC_ACQ_REL);
    if (old != NULL) {
        CHECK(aclrtDestroyStreamForce(old));
    }
}

static void *replace_victims(void *arg)
{
    long *replaced = arg;
    uint64_t rnd = 0x2545f4914f6cdd1dull;
    CHECK(aclrtSetCurrentContext(ctx));
    while (!__atomic_load_n(&stopChurn, __ATOMIC_ACQUIRE)) {
        replace_victim(&victims[next_random(&rnd) % VICTIMS]);
        (*replaced)++;
        sleep_us(500);
    }
    return NULL;
}

/* unused_kernel picks a kernel no entry runs, starting from a random one. */
static unsigned unused_kernel(uint64_t *rnd)
{
    unsigned k = (unsigned)(next_random(rnd) % KERNELS);
    for (;; k = (k + 1) % KERNELS) {
        int used = 0;
        for (int i = 0; i < ENTRIES; i++) {
            used |= __atomic_load_n(&table[i].kernel, __ATOMIC_ACQUIRE) == k;
        }
        if (!used) {
            return k;
        }
    }
}

/* load_entry loads the binary again and gives e its kernel k, launched
 * once on s so that later launches of it can go direct. mu is held and
 * e's version is odd. */
static void load_entry(struct entry *e, unsigned k, aclrtStream s, void *scratch)
{
    char name[16];
    aclrtFuncHandle f = NULL;
    CHECK(aclrtBinaryLoadFromFile(binPath, NULL, &e->bin));
    snprintf(name, sizeof name, "mark_%u", k);
    CHECK(aclrtBinaryGetFunction(e->bin, name, &f));
    CHECK(aclrtLaunchKernelWithHostArgs(f, 1, s, NULL, &scratch, sizeof scratch, NULL, 0));
    __atomic_store_n(&e->fn, (uint64_t)(uintptr_t)f, __ATOMIC_RELEASE);
    __atomic_store_n(&e->mark, MARK(k), __ATOMIC_RELEASE);
    __atomic_store_n(&e->kernel, k, __ATOMIC_RELEASE);
    __atomic_fetch_add(&e->version, 1, __ATOMIC_ACQ_REL);
}

struct churner {
    uint64_t rnd;
    long churns;
};

static void *churn(void *arg)
{
    struct churner *c = arg;
    aclrtStream s = NULL;
    void *scratch = NULL;
    CHECK(aclrtSetCurrentContext(ctx));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&scratch, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    while (!__atomic_load_n(&stopChurn, __ATOMIC_ACQUIRE)) {
        struct entry *e = &table[next_random(&c->rnd) % ENTRIES];
        pthread_mutex_lock(&e->mu);
        /* Launchers keep the old function a while, its handle dead; its
         * slot is the next one handed out. */
        __atomic_fetch_add(&e->version, 1, __ATOMIC_ACQ_REL);
        CHECK(aclrtBinaryUnLoad(e->bin));
        load_entry(e, unused_kernel(&c->rnd), s, scratch);
        pthread_mutex_unlock(&e->mu);
        c->churns++;
        sleep_us(200);
    }
    /* A first launch may have met its binary unloaded by the other churner. */
    aclError rc = aclrtSynchronizeStream(s);
    if (rc != ACL_SUCCESS && rc != ACL_ERROR_RT_AICORE_EXCEPTION) {
        fail_exit(__FILE__, __LINE__, rc, "churner: aclrtSynchronizeStream returned %d", rc);
    }
    clear_errors();
    CHECK(aclrtFree(scratch));
    CHECK(aclrtDestroyStream(s));
    return NULL;
}

/* A launch as the launcher made it: the marker of the kernel it named (0 if
 * refused), and the entry and version it took the function from. */
struct made {
    uint64_t mark, version;
    int entry;
};

struct launcher {
    uint64_t rnd;
    long ran, refused, faulted; /* launches that ran their kernel, were refused, faulted */
    long shared;                /* launches onto the shared streams, taken or refused */
    int bad;                    /* why the launcher stopped, 0 if it did not */
    aclError code;
    uint64_t want, got;
    struct made made[BATCH];
};

/* check_batch checks the words the launches of a batch stored; sync is what
 * the stream's synchronization returned. */
static void check_batch(struct launcher *l, const uint64_t *got, aclError sync)
{
    for (int j = 0; j < BATCH && !l->bad; j++) {
        struct made *m = &l->made[j];
        if (m->mark != 0 && got[j] == m->mark) {
            l->ran++;
        } else if (m->mark != 0 && got[j] == 0 && sync == ACL_ERROR_RT_AICORE_EXCEPTION &&
                   __atomic_load_n(&table[m->entry].version, __ATOMIC_ACQUIRE) != m->version) {
            l->faulted++; /* its binary was unloaded, maybe before it started */
        } else if (got[j] != 0 || m->mark != 0) {
            l->bad = 3, l->want = m->mark, l->got = got[j];
        }
    }
}

static void *launch(void *arg)
{
    struct launcher *l = arg;
    aclrtStream s = NULL;
    uint64_t *words = NULL;
    uint64_t got[BATCH];
    CHECK(aclrtSetCurrentContext(ctx));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc((void **)&words, sizeof got, ACL_MEM_MALLOC_HUGE_FIRST));
    void *scratch = NULL; /* what launches onto the shared streams store to */
    CHECK(aclrtMalloc(&scratch, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    uint64_t fn = 0, mark = 0, version = 0;
    int entry = 0;
    for (int b = 0; b < BATCHES && !l->bad; b++) {
        CHECK(aclrtMemsetAsync(words, sizeof got, 0, sizeof got, s));
        for (int j = 0; j < BATCH; j++) {
            if (j % KEEP == 0) {
                entry = (int)(next_random(&l->rnd) % ENTRIES);
                version = read_entry(&table[entry], &fn, &mark);
            }
            if (j % SHARED == SHARED - 1) {
                aclrtStream v = (aclrtStream)(uintptr_t)read_victim(&victims[next_random(&l->rnd) % VICTIMS]);
                aclError rc = aclrtLaunchKernel((aclrtFuncHandle)(uintptr_t)fn, 1, &scratch, sizeof scratch, v);
                l->made[j] = (struct made){0, version, entry};
                l->shared++;
                if (rc != ACL_SUCCESS && rc != ACL_ERROR_RT_INVALID_HANDLE && rc != ACL_ERROR_RT_STREAM_ABORT) {
                    l->bad = 1, l->code = rc;
                    break;
                }
                continue;
            }
            void *word = &words[j];
            aclError rc = j % 2 ? aclrtLaunchKernel((aclrtFuncHandle)(uintptr_t)fn, 1, &word, sizeof word, s)
                                : aclrtLaunchKernelWithHostArgs((aclrtFuncHandle)(uintptr_t)fn, 1, s, NULL, &word,
                                                                sizeof word, NULL, 0);
            l->made[j] = (struct made){mark, version, entry};
            if (rc == ACL_ERROR_RT_INVALID_HANDLE) {
                l->made[j].mark = 0;
                l->refused++;
            } else if (rc != ACL_SUCCESS) {
                l->bad = 1, l->code = rc;
                break;
            }
        }
        aclError rc = aclrtSynchronizeStream(s);
        if (rc != ACL_SUCCESS && rc != ACL_ERROR_RT_AICORE_EXCEPTION) {
            l->bad = 2, l->code = rc;
            break;
        }
        CHECK(aclrtMemcpy(got, sizeof got, words, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST));
        check_batch(l, got, rc);
        clear_errors();
    }
    CHECK(aclrtFree(words));
    CHECK(aclrtFree(scratch));
    CHECK(aclrtDestroyStream(s));
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <libmarks.so>\n", argv[0]);
        return 2;
    }
    binPath = argv[1];
    aclrtStream s = NULL;
    void *scratch = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateContext(&ctx, 0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtMalloc(&scratch, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < ENTRIES; i++) {
        pthread_mutex_init(&table[i].mu, NULL);
        table[i].kernel = (unsigned)i;
        table[i].version = 1;
        load_entry(&table[i], (unsigned)i, s, scratch);
    }
    CHECK(aclrtSynchronizeStream(s));
    for (int i = 0; i < VICTIMS; i++) {
        replace_victim(&victims[i]);
    }

    pthread_t lt[LAUNCHERS], ct[CHURNERS], vt;
    long replaced = 0;
    static struct launcher l[LAUNCHERS];
    struct churner c[CHURNERS] = {0};
    double start = now_ms();
    for (int i = 0; i < CHURNERS; i++) {
        c[i].rnd = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
        if (pthread_create(&ct[i], NULL, churn, &c[i]) != 0) {
            fail_exit(__FILE__, __LINE__, 0, "pthread_create");
        }
    }
    if (pthread_create(&vt, NULL, replace_victims, &replaced) != 0) {
        fail_exit(__FILE__, __LINE__, 0, "pthread_create");
    }
    for (int i = 0; i < LAUNCHERS; i++) {
        l[i].rnd = 0xd1b54a32d192ed03ull * (uint64_t)(i + 1);
        if (pthread_create(&lt[i], NULL, launch, &l[i]) != 0) {
            fail_exit(__FILE__, __LINE__, 0, "pthread_create");
        }
    }
    for (int i = 0; i < LAUNCHERS; i++) {
        pthread_join(lt[i], NULL);
    }
    __atomic_store_n(&stopChurn, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < CHURNERS; i++) {
        pthread_join(ct[i], NULL);
    }
    pthread_join(vt, NULL);
    double took = now_ms() - start;

    long ran = 0, refused = 0, faulted = 0, shared = 0, churns = 0;
    for (int i = 0; i < LAUNCHERS; i++) {
        if (l[i].bad == 1 || l[i].bad == 2) {
            fail_exit(__FILE__, __LINE__, l[i].code, "launcher %d: a %s returned %d, expected 0, 107017%s", i,
                      l[i].bad == 1 ? "launch" : "synchronization", l[i].code, l[i].bad == 2 ? " or 507015" : "");
        }
        if (l[i].bad == 3) {
            fail_exit(__FILE__, __LINE__, 0,
                      "launcher %d: a launch of the kernel storing %#llx (0: refused) stored %#llx (0: none ran, "
                      "its binary still loaded)",
                      i, (unsigned long long)l[i].want, (unsigned long long)l[i].got);
        }
        ran += l[i].ran, refused += l[i].refused, faulted += l[i].faulted, shared += l[i].shared;
    }
    for (int i = 0; i < CHURNERS; i++) {
        churns += c[i].churns;
    }
    long total = ran + refused + faulted + shared;
    EXPECT(total == (long)LAUNCHERS * BATCHES * BATCH && churns > 0 && refused > 0 && replaced > 0,
           "%ld launches racing %ld unloads and loads: each ran its own kernel (%ld), was refused (%ld, 107017) or "
           "faulted, its binary unloaded (%ld, 507015); %ld onto shared streams destroyed %ld times under them, "
           "each taken or refused",
           total, churns, ran, refused, faulted, shared, replaced);
    printf("took %.0f ms\n", took);

    for (int i = 0; i < VICTIMS; i++) {
        CHECK(aclrtDestroyStreamForce((aclrtStream)(uintptr_t)victims[i].stream));
    }
    for (int i = 0; i < ENTRIES; i++) {
        CHECK(aclrtBinaryUnLoad(table[i].bin));
    }
    CHECK(aclrtFree(scratch));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtDestroyContext(ctx));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 27_unload_race\n");
    return 0;
}
