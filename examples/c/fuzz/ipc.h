/*
 * The cross-process IPC area (ops_ipcpeer.c) and its second process (ipc_peer.c).
 */
#ifndef FUZZ_IPC_H_
#define FUZZ_IPC_H_

#include "fuzz.h"

#define PEER_DATA 64

enum peer_op { PEER_PID = 1, PEER_MEM, PEER_NOTIFY, PEER_EVENT, PEER_SHARE };

/* A request: import what key (or u64) names on device dev, use n bytes. */
struct peer_req {
    int op, dev;
    uint64_t u64, size;
    size_t n;
    char key[128];
};

/* An answer: the import's code, then the codes of what the peer did with
 * it, and the bytes it read. */
struct peer_rep {
    aclError rc, rc2, rc3;
    int32_t pid;
    unsigned char data[PEER_DATA];
};

/* peer_start forks the peer; call it before the first ACL call. */
int peer_start(void);
/* peer_stop ends the peer and waits for it. */
void peer_stop(void);
/* peer_ask sends q and waits for the answer; -1 once the peer is gone. */
int peer_ask(const struct peer_req *q, struct peer_rep *r);

#endif
