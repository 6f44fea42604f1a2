#include "filter/range/keyed_grafite.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "filter/internal/verdict.h"
#include "filter/range/grafite_builder.h"
#include "filter/range/grafite_format.h"
#include "filter/range/grafite_reader.h"
#include "filter/range/key_coder.h"
#include "util/coding.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

using filter_internal::Verdict;

// Keeps every key added (the coder needs them all before the first code),
// in one buffer.
class KeyedGrafiteBuilder final : public FilterBuilder {
 public:
  explicit KeyedGrafiteBuilder(const GrafiteSizing& sizing) : sizing_(sizing) {}

  void AddKey(absl::string_view key) override {
    bytes_.append(key.data(), key.size());
    ends_.push_back(bytes_.size());
  }
  size_t NumAdded() const override { return ends_.size(); }

  void Finish(std::string* dst) override {
    std::vector<absl::string_view> keys;
    keys.reserve(ends_.size());
    size_t start = 0;
    for (size_t end : ends_) {
      keys.push_back(absl::string_view(bytes_).substr(start, end - start));
      start = end;
    }
    const KeyCoder coder = KeyCoder::ForKeys(keys);
    std::vector<uint64_t> codes;
    codes.reserve(keys.size());
    for (absl::string_view key : keys) codes.push_back(coder.Code(key));
    const size_t coder_start = dst->size();
    coder.AppendTo(dst);
    const size_t coder_bytes = dst->size() - coder_start;
    AppendGrafiteFilter(sizing_, std::move(codes), kDefaultSeed, dst);
    PutFixed32(dst, static_cast<uint32_t>(coder_bytes));
    dst->push_back(static_cast<char>(kKeyedFormatMarker));
    bytes_.clear();
    ends_.clear();
  }

 private:
  const GrafiteSizing sizing_;
  std::string bytes_;
  std::vector<size_t> ends_;
};

class KeyedGrafiteReader final : public RangeFilterReader {
 public:
  KeyedGrafiteReader(KeyCoder coder, std::unique_ptr<RangeFilterReader> codes)
      : coder_(std::move(coder)), codes_(std::move(codes)) {}

  bool MayMatch(absl::string_view key) const override {
    const CodeBounds bounds = coder_.Bounds(key, /*exclusive_high=*/false);
    return bounds.may_be_key &&
           codes_->CodeRangeMayMatch(*bounds.low, *bounds.low);
  }
  double ExpectedFpp() const override { return codes_->ExpectedFpp(); }

  bool RangeMayMatch(absl::string_view lo,
                     absl::string_view hi) const override {
    return lo <= hi && CodesMayMatch(lo, hi, /*exclusive_high=*/false);
  }
  bool RangeMayMatchBefore(absl::string_view lo,
                           absl::string_view hi_exclusive) const override {
    return lo < hi_exclusive &&
           CodesMayMatch(lo, hi_exclusive, /*exclusive_high=*/true);
  }
  bool CodeRangeMayMatch(uint64_t lo, uint64_t hi) const override {
    return codes_->CodeRangeMayMatch(lo, hi);
  }
  uint64_t max_range_length() const override {
    return codes_->max_range_length();
  }
  double RangeFppBound(uint64_t length) const override {
    return codes_->RangeFppBound(length);
  }
  uint64_t num_codes() const override { return codes_->num_codes(); }

 private:
  bool CodesMayMatch(absl::string_view lo, absl::string_view hi,
                     bool exclusive_high) const {
    const std::optional<uint64_t> first = coder_.Bounds(lo, false).low;
    const std::optional<uint64_t> last = coder_.Bounds(hi, exclusive_high).high;
    return first.has_value() && last.has_value() && *first <= *last &&
           codes_->CodeRangeMayMatch(*first, *last);
  }

  const KeyCoder coder_;
  const std::unique_ptr<RangeFilterReader> codes_;
};

}  // namespace

bool IsKeyedGrafite(absl::string_view filter) {
  return !filter.empty() &&
         static_cast<uint8_t>(filter.back()) == kKeyedFormatMarker;
}

std::unique_ptr<FilterBuilder> NewKeyedGrafiteBuilder(
    const GrafiteSizing& sizing) {
  return std::make_unique<KeyedGrafiteBuilder>(sizing);
}

std::unique_ptr<RangeFilterReader> NewKeyedGrafiteReader(
    absl::string_view filter) {
  if (filter.size() < kKeyedTrailerBytes) {
    return NewConstantRangeReader(Verdict::kMatchNothing, absl::OkStatus());
  }
  const auto match_all = [] {
    return NewConstantRangeReader(Verdict::kMatchAll, absl::OkStatus());
  };
  const size_t body = filter.size() - kKeyedTrailerBytes;
  const uint64_t coder_bytes = DecodeFixed32(filter.data() + body);
  // The Grafite part always holds at least its own trailer: shorter, the
  // sizes are damaged, and an empty answer would be a guess.
  if (!IsKeyedGrafite(filter) || coder_bytes > body ||
      body - coder_bytes < kTrailerBytes) {
    return match_all();
  }
  std::optional<KeyCoder> coder =
      KeyCoder::Parse(filter.substr(0, coder_bytes));
  if (!coder.has_value()) return match_all();
  return std::make_unique<KeyedGrafiteReader>(
      *std::move(coder),
      NewGrafiteReader(filter.substr(coder_bytes, body - coder_bytes)));
}

}  // namespace grafite_internal
}  // namespace sstfilter
