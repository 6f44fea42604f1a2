// The bumped Ribbon filter's reader for x86-64 CPUs with AVX-512F and
// VPOPCNTDQ (see burr_reader.h): the query code of burr_reader.h with the
// column check of burr_probe_avx512.h, compiled in functions that carry the
// AVX-512 target, so that the library needs no global -mavx512f. The policy
// creates this reader only when filter_internal::CpuHasAvx512Popcnt().

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/burr/burr_probe_avx512.h"
#include "filter/burr/burr_reader.h"

#if SSTFILTER_HAVE_AVX2_PATH

namespace sstfilter {
namespace burr_internal {
namespace {

// Eight columns at a time; a filter whose lower blocks have no column
// (kLower == 0, fpp of 1/2 and above) keeps the one-column scalar check.
// Not always_inline: the generic query templates that call it carry no
// target, and GCC refuses to force an AVX-512 function into them; the
// readers below are flattened instead, which inlines it where the targets
// agree.
struct VectorProbe {
  template <int kLower>
  __attribute__((target(SSTFILTER_BURR_AVX512_TARGET))) static bool Check(
      const Position& at, uint64_t coeff, uint32_t fingerprint) {
    if constexpr (kLower == 0) {
      return ScalarCheck(at, coeff, fingerprint);
    } else {
      return VectorCheck<kLower>(at, coeff, fingerprint);
    }
  }
};

template <int kLower>
class Avx512Reader final : public BumpedRibbonReaderBase {
 public:
  using BumpedRibbonReaderBase::BumpedRibbonReaderBase;

  __attribute__((target(SSTFILTER_BURR_AVX512_TARGET), flatten)) bool MayMatch(
      absl::string_view key) const override {
    if (IsShortKey(key)) {
      return QueryHash<kLower, VectorProbe>(first_layer_, seed_, filter_,
                                            filter_internal::ShortKeyHash(key));
    }
    return MayMatchLonger(key);
  }

  __attribute__((target(SSTFILTER_BURR_AVX512_TARGET), flatten)) void MayMatch(
      absl::Span<const absl::string_view> keys, bool* results) const override {
    QueryBatch<kLower, VectorProbe>(first_layer_, seed_, filter_, keys.data(),
                                    keys.size(), results);
  }

 private:
  __attribute__((target(SSTFILTER_BURR_AVX512_TARGET), flatten, noinline)) bool
  MayMatchLonger(absl::string_view key) const {
    return QueryKey<kLower, VectorProbe>(first_layer_, seed_, filter_, key);
  }
};

}  // namespace

std::unique_ptr<FilterReader> NewAvx512Reader(const ParsedFilter& filter) {
  return NewReaderFor<Avx512Reader>(
      filter, std::make_integer_sequence<int, kMaxColumns>());
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_HAVE_AVX2_PATH
