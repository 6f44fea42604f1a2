// Fuzzes the native cache-local Bloom reader with arbitrary filter bytes, on
// every probe path this CPU runs (the input's length picks the one checked in
// full; the others must answer as it does).
#include <vector>

#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_impl.h"
#include "tests/fuzz/fuzz_checks.h"

namespace {

std::vector<const sstfilter::FilterFormat*> BloomPaths(absl::string_view) {
  using sstfilter::bloom::ProbePath;
  std::vector<const sstfilter::FilterFormat*> paths;
  for (ProbePath path : {ProbePath::kScalar, ProbePath::kAvx2}) {
    if (sstfilter::bloom::ProbePathAvailable(path)) {
      paths.push_back(&sstfilter::bloom::LocalBloomFormatFor(path));
    }
  }
  return paths;
}

}  // namespace

SSTFILTER_PATHS_READER_FUZZER(sstfilter::NewBloomFilterPolicy, &BloomPaths)
