// Which vector paths this build and CPU can run, and the cache line size. A
// family's AVX2 and AVX-512 code is compiled with __attribute__((target(...))),
// so the library needs no global -mavx2; it is called only after the check here
// returned true, from code that carries the same attribute (so that it
// inlines).
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_CPU_FEATURES_H_
#define SSTFILTER_FILTER_INTERNAL_CPU_FEATURES_H_

#include <cstddef>

// 1 when this compiler can build the x86-64 vector paths at all.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SSTFILTER_HAVE_AVX2_PATH 1
#include <immintrin.h>
#else
#define SSTFILTER_HAVE_AVX2_PATH 0
#endif

namespace sstfilter {
namespace filter_internal {

// Bytes per cache line on the CPUs the hot paths are made for (x86-64): memory
// aligned to it keeps each 64-byte block of a filter in one line, so that a
// query or an add touches one line.
constexpr size_t kCacheLineBytes = 64;

// Whether this CPU runs AVX2 code. Cheap after the first call.
bool CpuHasAvx2();

// Whether this CPU runs the AVX-512 population-count code (AVX-512 F, DQ and
// VPOPCNTDQ, with AVX2 and BMI2) and the OS saves the AVX-512 state. Cheap
// after the first call.
bool CpuHasAvx512Popcnt();

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_CPU_FEATURES_H_
