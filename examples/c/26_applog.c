/*
 * 26_applog: application log lines through ACL_APP_LOG, before aclInit and
 * after. The test harness runs it with the log environment set and reads
 * what was written (standard output or the plog file); the program itself
 * only writes the lines.
 */
#include "common.h"

int main(void)
{
    char longer[3000];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';

    ACL_APP_LOG(ACL_DEBUG, "debug line %d", 1);
    ACL_APP_LOG(ACL_INFO, "info line %d before aclInit", 2);
    CHECK(aclInit(NULL));
    ACL_APP_LOG(ACL_WARNING, "warning line %s", "three");
    ACL_APP_LOG(ACL_ERROR, "error line %u", 4u);
    ACL_APP_LOG(ACL_ERROR, "%s", longer);
    CHECK(aclFinalize());
    printf("PASS 26_applog\n");
    return 0;
}
