#include "filter/internal/cpu_features.h"

namespace sstfilter {
namespace filter_internal {

// __builtin_cpu_init first in each: these may run from another library's
// static initialiser, before libgcc has filled in the CPU model.

bool CpuHasAvx2() {
#if SSTFILTER_HAVE_AVX2_PATH
  static const bool has_avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has_avx2;
#else
  return false;
#endif
}

bool CpuHasAvx512Popcnt() {
#if SSTFILTER_HAVE_AVX2_PATH
  // libgcc reports AVX-512 features only when the OS saves the vector state.
  static const bool has_avx512_popcnt = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0 &&
           __builtin_cpu_supports("avx512dq") != 0 &&
           __builtin_cpu_supports("avx512vpopcntdq") != 0 &&
           __builtin_cpu_supports("avx2") != 0 &&
           __builtin_cpu_supports("bmi2") != 0;
  }();
  return has_avx512_popcnt;
#else
  return false;
#endif
}

}  // namespace filter_internal
}  // namespace sstfilter
