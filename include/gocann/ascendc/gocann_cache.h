/*
 * gocann: CANN-compatible runtime on a simulated NPU.
 *
 * Part of kernel_operator.h: the AI core's data cache and the hints about
 * it, and its system counter. On the device, scalar reads and writes of
 * global memory go through a per-core data cache (DCache), so a core sees
 * another's writes, and they see its own, only after
 * DataCacheCleanAndInvalid or through the ...ByPassDCache calls; the copy
 * engines bypass it. Here every core's accesses reach the host's coherent
 * memory, so these calls have no effect on values: they are the memory
 * fences (and the atomic accesses) that make one core's writes before the
 * call visible to another core that synchronizes with it after, in order,
 * as the device guarantees. The L2 cache hints and DataCachePreload only
 * change timing on the device and do nothing here.
 *
 * It needs nothing of the tensors but their names, so gocann_tensor.h may
 * include it for the enumerations of GlobalTensor::SetL2CacheHint.
 * Include kernel_operator.h, not this.
 */
#ifndef GOCANN_ASCENDC_CACHE_H_
#define GOCANN_ASCENDC_CACHE_H_

#include <cstdint>
#include <ctime>
#include <type_traits>

#include "gocann_builtin.h"

namespace AscendC {

template <typename T>
class GlobalTensor;
template <typename T>
class LocalTensor;

/* What DataCacheCleanAndInvalid acts on: the cache line of the address,
 * or the whole data cache. */
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };

/* Which memory DataCacheCleanAndInvalid makes the data cache agree with;
 * CACHELINE_ATOMIC is not on Atlas A2. */
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

/* The accesses DataSyncBarrier waits for. */
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

/* The L2 cache modes of a GlobalTensor (SetL2CacheHint). */
enum class CacheMode : uint8_t {
    CACHE_MODE_DISABLE = 0,
    CACHE_MODE_NORMAL = 1,
    CACHE_MODE_LAST = 2,
    CACHE_MODE_PERSISTENT = 4,
};
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };

namespace gocann {

/* Fence orders this core's memory accesses before it against those after
 * it, for the compiler and the host processor alike. */
inline void Fence()
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __asm__ __volatile__("" ::: "memory");
}

template <typename T>
constexpr bool ScalarGM()
{
    return std::is_integral<T>::value && !std::is_same<T, bool>::value &&
           (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
}

} // namespace gocann

/* DataCacheCleanAndInvalid writes back and drops cached lines: here a
 * fence, so that this core's writes are seen by, and other cores' writes
 * seen by, the accesses after it. */
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst)
{
    static_assert(dcciDst != DcciDst::CACHELINE_ATOMIC,
                  "DataCacheCleanAndInvalid: DcciDst::CACHELINE_ATOMIC is not on Atlas A2");
    (void)dst;
    gocann::Fence();
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T> &dst)
{
    static_assert(dcciDst != DcciDst::CACHELINE_ATOMIC,
                  "DataCacheCleanAndInvalid: DcciDst::CACHELINE_ATOMIC is not on Atlas A2");
    (void)dst;
    gocann::Fence();
}

template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst)
{
    (void)dst;
    gocann::Fence();
}

/* DataCachePreload loads a cache line early: a prefetch here. */
template <typename T, typename U = uint64_t>
__aicore__ inline void DataCachePreload(const GlobalTensor<U> &src, const T cacheOffset)
{
    static_assert(std::is_same<U, uint64_t>::value, "DataCachePreload: src is a GlobalTensor<uint64_t>");
    static_assert(std::is_same<T, int16_t>::value || std::is_same<T, int64_t>::value,
                  "DataCachePreload: cacheOffset is an int16_t or an int64_t");
    __builtin_prefetch(reinterpret_cast<const uint8_t *>(src.GetPhyAddr()) + cacheOffset);
}

/* DataSyncBarrier waits until this core's earlier memory accesses are
 * done: a fence, whatever the kind of memory. */
template <MemDsbT arg0>
__aicore__ inline void DataSyncBarrier()
{
    gocann::Fence();
}

/* ReadGmByPassDCache and WriteGmByPassDCache read and write global memory
 * past the data cache: single atomic accesses here, ordered with the
 * other cores' accesses, so that a flag polled in a loop is read afresh
 * each time. */
template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T *addr)
{
    static_assert(gocann::ScalarGM<T>(), "ReadGmByPassDCache: T is an integer of 1, 2, 4 or 8 bytes");
    return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}

template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T *addr, T value)
{
    static_assert(gocann::ScalarGM<T>(), "WriteGmByPassDCache: T is an integer of 1, 2, 4 or 8 bytes");
    __atomic_store_n(addr, value, __ATOMIC_SEQ_CST);
}

/* GetSystemCycle is the system counter, which runs at 50 MHz on Atlas A2:
 * here the host's monotonic clock in the same units. */
__aicore__ inline int64_t GetSystemCycle()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 50000000 + int64_t(ts.tv_nsec) / 20;
}

} // namespace AscendC

#endif /* GOCANN_ASCENDC_CACHE_H_ */
