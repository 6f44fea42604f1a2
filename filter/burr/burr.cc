// The bumped Ribbon filter policy: sizing from the options (burr_sizing.h),
// the query path from the CPU, and the builder and readers of burr_builder.h
// and burr_reader.h. Format in burr_format.h and filter/burr/README.md.

#include "filter/burr/burr.h"

#include <algorithm>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_reader.h"
#include "filter/burr/burr_builder.h"
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_impl.h"
#include "filter/burr/burr_reader.h"
#include "filter/burr/burr_sizing.h"

namespace sstfilter {
namespace burr_internal {
namespace {

class BumpedRibbonPolicy final : public FilterPolicy {
 public:
  BumpedRibbonPolicy(const BurrSizing& sizing, QueryPath path,
                     int forced_failures, int max_layers)
      : sizing_(sizing),
        path_(path),
        forced_failures_(forced_failures),
        max_layers_(max_layers) {}

  const char* Name() const override { return kBumpedRibbonName; }
  double BitsPerKey() const override { return sizing_.bits_per_key; }
  int NumProbes() const override {
    return sizing_.max_columns() > 0 ? sizing_.max_columns() : 1;
  }

  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return NewBumpedRibbonBuilder(sizing_, forced_failures_, max_layers_);
  }

  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    const ParsedFilter parsed = ParseFilter(filter);
    switch (parsed.verdict) {
      case Verdict::kMatchNothing:
        return bloom_internal::NewConstantReader(false);
      case Verdict::kMatchAll:
        return bloom_internal::NewConstantReader(true);
      case Verdict::kProbe:
        break;
    }
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
    if (path_ == QueryPath::kAvx512) return NewAvx512Reader(parsed);
    if (path_ == QueryPath::kAvx2) return NewAvx2Reader(parsed);
#endif
    return NewScalarReader(parsed);
  }

  bool KeyMayMatch(absl::string_view key,
                   absl::string_view filter) const override {
    const ParsedFilter parsed = ParseFilter(filter);
    if (parsed.verdict != Verdict::kProbe)
      return parsed.verdict == Verdict::kMatchAll;
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
    // One query after parsing: the generic column loop, where the AVX-512
    // check has no lead.
    if (path_ != QueryPath::kScalar) return Avx2MayMatchOutOfLine(parsed, key);
#endif
    return ScalarMayMatch(parsed, key);
  }

 private:
  const BurrSizing sizing_;
  const QueryPath path_;
  const int forced_failures_;
  const int max_layers_;
};

}  // namespace

bool QueryPathAvailable(QueryPath path) {
  switch (path) {
    case QueryPath::kScalar:
      return true;
    case QueryPath::kAvx2:
      return bloom_internal::CpuHasAvx2();
    case QueryPath::kAvx512:
      return CpuHasAvx512Popcnt();
  }
  return false;
}

QueryPath BestQueryPath() {
  if (CpuHasAvx512Popcnt()) return QueryPath::kAvx512;
  if (bloom_internal::CpuHasAvx2()) return QueryPath::kAvx2;
  return QueryPath::kScalar;
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewBumpedRibbonFilterPolicyForTest(const FilterOptions& options, QueryPath path,
                                   int forced_failures, int max_layers) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok())
    return status;
  BurrSizing sizing;
  if (options.fpp.has_value()) {
    absl::StatusOr<BurrSizing> from_fpp = SizeForFpp(*options.fpp);
    if (!from_fpp.ok()) return from_fpp.status();
    sizing = *from_fpp;
  } else {
    sizing = SizeForBitsPerKey(*options.bits_per_key);
  }
  if (!QueryPathAvailable(path)) path = QueryPath::kScalar;
  return std::unique_ptr<const FilterPolicy>(new BumpedRibbonPolicy(
      sizing, path, forced_failures, std::min(max_layers, kMaxLayers)));
}

}  // namespace burr_internal

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBumpedRibbonFilterPolicy(
    const FilterOptions& options) {
  return burr_internal::NewBumpedRibbonFilterPolicyForTest(
      options, burr_internal::BestQueryPath());
}

}  // namespace sstfilter
