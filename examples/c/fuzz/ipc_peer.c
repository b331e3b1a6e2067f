/*
 * The second process of the IPC area: forked before the fuzzer's first
 * call, so it is a runtime of its own on the same simulated machine. It
 * obeys requests on a pipe, one at a time, and answers each: import what
 * the fuzzer exported, use it, close it, and say what every call returned
 * and what bytes it saw. It ends when the fuzzer closes the pipe.
 */
#include "ipc.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int req_fd = -1, rep_fd = -1;
static pid_t peer_pid;

static int full_read(int fd, void *p, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t k = read(fd, (char *)p + got, n - got);
        if (k <= 0) {
            return -1;
        }
        got += (size_t)k;
    }
    return 0;
}

static int full_write(int fd, const void *p, size_t n)
{
    for (size_t put = 0; put < n;) {
        ssize_t k = write(fd, (const char *)p + put, n - put);
        if (k <= 0) {
            return -1;
        }
        put += (size_t)k;
    }
    return 0;
}

/* The peer's side of each request. */
static void serve_mem(const struct peer_req *q, struct peer_rep *r)
{
    void *p = NULL;
    r->rc = aclrtIpcMemImportByKey(&p, q->key, 0);
    if (r->rc != 0) {
        return;
    }
    r->rc2 = aclrtMemcpy(r->data, q->n, p, q->n, ACL_MEMCPY_DEVICE_TO_HOST);
    unsigned char back[PEER_DATA];
    for (size_t i = 0; i < q->n; i++) {
        back[i] = (unsigned char)~r->data[i];
    }
    if (r->rc2 == 0) {
        r->rc2 = aclrtMemcpy(p, q->n, back, q->n, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    r->rc3 = aclrtIpcMemClose(q->key);
}

static void serve_notify(const struct peer_req *q, struct peer_rep *r)
{
    aclrtNotify n = NULL;
    aclrtStream s = NULL;
    r->rc = aclrtNotifyImportByKey(&n, q->key, 0);
    if (r->rc != 0) {
        return;
    }
    r->rc2 = aclrtWaitAndResetNotify(n, NULL, 0); /* only the creator waits: must fail */
    r->rc3 = aclrtCreateStream(&s);
    if (r->rc3 == 0) {
        r->rc3 = aclrtRecordNotify(n, s);
        aclError rc = aclrtSynchronizeStream(s);
        r->rc3 = r->rc3 ? r->rc3 : rc;
        (void)aclrtDestroyStream(s);
    }
    (void)aclrtDestroyNotify(n);
}

static void serve_event(const struct peer_req *q, struct peer_rep *r)
{
    aclrtIpcEventHandle h;
    aclrtEvent e = NULL;
    memcpy(&h, q->key, sizeof h);
    r->rc = aclrtIpcOpenEventHandle(h, &e);
    if (r->rc != 0) {
        return;
    }
    r->rc2 = aclrtSynchronizeEventWithTimeout(e, 10000);
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    r->rc3 = aclrtQueryEventStatus(e, &st);
    r->data[0] = (unsigned char)st;
    (void)aclrtDestroyEvent(e);
}

static void serve_share(const struct peer_req *q, struct peer_rep *r)
{
    aclrtDrvMemHandle h = NULL;
    void *va = NULL;
    r->rc = aclrtMemImportFromShareableHandle(q->u64, q->dev, &h);
    if (r->rc != 0) {
        return;
    }
    r->rc2 = aclrtReserveMemAddress(&va, q->size, 0, NULL, 0);
    if (r->rc2 == 0) {
        r->rc2 = aclrtMapMem(va, q->size, 0, h, 0);
        if (r->rc2 == 0) {
            r->rc2 = aclrtMemcpy(r->data, q->n, va, q->n, ACL_MEMCPY_DEVICE_TO_HOST);
            (void)aclrtUnmapMem(va);
        }
        (void)aclrtReleaseMemAddress(va);
    }
    r->rc3 = aclrtFreePhysical(h);
}

static void serve(void)
{
    struct peer_req q;
    int inited = 0, dev = -1;
    while (full_read(req_fd, &q, sizeof q) == 0) {
        struct peer_rep r;
        memset(&r, 0, sizeof r);
        if (!inited) {
            inited = aclInit(NULL) == 0;
        }
        if (q.dev != dev && aclrtSetDevice(q.dev) == 0) {
            dev = q.dev;
        }
        switch (q.op) {
        case PEER_PID:
            r.rc = aclrtDeviceGetBareTgid(&r.pid);
            break;
        case PEER_MEM:
            serve_mem(&q, &r);
            break;
        case PEER_NOTIFY:
            serve_notify(&q, &r);
            break;
        case PEER_EVENT:
            serve_event(&q, &r);
            break;
        case PEER_SHARE:
            serve_share(&q, &r);
            break;
        }
        if (full_write(rep_fd, &r, sizeof r) != 0) {
            break;
        }
    }
    if (inited) {
        (void)aclFinalize();
    }
    _exit(0);
}

int peer_start(void)
{
    int req[2], rep[2];
    if (pipe(req) != 0 || pipe(rep) != 0) {
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        return -1;
    }
    if (pid == 0) {
        close(req[1]);
        close(rep[0]);
        rep_fd = rep[1];
        req_fd = req[0];
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the fuzzer */
        serve();
    }
    close(req[0]);
    close(rep[1]);
    req_fd = req[1];
    rep_fd = rep[0];
    peer_pid = pid;
    return 0;
}

void peer_stop(void)
{
    if (peer_pid <= 0) {
        return;
    }
    /* The peer finalizes on end of file: waiting for it leaves nothing of
     * the machine behind. */
    close(req_fd);
    close(rep_fd);
    (void)waitpid(peer_pid, NULL, 0);
    peer_pid = 0;
}

int peer_ask(const struct peer_req *q, struct peer_rep *r)
{
    if (peer_pid <= 0) {
        return -1;
    }
    if (full_write(req_fd, q, sizeof *q) != 0 || full_read(rep_fd, r, sizeof *r) != 0) {
        peer_pid = 0; /* it died: the area stops asking */
        return -1;
    }
    return 0;
}
