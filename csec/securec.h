/*
 * securec.h: the bounds-checking functions of libc_sec.so, with the
 * signatures, return codes and destination handling of Huawei's secure C
 * library, which CANN's programs and samples include and link
 * (${ASCEND_HOME_PATH}/lib64/libc_sec.so).
 *
 * gocann's own implementation: docs/c-abi.md ("libc_sec.so") says what
 * each function does on each error and where it differs from C11 Annex K.
 *
 * The rule of the family: a function that finds an error returns a code
 * (or -1, or NULL), and when its destination pointer and size are usable
 * it first resets the destination, which is what the *_AND_RESET codes
 * say: the memory functions fill it with zeros (memset_s with c), the
 * string and print functions store '\0' at its start.
 */
#ifndef GOCANN_SECUREC_H
#define GOCANN_SECUREC_H

#include "securectype.h"
#include <errno.h>
#include <stdarg.h>

#ifndef SECUREC_DEFINED_ERRNO_TYPE
#define SECUREC_DEFINED_ERRNO_TYPE
typedef int errno_t;
#endif

/* Success. */
#ifndef EOK
#define EOK 0
#endif
/* A bad argument; the destination could not be reset. */
#ifndef EINVAL
#define EINVAL 22
#endif
/* A bad argument; the destination was reset (EINVAL | 128). */
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150
#endif
/* A bad size; the destination could not be reset. */
#ifndef ERANGE
#define ERANGE 34
#endif
/* The destination is too small; it was reset (ERANGE | 128). */
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
/* Source and destination overlap; the destination was reset (54 | 128). */
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif

#ifndef SECUREC_API
#if defined(SECUREC_DLL_EXPORT) && defined(__GNUC__)
#define SECUREC_API __attribute__((visibility("default")))
#else
#define SECUREC_API extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version the library follows: "1.1.16", and 0x510 in *verNumber. */
SECUREC_API const char *GetHwSecureCVersion(unsigned short *verNumber);

/* Memory: destMax and count in bytes (w*: in wide characters). */
SECUREC_API errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
SECUREC_API errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
SECUREC_API errno_t wmemcpy_s(wchar_t *dest, size_t destMax, const wchar_t *src, size_t count);
SECUREC_API errno_t wmemmove_s(wchar_t *dest, size_t destMax, const wchar_t *src, size_t count);

/* Strings: destMax counts the terminating null character. */
SECUREC_API errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API char *strtok_s(char *strToken, const char *strDelimit, char **context);
SECUREC_API char *gets_s(char *buffer, size_t destMax);
SECUREC_API errno_t wcscpy_s(wchar_t *strDest, size_t destMax, const wchar_t *strSrc);
SECUREC_API errno_t wcsncpy_s(wchar_t *strDest, size_t destMax, const wchar_t *strSrc, size_t count);
SECUREC_API errno_t wcscat_s(wchar_t *strDest, size_t destMax, const wchar_t *strSrc);
SECUREC_API errno_t wcsncat_s(wchar_t *strDest, size_t destMax, const wchar_t *strSrc, size_t count);
SECUREC_API wchar_t *wcstok_s(wchar_t *strToken, const wchar_t *strDelimit, wchar_t **context);

/*
 * Formatted output: the number of characters written (not counting the
 * terminating null character), or -1. snprintf_s and vsnprintf_s write at
 * most count characters and return -1 when they had to truncate; the
 * *_truncated_s forms truncate to destMax - 1 characters and return that.
 */
SECUREC_API int sprintf_s(char *strDest, size_t destMax, const char *format, ...) SECUREC_ATTRIBUTE(3, 4);
SECUREC_API int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList) SECUREC_ATTRIBUTE(3, 0);
SECUREC_API int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...) SECUREC_ATTRIBUTE(4, 5);
SECUREC_API int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList)
    SECUREC_ATTRIBUTE(4, 0);
SECUREC_API int snprintf_truncated_s(char *strDest, size_t destMax, const char *format, ...) SECUREC_ATTRIBUTE(3, 4);
SECUREC_API int vsnprintf_truncated_s(char *strDest, size_t destMax, const char *format, va_list argList)
    SECUREC_ATTRIBUTE(3, 0);
SECUREC_API int swprintf_s(wchar_t *strDest, size_t destMax, const wchar_t *format, ...);
SECUREC_API int vswprintf_s(wchar_t *strDest, size_t destMax, const wchar_t *format, va_list argList);

/*
 * Formatted input: the number of fields assigned, or -1. %c, %s and %[
 * take two arguments, the destination and its size in elements (a
 * size_t; only its low 32 bits are read, so an unsigned int works too).
 */
SECUREC_API int scanf_s(const char *format, ...);
SECUREC_API int vscanf_s(const char *format, va_list argList);
SECUREC_API int sscanf_s(const char *buffer, const char *format, ...);
SECUREC_API int vsscanf_s(const char *buffer, const char *format, va_list argList);
SECUREC_API int fscanf_s(FILE *stream, const char *format, ...);
SECUREC_API int vfscanf_s(FILE *stream, const char *format, va_list argList);
SECUREC_API int wscanf_s(const wchar_t *format, ...);
SECUREC_API int vwscanf_s(const wchar_t *format, va_list argList);
SECUREC_API int swscanf_s(const wchar_t *buffer, const wchar_t *format, ...);
SECUREC_API int vswscanf_s(const wchar_t *buffer, const wchar_t *format, va_list argList);
SECUREC_API int fwscanf_s(FILE *stream, const wchar_t *format, ...);
SECUREC_API int vfwscanf_s(FILE *stream, const wchar_t *format, va_list argList);

#ifdef __cplusplus
}
#endif

#endif /* GOCANN_SECUREC_H */
