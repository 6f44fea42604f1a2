// Fuzzes the hybrid format's reader (sstfilter.Hybrid1) with arbitrary filter
// bytes: the marker dispatch and both families' readers behind it. The
// hybrid format reads with each family's fastest path; the family named by
// the filter's marker is also read on each of its paths, which must all
// answer as the hybrid format does. Seeds: the compact policy's own, and
// native filters from bloom_reader_fuzzer's corpus (tests/fuzz/README.md).
#include <vector>

#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_impl.h"
#include "filter/format_registry.h"
#include "filter/hybrid/hybrid.h"
#include "tests/fuzz/fuzz_checks.h"

namespace {

// The marker byte's place, as filter/hybrid/README.md defines it.
constexpr size_t kMarkerFromEnd = 2;

std::vector<const sstfilter::FilterFormat*> HybridPaths(
    absl::string_view filter) {
  namespace bloom = sstfilter::bloom;
  namespace burr = sstfilter::burr_internal;
  static const sstfilter::FilterFormat* const hybrid =
      sstfilter::FindFilterFormat(sstfilter::kHybridFormatName);
  std::vector<const sstfilter::FilterFormat*> paths = {hybrid};
  if (filter.size() < kMarkerFromEnd) return paths;
  const uint8_t marker =
      static_cast<uint8_t>(filter[filter.size() - kMarkerFromEnd]);
  if (marker == bloom::kFormatMarker) {
    for (bloom::ProbePath path :
         {bloom::ProbePath::kScalar, bloom::ProbePath::kAvx2}) {
      if (bloom::ProbePathAvailable(path)) {
        paths.push_back(&bloom::LocalBloomFormatFor(path));
      }
    }
  } else if (marker == burr::kFormatMarker) {
    for (burr::QueryPath path :
         {burr::QueryPath::kScalar, burr::QueryPath::kAvx2,
          burr::QueryPath::kAvx512}) {
      if (burr::QueryPathAvailable(path)) {
        paths.push_back(&burr::BumpedRibbonFormatFor(path));
      }
    }
  }
  return paths;
}

}  // namespace

SSTFILTER_PATHS_READER_FUZZER(
    sstfilter::FindFamilyVariant("hybrid:family=compact")->factory,
    &HybridPaths)
