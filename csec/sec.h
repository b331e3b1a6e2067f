/*
 * What the library's files share. Built with -fvisibility=hidden: only the
 * functions securec.h declares (SECUREC_API) are exported.
 */
#ifndef GOCANN_CSEC_SEC_H
#define GOCANN_CSEC_SEC_H

#define _GNU_SOURCE
#include <stdint.h>
#include <wchar.h>

#include "securec.h"

/* sec_overlap tells whether [a, a+alen) and [b, b+blen), in bytes, meet. */
static inline int sec_overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return alen != 0 && blen != 0 && x < y + blen && y < x + alen;
}

#endif /* GOCANN_CSEC_SEC_H */
