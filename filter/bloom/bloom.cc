// The native cache-local Bloom filter policy: sizing from the options
// (bloom_sizing.h), the probe path from the CPU, and the builder and readers of
// bloom_builder.h and bloom_reader.h. Format in bloom_format.h and
// filter/bloom/README.md.

#include "filter/bloom/bloom.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_builder.h"
#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/bloom/bloom_probe.h"
#include "filter/bloom/bloom_reader.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/bloom_like_policy.h"
#include "filter/format_registry.h"
#include "filter/internal/checked_filter.h"
#include "filter/internal/parsed_format.h"
#include "filter/policy_spec.h"

namespace sstfilter {
namespace bloom_internal {

// bloom::ParsedFilter in this namespace: ParsedFormat finds the readers
// (bloom_reader.h) by argument-dependent lookup in its parsed type's
// namespace, and the readers are internal while bloom::ParsedFilter is public.
struct ParsedForReaders : ParsedFilter {};

namespace {

ParsedForReaders Parse(absl::string_view filter) {
  return ParsedForReaders{ParseFilter(filter)};
}

// What Describe says of a well-formed filter beyond its kind.
void DescribeParsed(const ParsedForReaders& parsed, FilterFacts* facts) {
  facts->num_keys = static_cast<double>(parsed.num_keys);
  facts->body_bits = 8 * parsed.layout.body_bytes;
  facts->num_probes = parsed.num_probes;
}

// The read side of sstfilter.LocalBloom1, its query path fixed at
// construction.
using LocalBloomFormat =
    filter_internal::ParsedFormat<ParsedForReaders, ProbePath, &Parse,
                                  &DescribeParsed>;

class LocalBloomPolicy final : public BloomLikeFilterPolicy {
 public:
  LocalBloomPolicy(const BloomSizing& sizing, ProbePath path, std::string spec)
      : BloomLikeFilterPolicy(std::move(spec)),
        sizing_(sizing),
        format_(LocalBloomFormatFor(path)) {}

  const FilterFormat& Format() const override { return format_; }
  double BitsPerKey() const override { return sizing_.bits_per_key; }
  int NumProbes() const override { return sizing_.num_probes; }

  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return NewLocalBloomBuilder(sizing_.bits_per_key, sizing_.num_probes);
  }

 private:
  const BloomSizing sizing_;
  const FilterFormat& format_;  // one per probe path, for the program's life
};

}  // namespace

const filter_internal::CheckedFormat& CheckedLocalBloomFormatFor(
    ProbePath path) {
  using filter_internal::CheckedFormat;
  static const CheckedFormat* const scalar = new CheckedFormat(
      kCheckedLocalBloomName, LocalBloomFormatFor(ProbePath::kScalar));
  static const CheckedFormat* const best = new CheckedFormat(
      kCheckedLocalBloomName, LocalBloomFormatFor(BestProbePath()));
  return path == ProbePath::kScalar ? *scalar : *best;
}

namespace {

// NewBloomFilterPolicyWithPath, its policy constructed with spec (empty: it
// describes itself).
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewLocalBloomPolicy(
    const FilterOptions& options, ProbePath path, std::string spec) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok())
    return status;
  absl::StatusOr<BloomSizing> sizing = SizeForOptions(options);
  if (!sizing.ok()) return sizing.status();
  if (!ProbePathAvailable(path)) path = ProbePath::kScalar;
  return filter_internal::WithSelfChecksum(
      options,
      std::unique_ptr<const FilterPolicy>(
          new LocalBloomPolicy(*sizing, path, std::move(spec))),
      CheckedLocalBloomFormatFor(path));
}

}  // namespace
}  // namespace bloom_internal

namespace bloom {

const FilterFormat& LocalBloomFormatFor(ProbePath path) {
  static constexpr char kKind[] = "cache-local Bloom";
  static const bloom_internal::LocalBloomFormat* const scalar =
      new bloom_internal::LocalBloomFormat(kLocalBloomName, kKind,
                                           ProbePath::kScalar);
  static const bloom_internal::LocalBloomFormat* const best =
      new bloom_internal::LocalBloomFormat(kLocalBloomName, kKind,
                                           BestProbePath());
  return path == ProbePath::kScalar ? *scalar : *best;
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewBloomFilterPolicyWithPath(const FilterOptions& options, ProbePath path) {
  return bloom_internal::NewLocalBloomPolicy(options, path, /*spec=*/"");
}

}  // namespace bloom

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBloomFilterPolicy(
    const FilterOptions& options) {
  return bloom_internal::NewLocalBloomPolicy(
      options, bloom::BestProbePath(),
      PolicySpec::Of(kBloomFamilyName, options).ToString());
}

namespace bloom_internal {
namespace {

// The spec param naming the readers' probe path: the best this CPU runs (the
// default), or the portable one that CPUs without AVX2 run. The bytes are the
// same either way.
constexpr char kPathParam[] = "path";
constexpr char kPortablePath[] = "portable";

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBloomPolicyFromSpec(
    const PolicySpec& spec) {
  if (absl::Status status = RejectTreePolicy(spec); !status.ok()) return status;
  const auto path = spec.params.find(kPathParam);
  const bool portable =
      path != spec.params.end() && path->second == kPortablePath;
  return NewLocalBloomPolicy(spec.options,
                             portable ? ProbePath::kScalar : BestProbePath(),
                             spec.ToString());
}

}  // namespace
}  // namespace bloom_internal

SSTFILTER_REGISTER_FAMILY(
    Bloom,
    {kBloomFamilyName,
     {{bloom_internal::kPathParam, "best|portable"},
      {kLevelsParam, kLevelsWords}},
     &bloom_internal::NewBloomPolicyFromSpec,
     {&bloom::LocalBloomFormatFor(bloom::BestProbePath()),
      &bloom_internal::CheckedLocalBloomFormatFor(bloom::BestProbePath())},
     {"", "path=portable"}});

}  // namespace sstfilter
