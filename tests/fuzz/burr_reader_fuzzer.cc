// Fuzzes the bumped Ribbon reader with arbitrary filter bytes, on every query
// path this CPU runs (the input's length picks the one checked in full; the
// others must answer as it does).
#include <vector>

#include "filter/burr/burr.h"
#include "filter/burr/burr_impl.h"
#include "tests/fuzz/fuzz_checks.h"

namespace {

std::vector<const sstfilter::FilterFormat*> BurrPaths(absl::string_view) {
  using sstfilter::burr_internal::QueryPath;
  std::vector<const sstfilter::FilterFormat*> paths;
  for (QueryPath path :
       {QueryPath::kScalar, QueryPath::kAvx2, QueryPath::kAvx512}) {
    if (sstfilter::burr_internal::QueryPathAvailable(path)) {
      paths.push_back(&sstfilter::burr_internal::BumpedRibbonFormatFor(path));
    }
  }
  return paths;
}

}  // namespace

SSTFILTER_PATHS_READER_FUZZER(sstfilter::NewBurrFilterPolicy, &BurrPaths)
