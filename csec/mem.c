/*
 * The memory functions: memset_s, memcpy_s, memmove_s and their wide forms.
 *
 * Checks in the order the codes are documented: the size of the
 * destination first (ERANGE, nothing touched), then the pointers (EINVAL,
 * or EINVAL_AND_RESET when the destination can take the reset), then the
 * count against the destination (ERANGE_AND_RESET), then, for the copies
 * that must not overlap, the overlap (EOVERLAP_AND_RESET). Every reset
 * fills the whole destination with zeros; memset_s fills it with c.
 */
#include "sec.h"

errno_t memset_s(void *dest, size_t destMax, int c, size_t count)
{
    if (destMax > SECUREC_MEM_MAX_LEN) {
        return ERANGE;
    }
    if (dest == NULL) {
        return destMax == 0 ? ERANGE : EINVAL;
    }
    if (count > destMax) {
        if (destMax == 0) {
            return ERANGE;
        }
        memset(dest, c, destMax);
        return ERANGE_AND_RESET;
    }
    memset(dest, c, count);
    return EOK;
}

/*
 * copy is memcpy_s (mayOverlap 0) and memmove_s (1).
 */
static errno_t copy(void *dest, size_t destMax, const void *src, size_t count, int mayOverlap)
{
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) {
        return ERANGE;
    }
    if (dest == NULL) {
        return EINVAL;
    }
    if (src == NULL) {
        memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    if (dest == src || count == 0) {
        return EOK;
    }
    if (mayOverlap) {
        memmove(dest, src, count);
        return EOK;
    }
    if (sec_overlap(dest, count, src, count)) {
        memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    memcpy(dest, src, count);
    return EOK;
}

errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count)
{
    return copy(dest, destMax, src, count, 0);
}

errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count)
{
    return copy(dest, destMax, src, count, 1);
}

/*
 * wcopy is wmemcpy_s and wmemmove_s: sizes in wide characters, and the
 * count is checked before the pointers (a NULL destination with too large
 * a count is ERANGE, as documented for the wide forms).
 */
static errno_t wcopy(wchar_t *dest, size_t destMax, const wchar_t *src, size_t count, int mayOverlap)
{
    if (destMax == 0 || destMax > SECUREC_WCHAR_MEM_MAX_LEN) {
        return ERANGE;
    }
    if (count > destMax) {
        if (dest == NULL) {
            return ERANGE;
        }
        memset(dest, 0, destMax * sizeof(wchar_t));
        return ERANGE_AND_RESET;
    }
    return copy(dest, destMax * sizeof(wchar_t), src, count * sizeof(wchar_t), mayOverlap);
}

errno_t wmemcpy_s(wchar_t *dest, size_t destMax, const wchar_t *src, size_t count)
{
    return wcopy(dest, destMax, src, count, 0);
}

errno_t wmemmove_s(wchar_t *dest, size_t destMax, const wchar_t *src, size_t count)
{
    return wcopy(dest, destMax, src, count, 1);
}
