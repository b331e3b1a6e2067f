/*
 * The virtual memory model shared by ops_vmm.c (ranges, handles,
 * mappings) and ops_vmm_use.c (access, reading through mappings,
 * retains).
 */
#ifndef FUZZ_VMM_H_
#define FUZZ_VMM_H_

#include "fuzz.h"

#define MIB2 ((uint64_t)2 << 20)
#define NRESV 8
#define NPHYS 8
#define NMAP 16

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

extern vresv resv[NRESV];
extern vphys phys[NPHYS];
extern vmap maps[NMAP];

int pick_live(const void *arr, size_t stride, int n); /* a live entry of a model table, or -1 */


#endif
