// The bumped Ribbon filter's fast reader for x86-64 CPUs with AVX2 (see
// burr_reader.h): the query code of burr_reader.h with the four-columns-a-step
// check of burr_probe_avx2.h, compiled in functions that carry
// target("avx2,popcnt"), so that the library needs no global -mavx2. The
// policy creates this reader only when the CPU has AVX2 (every such CPU has
// popcnt).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/burr/burr_probe_avx2.h"
#include "filter/burr/burr_reader.h"

#if SSTFILTER_HAVE_AVX2_PATH

namespace sstfilter {
namespace burr_internal {
namespace {

// Four columns a step; a filter whose lower blocks have no column (kLower ==
// 0, fpp of 1/2 and above) keeps the one-column scalar check, with popcnt.
// Not always_inline, for the reason given in burr_reader_avx512.cc: the
// readers below are flattened instead.
struct Avx2Probe {
  template <int kLower>
  __attribute__((target("avx2,popcnt"))) static bool Check(
      const Position& at, uint64_t coeff, uint32_t fingerprint) {
    if constexpr (kLower == 0) {
      return ScalarCheck(at, coeff, fingerprint);
    } else {
      return Avx2VectorCheck<kLower>(at, coeff, fingerprint);
    }
  }
};

template <int kLower>
class Avx2Reader final : public BumpedRibbonReaderBase {
 public:
  using BumpedRibbonReaderBase::BumpedRibbonReaderBase;

  __attribute__((target("avx2,popcnt"), flatten)) bool MayMatch(
      absl::string_view key) const override {
    if (IsShortKey(key)) {
      return QueryHash<kLower, Avx2Probe>(first_layer_, seed_, filter_,
                                          filter_internal::ShortKeyHash(key));
    }
    return MayMatchLonger(key);
  }

  __attribute__((target("avx2,popcnt"), flatten)) void MayMatch(
      absl::Span<const absl::string_view> keys, bool* results) const override {
    QueryBatch<kLower, Avx2Probe>(first_layer_, seed_, filter_, keys.data(),
                                  keys.size(), results);
  }

 private:
  __attribute__((target("avx2,popcnt"), flatten, noinline)) bool MayMatchLonger(
      absl::string_view key) const {
    return QueryKey<kLower, Avx2Probe>(first_layer_, seed_, filter_, key);
  }
};

}  // namespace

__attribute__((target("avx2,popcnt"), noinline)) bool Avx2MayMatchOutOfLine(
    const ParsedFilter& filter, absl::string_view key) {
  return QueryKey<0>(filter.layers[0], filter.seed, filter, key);
}

std::unique_ptr<FilterReader> NewAvx2Reader(const ParsedFilter& filter) {
  return NewReaderFor<Avx2Reader>(
      filter, std::make_integer_sequence<int, kMaxColumns>());
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_HAVE_AVX2_PATH
