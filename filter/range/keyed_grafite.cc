#include "filter/range/keyed_grafite.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "filter/internal/verdict.h"
#include "filter/range/elias_fano.h"
#include "filter/range/grafite_builder.h"
#include "filter/range/grafite_format.h"
#include "filter/range/grafite_reader.h"
#include "filter/range/key_coder.h"
#include "util/coding.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

using filter_internal::Verdict;

// Grafite's hash over 128-bit codes: h(x) = (q(floor(x / r)) + x mod r) mod
// r, as LocalityHash, with the block index first folded to y in [0, p) by a
// polynomial in a random k over its 60-bit limbs (l0 + k l1 + k^2 l2 mod p;
// two distinct blocks fold alike with probability at most 2 / p), then
// LocalityHash's cubic. A block below 2^60 folds to itself. The coefficients
// are LocalityHash's four draws from the seed; k is the fifth.
class WideLocalityHash {
 public:
  WideLocalityHash(uint64_t universe, uint64_t seed)
      : universe_(universe), cubic_(universe, seed) {
    uint64_t state = seed;
    for (int draw = 0; draw < 4; ++draw) SplitMix64(&state);
    fold_ = SplitMix64(&state) % kMersenne61;
  }

  uint64_t Hash(KeyCode code) const {
    const KeyCode block = code / universe_;
    const uint64_t offset = static_cast<uint64_t>(code % universe_);
    return (cubic_.BlockOffset(Fold(block)) + offset) % universe_;
  }

 private:
  static constexpr int kLimbBits = 60;
  static constexpr uint64_t kLimbMask = (uint64_t{1} << kLimbBits) - 1;

  uint64_t Fold(KeyCode block) const {
    const uint64_t l0 = static_cast<uint64_t>(block) & kLimbMask;
    const uint64_t l1 = static_cast<uint64_t>(block >> kLimbBits) & kLimbMask;
    const uint64_t l2 = static_cast<uint64_t>(block >> (2 * kLimbBits));
    // Horner's rule: (l2 k + l1) k + l0, each step reduced mod p.
    uint64_t y = ModMersenne61(static_cast<unsigned __int128>(l2) * fold_ + l1);
    return ModMersenne61(static_cast<unsigned __int128>(y) * fold_ + l0);
  }

  const uint64_t universe_;
  const LocalityHash cubic_;
  uint64_t fold_;
};

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
    std::vector<KeyCode> codes;
    codes.reserve(keys.size());
    for (absl::string_view key : keys) codes.push_back(coder.Code(key));
    std::sort(codes.begin(), codes.end());
    codes.erase(std::unique(codes.begin(), codes.end()), codes.end());

    const size_t coder_start = dst->size();
    coder.AppendTo(dst);
    const size_t coder_bytes = dst->size() - coder_start;
    if (codes.empty()) {
      AppendGrafiteFilter(sizing_, {}, kDefaultSeed, dst);
    } else {
      const uint64_t universe = UniverseFor(sizing_, codes.size());
      const WideLocalityHash hash(universe, kDefaultSeed);
      std::vector<uint64_t> hashes;
      hashes.reserve(codes.size());
      for (KeyCode code : codes) hashes.push_back(hash.Hash(code));
      AppendHashedGrafite(sizing_, universe, codes.size(), std::move(hashes),
                          kDefaultSeed, dst);
    }
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
  KeyedGrafiteReader(KeyCoder coder, const ParsedGrafite& parsed)
      : coder_(std::move(coder)),
        parsed_(parsed),
        hash_(parsed.universe, parsed.seed),
        values_(parsed_),
        max_length_(MaxRangeLength(parsed)) {}

  bool MayMatch(absl::string_view key) const override {
    const CodeBounds bounds = coder_.Bounds(key, /*exclusive_high=*/false);
    return bounds.may_be_key && CodesMayMatch(*bounds.low, *bounds.low);
  }
  double ExpectedFpp() const override { return RangeFppBound(1); }

  bool RangeMayMatch(absl::string_view lo,
                     absl::string_view hi) const override {
    return lo <= hi && BoundsMayMatch(lo, hi, /*exclusive_high=*/false);
  }
  bool RangeMayMatchBefore(absl::string_view lo,
                           absl::string_view hi_exclusive) const override {
    return lo < hi_exclusive &&
           BoundsMayMatch(lo, hi_exclusive, /*exclusive_high=*/true);
  }
  bool CodeRangeMayMatch(uint64_t lo, uint64_t hi) const override {
    return CodesMayMatch(lo, hi);
  }
  uint64_t max_range_length() const override { return max_length_; }
  double RangeFppBound(uint64_t length) const override {
    return RangeFppBoundOf(parsed_, length);
  }
  uint64_t num_codes() const override { return parsed_.num_codes; }

 private:
  bool BoundsMayMatch(absl::string_view lo, absl::string_view hi,
                      bool exclusive_high) const {
    const std::optional<KeyCode> first = coder_.Bounds(lo, false).low;
    const std::optional<KeyCode> last = coder_.Bounds(hi, exclusive_high).high;
    return first.has_value() && last.has_value() && *first <= *last &&
           CodesMayMatch(*first, *last);
  }

  // GrafiteReader::CodeRangeMayMatch over 128-bit codes.
  bool CodesMayMatch(KeyCode lo, KeyCode hi) const {
    if (hi < lo) return false;
    if (hi - lo >= max_length_) return true;
    const uint64_t r = parsed_.universe;
    const KeyCode last_block_start = hi - hi % r;
    const uint64_t span = static_cast<uint64_t>(hi - lo);
    if (lo >= last_block_start) return Mapped(lo, span);
    // Shorter than r: the range ends in the next block.
    return Mapped(lo, static_cast<uint64_t>(last_block_start - 1 - lo)) ||
           Mapped(last_block_start,
                  static_cast<uint64_t>(hi - last_block_start));
  }

  bool Mapped(KeyCode start, uint64_t span) const {
    return AnyInCircularInterval(values_, parsed_.universe, hash_.Hash(start),
                                 span);
  }

  const KeyCoder coder_;
  const ParsedGrafite parsed_;
  const WideLocalityHash hash_;
  const EliasFanoView values_;
  const uint64_t max_length_;
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
  const ParsedGrafite parsed =
      ParseGrafite(filter.substr(coder_bytes, body - coder_bytes));
  if (parsed.verdict != Verdict::kProbe) {
    return NewConstantRangeReader(parsed.verdict, absl::OkStatus());
  }
  return std::make_unique<KeyedGrafiteReader>(*std::move(coder), parsed);
}

}  // namespace grafite_internal
}  // namespace sstfilter
