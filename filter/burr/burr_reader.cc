// The bumped Ribbon filter's portable reader (see burr_reader.h).

#include "filter/burr/burr_reader.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/burr/burr_sizing.h"

namespace sstfilter {
namespace burr_internal {
namespace {

template <int kLower>
class ScalarReader final : public BumpedRibbonReaderBase {
 public:
  using BumpedRibbonReaderBase::BumpedRibbonReaderBase;

  bool MayMatch(absl::string_view key) const override {
    if (IsShortKey(key)) {
      return QueryHash<kLower>(first_layer_, seed_, filter_,
                               filter_internal::ShortKeyHash(key));
    }
    return MayMatchLonger(key);
  }

  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    QueryBatch<kLower>(first_layer_, seed_, filter_, keys.data(), keys.size(),
                       results);
  }

 private:
  __attribute__((noinline)) bool MayMatchLonger(absl::string_view key) const {
    return QueryKey<kLower>(first_layer_, seed_, filter_, key);
  }
};

}  // namespace

double BumpedRibbonReaderBase::ExpectedFpp() const {
  return std::max(FilterFpp(filter_), std::numeric_limits<double>::min());
}

std::unique_ptr<FilterReader> NewScalarReader(const ParsedFilter& filter) {
  return NewReaderFor<ScalarReader>(
      filter, std::make_integer_sequence<int, kMaxColumns>());
}

}  // namespace burr_internal
}  // namespace sstfilter
