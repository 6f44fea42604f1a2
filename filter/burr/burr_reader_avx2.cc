// The bumped Ribbon filter's fast reader for x86-64 CPUs with AVX2 (see
// burr_reader.h): the query code of burr_reader.h compiled in functions that
// carry target("avx2,popcnt"), so that each column's parity is a popcnt
// instruction (the portable build computes it with shifts) and the library
// needs no global -mavx2. The policy creates this reader only when the CPU
// has AVX2 (every such CPU has popcnt).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/burr/burr_reader.h"

#if SSTFILTER_BLOOM_HAVE_AVX2_PATH

namespace sstfilter {
namespace burr_internal {
namespace {

template <int kLower>
class Avx2Reader final : public BumpedRibbonReaderBase {
 public:
  using BumpedRibbonReaderBase::BumpedRibbonReaderBase;

  __attribute__((target("avx2,popcnt"))) bool MayMatch(
      absl::string_view key) const override {
    return QueryKey<kLower>(filter_, key);
  }

  __attribute__((target("avx2,popcnt"))) void MayMatch(
      absl::Span<const absl::string_view> keys, bool* results) const override {
    QueryBatch<kLower>(filter_, keys.data(), keys.size(), results);
  }
};

}  // namespace

__attribute__((target("avx2,popcnt"), noinline)) bool Avx2MayMatchOutOfLine(
    const ParsedFilter& filter, absl::string_view key) {
  return QueryKey<0>(filter, key);
}

std::unique_ptr<FilterReader> NewAvx2Reader(const ParsedFilter& filter) {
  return NewReaderFor<Avx2Reader>(
      filter, std::make_integer_sequence<int, kMaxColumns>());
}

}  // namespace burr_internal
}  // namespace sstfilter

#endif  // SSTFILTER_BLOOM_HAVE_AVX2_PATH
