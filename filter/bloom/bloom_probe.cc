// Which probe path this build and CPU run: the AVX2 probes of bloom_probe.h
// when the CPU has AVX2, else the portable ones.

#include "filter/bloom/bloom_probe.h"

#include "filter/bloom/bloom_impl.h"

namespace sstfilter {
namespace bloom_internal {

bool CpuHasAvx2() {
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
  // __builtin_cpu_init first: this may run from another library's static
  // initialiser, before libgcc has filled in the CPU model.
  static const bool has_avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has_avx2;
#else
  return false;
#endif
}

bool ProbePathAvailable(ProbePath path) {
  return path == ProbePath::kScalar || CpuHasAvx2();
}

ProbePath BestProbePath() {
  return CpuHasAvx2() ? ProbePath::kAvx2 : ProbePath::kScalar;
}

}  // namespace bloom_internal
}  // namespace sstfilter
