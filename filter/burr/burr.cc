// The bumped Ribbon filter policy: sizing from the options (burr_sizing.h),
// the query path from the CPU, and the builder and readers of burr_builder.h
// and burr_reader.h. Format in burr_format.h and filter/burr/README.md.

#include "filter/burr/burr.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/burr/burr_builder.h"
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_impl.h"
#include "filter/burr/burr_reader.h"
#include "filter/burr/burr_sizing.h"
#include "filter/format_registry.h"
#include "filter/internal/checked_filter.h"
#include "filter/internal/cpu_features.h"
#include "filter/internal/parsed_format.h"
#include "filter/policy_spec.h"

namespace sstfilter {
namespace burr_internal {
namespace {

// What Describe says of a well-formed filter beyond its kind: the bits of its
// layers' solutions and thresholds.
void DescribeParsed(const ParsedFilter& parsed, FilterFacts* facts) {
  facts->num_keys = static_cast<double>(parsed.num_keys);
  uint64_t bits = 0;
  for (const ParsedLayer& layer : parsed.layers) {
    bits += 64 * layer.shape.num_words(parsed.columns) +
            8 * layer.shape.threshold_bytes();
  }
  facts->body_bits = bits;
}

// The read side of sstfilter.BumpedRibbon1, its query path fixed at
// construction.
using BumpedRibbonFormat =
    filter_internal::ParsedFormat<ParsedFilter, QueryPath, &ParseFilter,
                                  &DescribeParsed>;

class BumpedRibbonPolicy final : public FilterPolicy {
 public:
  BumpedRibbonPolicy(const BurrSizing& sizing, QueryPath path,
                     int forced_failures, int max_layers, std::string spec)
      : FilterPolicy(std::move(spec)),
        sizing_(sizing),
        format_(BumpedRibbonFormatFor(path)),
        forced_failures_(forced_failures),
        max_layers_(max_layers) {}

  const FilterFormat& Format() const override { return format_; }
  double BitsPerKey() const override { return sizing_.bits_per_key; }

  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return NewBumpedRibbonBuilder(sizing_, forced_failures_, max_layers_);
  }

 private:
  const BurrSizing sizing_;
  const FilterFormat& format_;  // one per query path, for the program's life
  const int forced_failures_;
  const int max_layers_;
};

// NewBurrFilterPolicyForTest, its policy constructed with spec (empty: it
// describes itself).
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBumpedRibbonPolicy(
    const FilterOptions& options, QueryPath path, int forced_failures,
    int max_layers, std::string spec) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok())
    return status;
  absl::StatusOr<BurrSizing> sizing = SizeForOptions(options);
  if (!sizing.ok()) return sizing.status();
  if (!QueryPathAvailable(path)) path = QueryPath::kScalar;
  return filter_internal::WithSelfChecksum(
      options,
      std::unique_ptr<const FilterPolicy>(new BumpedRibbonPolicy(
          *sizing, path, forced_failures, std::min(max_layers, kMaxLayers),
          std::move(spec))),
      CheckedBumpedRibbonFormatFor(path));
}

}  // namespace

bool QueryPathAvailable(QueryPath path) {
  switch (path) {
    case QueryPath::kScalar:
      return true;
    case QueryPath::kAvx2:
      return filter_internal::CpuHasAvx2();
    case QueryPath::kAvx512:
      return filter_internal::CpuHasAvx512Popcnt();
  }
  return false;
}

QueryPath BestQueryPath() {
  if (filter_internal::CpuHasAvx512Popcnt()) return QueryPath::kAvx512;
  if (filter_internal::CpuHasAvx2()) return QueryPath::kAvx2;
  return QueryPath::kScalar;
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBurrFilterPolicyForTest(
    const FilterOptions& options, QueryPath path, int forced_failures,
    int max_layers) {
  return NewBumpedRibbonPolicy(options, path, forced_failures, max_layers,
                               /*spec=*/"");
}

const FilterFormat& BumpedRibbonFormatFor(QueryPath path) {
  // An unavailable path's format takes the scalar path.
  const auto make = [](QueryPath p) {
    return new BumpedRibbonFormat(
        kBumpedRibbonName, "bumped Ribbon",
        QueryPathAvailable(p) ? p : QueryPath::kScalar);
  };
  static const BumpedRibbonFormat* const formats[] = {make(QueryPath::kScalar),
                                                      make(QueryPath::kAvx2),
                                                      make(QueryPath::kAvx512)};
  return *formats[static_cast<int>(path)];
}

const filter_internal::CheckedFormat& CheckedBumpedRibbonFormatFor(
    QueryPath path) {
  using filter_internal::CheckedFormat;
  static const CheckedFormat* const formats[] = {
      new CheckedFormat(kCheckedBumpedRibbonName,
                        BumpedRibbonFormatFor(QueryPath::kScalar)),
      new CheckedFormat(kCheckedBumpedRibbonName,
                        BumpedRibbonFormatFor(QueryPath::kAvx2)),
      new CheckedFormat(kCheckedBumpedRibbonName,
                        BumpedRibbonFormatFor(QueryPath::kAvx512)),
  };
  return *formats[static_cast<int>(path)];
}

}  // namespace burr_internal

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBurrFilterPolicy(
    const FilterOptions& options) {
  return burr_internal::NewBumpedRibbonPolicy(
      options, burr_internal::BestQueryPath(), /*forced_failures=*/0,
      burr_internal::kMaxLayers, PolicySpec::Of("burr", options).ToString());
}

SSTFILTER_REGISTER_FAMILY(
    Burr,
    {"burr",
     {},
     FromOptions(&NewBurrFilterPolicy),
     {&burr_internal::BumpedRibbonFormatFor(burr_internal::BestQueryPath()),
      &burr_internal::CheckedBumpedRibbonFormatFor(
          burr_internal::BestQueryPath())}});

}  // namespace sstfilter
