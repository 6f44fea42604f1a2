// Spec strings for the in-memory filters, in the grammar of the table
// filters' specs (filter/filter_spec.h), so one string names any filter in
// code, flags and logs. inmemory/README.md lists the families and params.
//
//   absl::StatusOr<sstfilter::MutableBloomFilter> filter =
//       sstfilter::NewMutableBloomFilterFromString("mutable:fpp=0.01:keys=1000");
//   if (!filter.ok()) return filter.status();  // one line naming the fault

#ifndef SSTFILTER_INMEMORY_SPEC_INMEMORY_SPEC_H_
#define SSTFILTER_INMEMORY_SPEC_INMEMORY_SPEC_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "inmemory/counting/counting_bloom.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/scalable_bloom.h"

namespace sstfilter {

// The families: "mutable" (MutableBloomFilter), "scalable"
// (ScalableBloomFilter) and "counting" (CountingBloomFilter).
inline constexpr char kMutableFamily[] = "mutable";
inline constexpr char kScalableFamily[] = "scalable";
inline constexpr char kCountingFamily[] = "counting";

// A parsed in-memory spec. Every family takes its size as fpp=P, or
// bits_per_key=C (not "scalable", whose layers are sized by rate), and
// keys=N, the keys it is made for (the first layer's, for "scalable");
// "scalable" also takes growth=G and tightening=R (ScalableBloomOptions).
struct InMemorySpec {
  std::string family;
  FilterOptions options;  // bits_per_key or fpp
  std::optional<uint64_t> keys;
  std::optional<double> growth;
  std::optional<double> tightening;

  // The canonical spec: family, then bits_per_key or fpp, keys, growth and
  // tightening, each when set. Parsing it gives this spec back.
  std::string ToString() const;
};

// The parse, with one line naming the fault (InvalidArgumentError) for a
// malformed spec (filter/spec_grammar.h), an unknown family (listing the
// three), a param the family does not take, a value that is not a number or
// count, both or neither of bits_per_key and fpp, options
// ValidateFilterOptions refuses, and keys=0. keys may be left out here (a tool
// gives each filter its own); the factories below require it.
absl::StatusOr<InMemorySpec> ParseInMemorySpec(absl::string_view spec);

// The filter a spec of its family names, as its Create makes it: the parse's
// errors, InvalidArgumentError for another family or no keys=N, and Create's
// (a growth or tightening out of range, an fpp too small to reach).
absl::StatusOr<MutableBloomFilter> NewMutableBloomFilterFromString(
    absl::string_view spec);
absl::StatusOr<std::unique_ptr<ScalableBloomFilter>>
NewScalableBloomFilterFromString(absl::string_view spec);
absl::StatusOr<CountingBloomFilter> NewCountingBloomFilterFromString(
    absl::string_view spec);

}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_SPEC_INMEMORY_SPEC_H_
