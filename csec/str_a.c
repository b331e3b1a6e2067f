/* The string functions for char: strcpy_s, strncpy_s, strcat_s, strncat_s, strtok_s. */
#include "sec.h"

#define CH char
#define MAXLEN SECUREC_STRING_MAX_LEN
#define CPY strcpy_s
#define NCPY strncpy_s
#define CAT strcat_s
#define NCAT strncat_s
#define TOK strtok_s
#include "str.inc"
