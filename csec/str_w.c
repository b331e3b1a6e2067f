/* The string functions for wchar_t: wcscpy_s, wcsncpy_s, wcscat_s, wcsncat_s, wcstok_s. */
#include "sec.h"

#define CH wchar_t
#define MAXLEN SECUREC_WCHAR_STRING_MAX_LEN
#define CPY wcscpy_s
#define NCPY wcsncpy_s
#define CAT wcscat_s
#define NCAT wcsncat_s
#define TOK wcstok_s
#include "str.inc"
