/* The checks' shared parts: the CHECK line printer and its failure flag. */
#ifndef SECUREC_CHECKS_H
#define SECUREC_CHECKS_H
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>
#include "securec.h"
#include <stdio.h>
#include <string.h>

extern int failed;

#define CHECK(cond, ...)                  \
    do {                                  \
        if (cond) {                       \
            printf("ok: " __VA_ARGS__);   \
        } else {                          \
            printf("FAIL: " __VA_ARGS__); \
            failed = 1;                   \
        }                                 \
        printf("\n");                     \
    } while (0)

/* all tells whether the n bytes at p are all c. */
static inline int all(const void *p, size_t n, int c)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        if (b[i] != (unsigned char)c) {
            return 0;
        }
    }
    return 1;
}

void scans(void);
void streams(void);
void stdins(void);

#endif
