/*
 * 22_churn: objects created and destroyed many times over: nothing the
 * library keeps for an object may outlive it. Contexts are destroyed with
 * an event and a notify live: the objects end with their context, their
 * handles are refused after, and the program's memory stays flat.
 *
 * Usage: 22_churn
 */
#include <unistd.h>

#include "common.h"

static aclrtContext first; /* device 0's default context */

/* rss_mb is the program's resident set in MiB. */
static long rss_mb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL || fscanf(f, "%ld %ld", &pages, &resident) != 2) {
        fail_exit(__FILE__, __LINE__, 0, "cannot read /proc/self/statm");
    }
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

/* ended: contexts destroyed with an event and a notify live, many times
 * over. The objects end with their context, and so must everything kept
 * for them: the program's memory stays flat. */
static void ended(void)
{
    enum { ROUNDS = 20000, BOUND_MB = 64 };
    long before = rss_mb();
    for (int i = 0; i < ROUNDS; i++) {
        aclrtContext c = NULL;
        aclrtEvent e = NULL;
        aclrtNotify nt = NULL;
        CHECK(aclrtCreateContext(&c, 0));
        CHECK(aclrtCreateEvent(&e));
        CHECK(aclrtRecordEvent(e, NULL));
        CHECK(aclrtCreateNotify(&nt, ACL_NOTIFY_DEFAULT));
        CHECK(aclrtDestroyContext(c));
        if (i == 0) {
            CHECK(aclrtSetCurrentContext(first));
            EXPECT_CODE(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE, "ended: an event of a destroyed context");
            EXPECT_CODE(aclrtDestroyNotify(nt), ACL_ERROR_RT_INVALID_HANDLE, "ended: a notify of a destroyed context");
        }
    }
    CHECK(aclrtSetCurrentContext(first));
    long grown = rss_mb() - before;
    EXPECT(grown < BOUND_MB, "ended: %d contexts destroyed with an event and a notify live: memory grew by %ld MiB (bound %d)",
           ROUNDS, grown, BOUND_MB);
    clear_errors();
}

int main(void)
{
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetCurrentContext(&first));
    ended();
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("PASS 22_churn\n");
    return 0;
}
