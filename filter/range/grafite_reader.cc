#include "filter/range/grafite_reader.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "filter/range/elias_fano.h"
#include "filter/range/grafite_format.h"
#include "filter/range/range_key.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

using filter_internal::ConstantAnswer;
using filter_internal::Verdict;

class GrafiteReader final : public RangeFilterReader {
 public:
  explicit GrafiteReader(const ParsedGrafite& parsed)
      : parsed_(parsed),
        hash_(parsed.universe, parsed.seed),
        values_(parsed_),
        max_length_(MaxRangeLength(parsed)) {}

  bool MayMatch(absl::string_view key) const override {
    return MappedMayMatch(hash_.Hash(RangeKeyCode(key)), 0);
  }

  double ExpectedFpp() const override { return RangeFppBound(1); }

  bool RangeMayMatch(absl::string_view lo,
                     absl::string_view hi) const override {
    return CodesMayMatch(RangeKeyCodes(lo, hi, /*hi_inclusive=*/true));
  }

  bool RangeMayMatchBefore(absl::string_view lo,
                           absl::string_view hi_exclusive) const override {
    return CodesMayMatch(
        RangeKeyCodes(lo, hi_exclusive, /*hi_inclusive=*/false));
  }

  bool CodeRangeMayMatch(uint64_t lo, uint64_t hi) const override {
    if (hi < lo) return false;
    // last - first = length - 1; longer than the filter bounds: may match.
    if (hi - lo >= max_length_) return true;
    const uint64_t r = parsed_.universe;
    const uint64_t first_block = lo / r;
    const uint64_t last_block = hi / r;
    if (first_block == last_block) {
      return MappedMayMatch(hash_.Hash(lo), hi - lo);
    }
    // Shorter than r: the range ends in the next block. Each block's part
    // maps to an interval of its own.
    const uint64_t block_start = last_block * r;
    return MappedMayMatch(hash_.Hash(lo), block_start - 1 - lo) ||
           MappedMayMatch(hash_.Hash(block_start), hi - block_start);
  }

  uint64_t max_range_length() const override { return max_length_; }

  double RangeFppBound(uint64_t length) const override {
    return RangeFppBoundOf(parsed_, length);
  }

  uint64_t num_codes() const override { return parsed_.num_codes; }

 private:
  bool CodesMayMatch(std::optional<CodeRange> codes) const {
    return codes.has_value() && CodeRangeMayMatch(codes->first, codes->last);
  }

  bool MappedMayMatch(uint64_t start, uint64_t span) const {
    return AnyInCircularInterval(values_, parsed_.universe, start, span);
  }

  const ParsedGrafite parsed_;
  const LocalityHash hash_;
  const EliasFanoView values_;
  const uint64_t max_length_;
};

class ConstantRangeReader final : public RangeFilterReader {
 public:
  ConstantRangeReader(Verdict verdict, absl::Status corruption)
      : answer_(ConstantAnswer(verdict)), corruption_(std::move(corruption)) {}

  bool MayMatch(absl::string_view) const override { return answer_; }
  double ExpectedFpp() const override { return answer_ ? 1 : 0; }
  absl::Status Corruption() const override { return corruption_; }
  bool RangeMayMatch(absl::string_view lo,
                     absl::string_view hi) const override {
    return answer_ && lo <= hi;
  }
  bool RangeMayMatchBefore(absl::string_view lo,
                           absl::string_view hi_exclusive) const override {
    return answer_ && lo < hi_exclusive;
  }
  bool CodeRangeMayMatch(uint64_t lo, uint64_t hi) const override {
    return answer_ && lo <= hi;
  }
  uint64_t max_range_length() const override { return 0; }
  double RangeFppBound(uint64_t) const override { return answer_ ? 1 : 0; }
  uint64_t num_codes() const override { return 0; }

 private:
  const bool answer_;
  const absl::Status corruption_;
};

}  // namespace

uint64_t MaxRangeLength(const ParsedGrafite& parsed) {
  return std::min(parsed.universe - 1, parsed.universe / parsed.num_values);
}

double RangeFppBoundOf(const ParsedGrafite& parsed, uint64_t length) {
  return std::min(1.0, static_cast<double>(length) *
                           static_cast<double>(parsed.num_values) /
                           static_cast<double>(parsed.universe));
}

bool AnyInCircularInterval(const EliasFanoView& values, uint64_t universe,
                           uint64_t start, uint64_t span) {
  if (span <= universe - 1 - start) {
    return values.AnyInRange(start, start + span);
  }
  return values.AnyInRange(start, universe - 1) ||
         values.AnyInRange(0, start + span - universe);
}

std::unique_ptr<RangeFilterReader> NewGrafiteReader(absl::string_view filter) {
  const ParsedGrafite parsed = ParseGrafite(filter);
  if (parsed.verdict != Verdict::kProbe) {
    return NewConstantRangeReader(parsed.verdict, absl::OkStatus());
  }
  return std::make_unique<GrafiteReader>(parsed);
}

std::unique_ptr<RangeFilterReader> NewConstantRangeReader(
    Verdict verdict, absl::Status corruption) {
  return std::make_unique<ConstantRangeReader>(verdict, std::move(corruption));
}

}  // namespace grafite_internal
}  // namespace sstfilter
