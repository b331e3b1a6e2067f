/*
 * securectype.h: the limits and configuration of gocann's libc_sec.so, the
 * bounds-checking C library every CANN install carries (Huawei's "secure
 * C", securec.h). securec.h includes this header; programs include
 * securec.h.
 *
 * gocann's own implementation: see docs/c-abi.md ("libc_sec.so").
 */
#ifndef GOCANN_SECURECTYPE_H
#define GOCANN_SECURECTYPE_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A user-space build: every function of the library is there. */
#ifndef SECUREC_IN_KERNEL
#define SECUREC_IN_KERNEL 0
#endif
#define SECUREC_ENABLE_MEMSET 1
#define SECUREC_ENABLE_MEMMOVE 1
#define SECUREC_ENABLE_MEMCPY 1
#define SECUREC_ENABLE_STRCPY 1
#define SECUREC_ENABLE_STRNCPY 1
#define SECUREC_ENABLE_STRCAT 1
#define SECUREC_ENABLE_STRNCAT 1
#define SECUREC_ENABLE_SPRINTF 1
#define SECUREC_ENABLE_VSPRINTF 1
#define SECUREC_ENABLE_SNPRINTF 1
#define SECUREC_ENABLE_VSNPRINTF 1
#define SECUREC_SNPRINTF_TRUNCATED 1
#define SECUREC_ENABLE_SSCANF 1
#define SECUREC_ENABLE_VSSCANF 1
#define SECUREC_ENABLE_SCANF 1
#define SECUREC_ENABLE_VSCANF 1
#define SECUREC_ENABLE_FSCANF 1
#define SECUREC_ENABLE_VFSCANF 1
#define SECUREC_ENABLE_SCANF_FILE 1
#define SECUREC_ENABLE_STRTOK 1
#define SECUREC_ENABLE_GETS 1
#define SECUREC_ENABLE_WCHAR_FUNC 1

/*
 * The largest destination a string function accepts, in characters
 * (2^31 - 1), and a memory function, in bytes; destMax above it is
 * ERANGE. The library is built with these values: a program that defines
 * other ones before including the header changes only its own view.
 */
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif
#define SECUREC_WCHAR_STRING_MAX_LEN (SECUREC_STRING_MAX_LEN / sizeof(wchar_t))
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#define SECUREC_WCHAR_MEM_MAX_LEN (SECUREC_MEM_MAX_LEN / sizeof(wchar_t))

/*
 * -DSECUREC_SUPPORT_FORMAT_WARNING=1 lets the compiler check the printf
 * formats given to sprintf_s and its family.
 */
#ifndef SECUREC_SUPPORT_FORMAT_WARNING
#define SECUREC_SUPPORT_FORMAT_WARNING 0
#endif
#if SECUREC_SUPPORT_FORMAT_WARNING && defined(__GNUC__)
#define SECUREC_ATTRIBUTE(x, y) __attribute__((format(printf, (x), (y))))
#else
#define SECUREC_ATTRIBUTE(x, y)
#endif

#endif /* GOCANN_SECURECTYPE_H */
