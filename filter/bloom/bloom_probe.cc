// Which probe path this build and CPU run: the AVX2 probes of bloom_probe.h
// when the CPU has AVX2, else the portable ones.

#include "filter/bloom/bloom_probe.h"

#include "filter/bloom/bloom_impl.h"

namespace sstfilter {
namespace bloom {

bool ProbePathAvailable(ProbePath path) {
  return path == ProbePath::kScalar || CpuHasAvx2();
}

ProbePath BestProbePath() {
  return CpuHasAvx2() ? ProbePath::kAvx2 : ProbePath::kScalar;
}

}  // namespace bloom
}  // namespace sstfilter
