#include "filter/range/keyed_grafite.h"

#include <algorithm>
#include <map>
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

// Grafite's hash over wide codes: h(x) = (q(floor(x / r)) + x mod r) mod r,
// as LocalityHash, with the block index first folded to y in [0, p) by a
// polynomial in a random k over its 60-bit limbs (l0 + k l1 + k^2 l2 + ...
// mod p; two distinct blocks of at most m limbs fold alike with probability
// at most m / p), then LocalityHash's cubic. A block below 2^60 folds to
// itself. The coefficients are LocalityHash's four draws from the seed; k is
// the fifth.
class WideLocalityHash {
 public:
  WideLocalityHash(uint64_t universe, uint64_t seed)
      : universe_(universe), cubic_(universe, seed) {
    uint64_t state = seed;
    for (int draw = 0; draw < 4; ++draw) SplitMix64(&state);
    fold_ = SplitMix64(&state) % kMersenne61;
  }

  uint64_t Hash(const KeyCode& code) const {
    KeyCode block;
    const uint64_t offset = code.DivMod(universe_, &block);
    return (cubic_.BlockOffset(Fold(block)) + offset) % universe_;
  }

 private:
  uint64_t Fold(const KeyCode& block) const {
    // Horner's rule from the top limb, each step reduced mod p.
    uint64_t y = 0;
    for (size_t i = block.NumLimbs60(); i-- > 0;) {
      y = ModMersenne61(static_cast<unsigned __int128>(y) * fold_ +
                        block.Limb60(i));
    }
    return y;
  }

  const uint64_t universe_;
  const LocalityHash cubic_;
  uint64_t fold_;
};

// The per-length layout falls back to one coder for all keys where the keys
// have more lengths than this, or where the coders would take more than
// kCoderShare of the filter's budget (and more than kMinCoderBudget bytes):
// each coder lists its positions' symbols.
constexpr size_t kMaxLengthClasses = 64;
constexpr double kCoderShare = 0.25;
constexpr size_t kMinCoderBudget = 4096;

// One coder's keys and, once coded, the first code of its share of the
// code space: classes follow each other, each taking its max_code + 1 codes.
struct CodedClass {
  KeyCoder coder;
  KeyCode offset;
};

// sorted's keys grouped by length, each group sorted; nullopt past
// kMaxLengthClasses lengths.
std::optional<std::vector<std::vector<absl::string_view>>> GroupByLength(
    const std::vector<absl::string_view>& sorted) {
  std::map<size_t, std::vector<absl::string_view>> by_length;
  for (absl::string_view key : sorted) {
    by_length[key.size()].push_back(key);
    if (by_length.size() > kMaxLengthClasses) return std::nullopt;
  }
  std::vector<std::vector<absl::string_view>> groups;
  for (auto& [length, keys] : by_length) groups.push_back(std::move(keys));
  return groups;
}

std::string CodersBytes(const std::vector<CodedClass>& classes,
                        KeyedLayout layout) {
  std::string bytes;
  if (layout == KeyedLayout::kOneCoder) {
    classes.front().coder.AppendTo(&bytes);
    return bytes;
  }
  PutVarint32(&bytes, static_cast<uint32_t>(classes.size()));
  for (const CodedClass& coded : classes) {
    std::string coder;
    coded.coder.AppendTo(&coder);
    PutVarint32(&bytes, static_cast<uint32_t>(coder.size()));
    bytes += coder;
  }
  return bytes;
}

// Sets each class's offset from the max codes before it.
void SetOffsets(std::vector<CodedClass>* classes) {
  KeyCode next;
  for (CodedClass& coded : *classes) {
    coded.offset = next;
    next.Add(coded.coder.max_code());
    next.Increment();
  }
}

// Keeps every key added (the coders need them all before the first code),
// in one buffer.
class KeyedGrafiteBuilder final : public FilterBuilder {
 public:
  KeyedGrafiteBuilder(const GrafiteSizing& sizing, KeyedLayout layout)
      : sizing_(sizing), layout_(layout) {}

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
    // Codes keep the keys' order, so sorted keys give sorted codes, and
    // repeats sit side by side.
    std::sort(keys.begin(), keys.end());
    // One coder for all keys, unless the per-length layout's coders are
    // few and small enough.
    std::vector<std::vector<absl::string_view>> groups = {keys};
    std::vector<CodedClass> classes;
    std::string coders;
    if (layout_ == KeyedLayout::kCoderPerLength) {
      std::optional<std::vector<std::vector<absl::string_view>>> by_length =
          GroupByLength(keys);
      if (by_length.has_value() && by_length->size() > 1) {
        for (const auto& group : *by_length) {
          classes.push_back({KeyCoder::ForKeys(group), KeyCode()});
        }
        const double budget = std::max<double>(
            kCoderShare * sizing_.bits_per_key / 8 * keys.size(),
            kMinCoderBudget);
        coders = CodersBytes(classes, layout_);
        if (coders.size() <= budget) {
          groups = *std::move(by_length);
        } else {
          classes.clear();
        }
      }
    }
    if (classes.empty()) {
      classes.push_back({KeyCoder::ForKeys(keys), KeyCode()});
      coders = CodersBytes(classes, layout_);
    }
    SetOffsets(&classes);

    std::vector<KeyCode> codes;
    codes.reserve(keys.size());
    for (size_t c = 0; c < classes.size(); ++c) {
      for (absl::string_view key : groups[c]) {
        KeyCode code = classes[c].coder.Code(key);
        code.Add(classes[c].offset);
        if (codes.empty() || codes.back() != code) {
          codes.push_back(std::move(code));
        }
      }
    }

    dst->append(coders);
    if (codes.empty()) {
      AppendGrafiteFilter(sizing_, {}, kDefaultSeed, dst);
    } else {
      const uint64_t universe = UniverseFor(sizing_, codes.size());
      const WideLocalityHash hash(universe, kDefaultSeed);
      std::vector<uint64_t> hashes;
      hashes.reserve(codes.size());
      for (const KeyCode& code : codes) hashes.push_back(hash.Hash(code));
      AppendHashedGrafite(sizing_, universe, codes.size(), std::move(hashes),
                          kDefaultSeed, dst);
    }
    PutFixed32(dst, static_cast<uint32_t>(coders.size()));
    dst->push_back(static_cast<char>(layout_ == KeyedLayout::kOneCoder
                                         ? kKeyedFormatMarker
                                         : kLengthKeyedFormatMarker));
    bytes_.clear();
    ends_.clear();
  }

 private:
  const GrafiteSizing sizing_;
  const KeyedLayout layout_;
  std::string bytes_;
  std::vector<size_t> ends_;
};

class KeyedGrafiteReader final : public RangeFilterReader {
 public:
  KeyedGrafiteReader(std::vector<CodedClass> classes,
                     const ParsedGrafite& parsed)
      : classes_(std::move(classes)),
        parsed_(parsed),
        hash_(parsed.universe, parsed.seed),
        values_(parsed_),
        max_length_(MaxRangeLength(parsed)) {}

  bool MayMatch(absl::string_view key) const override {
    for (const CodedClass& coded : classes_) {
      const CodeBounds bounds =
          coded.coder.Bounds(key, /*exclusive_high=*/false);
      if (!bounds.may_be_key) continue;
      KeyCode code = *bounds.low;
      code.Add(coded.offset);
      if (CodesMayMatch(code, code)) return true;
    }
    return false;
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
    return CodesMayMatch(KeyCode::Of(lo), KeyCode::Of(hi));
  }
  uint64_t max_range_length() const override { return max_length_; }
  double RangeFppBound(uint64_t length) const override {
    return RangeFppBoundOf(parsed_, length);
  }
  uint64_t num_codes() const override { return parsed_.num_codes; }

 private:
  // Each class holds its keys in [lo, hi] within its codes from its first
  // code of a key >= lo to its last of a key <= hi (< hi, exclusive).
  bool BoundsMayMatch(absl::string_view lo, absl::string_view hi,
                      bool exclusive_high) const {
    for (const CodedClass& coded : classes_) {
      std::optional<KeyCode> first = coded.coder.Bounds(lo, false).low;
      if (!first.has_value()) continue;
      std::optional<KeyCode> last = coded.coder.Bounds(hi, exclusive_high).high;
      if (!last.has_value() || *last < *first) continue;
      first->Add(coded.offset);
      last->Add(coded.offset);
      if (CodesMayMatch(*first, *last)) return true;
    }
    return false;
  }

  // GrafiteReader::CodeRangeMayMatch over wide codes.
  bool CodesMayMatch(const KeyCode& lo, const KeyCode& hi) const {
    if (hi < lo) return false;
    const uint64_t span = DifferenceUpTo(hi, lo, max_length_);
    if (span >= max_length_) return true;
    const uint64_t r = parsed_.universe;
    const uint64_t hi_offset = hi.DivMod(r, nullptr);
    if (span <= hi_offset) return Mapped(lo, span);  // one block
    // Shorter than r: the range ends in the next block.
    KeyCode last_block_start = hi;
    last_block_start.Subtract(hi_offset);
    return Mapped(lo, span - hi_offset - 1) ||
           Mapped(last_block_start, hi_offset);
  }

  bool Mapped(const KeyCode& start, uint64_t span) const {
    return AnyInCircularInterval(values_, parsed_.universe, hash_.Hash(start),
                                 span);
  }

  const std::vector<CodedClass> classes_;
  const ParsedGrafite parsed_;
  const WideLocalityHash hash_;
  const EliasFanoView values_;
  const uint64_t max_length_;
};

// The coders of a filter's layout, their offsets set; nullopt for bytes no
// writer gives.
std::optional<std::vector<CodedClass>> ParseCoders(absl::string_view bytes,
                                                   bool per_length) {
  std::vector<CodedClass> classes;
  if (!per_length) {
    std::optional<KeyCoder> coder = KeyCoder::Parse(bytes);
    if (!coder.has_value()) return std::nullopt;
    classes.push_back({*std::move(coder), KeyCode()});
    return classes;
  }
  uint32_t num_classes = 0;
  if (!GetVarint32(&bytes, &num_classes) || num_classes == 0 ||
      num_classes > kMaxLengthClasses) {
    return std::nullopt;
  }
  for (uint32_t c = 0; c < num_classes; ++c) {
    uint32_t size = 0;
    if (!GetVarint32(&bytes, &size) || size > bytes.size()) return std::nullopt;
    std::optional<KeyCoder> coder = KeyCoder::Parse(bytes.substr(0, size));
    if (!coder.has_value()) return std::nullopt;
    classes.push_back({*std::move(coder), KeyCode()});
    bytes.remove_prefix(size);
  }
  if (!bytes.empty()) return std::nullopt;
  SetOffsets(&classes);
  return classes;
}

}  // namespace

bool IsKeyedGrafite(absl::string_view filter) {
  return !filter.empty() &&
         (static_cast<uint8_t>(filter.back()) == kKeyedFormatMarker ||
          IsLengthKeyedGrafite(filter));
}

bool IsLengthKeyedGrafite(absl::string_view filter) {
  return !filter.empty() &&
         static_cast<uint8_t>(filter.back()) == kLengthKeyedFormatMarker;
}

std::unique_ptr<FilterBuilder> NewKeyedGrafiteBuilder(
    const GrafiteSizing& sizing, KeyedLayout layout) {
  return std::make_unique<KeyedGrafiteBuilder>(sizing, layout);
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
  std::optional<std::vector<CodedClass>> classes =
      ParseCoders(filter.substr(0, coder_bytes), IsLengthKeyedGrafite(filter));
  if (!classes.has_value()) return match_all();
  const ParsedGrafite parsed =
      ParseGrafite(filter.substr(coder_bytes, body - coder_bytes));
  if (parsed.verdict != Verdict::kProbe) {
    return NewConstantRangeReader(parsed.verdict, absl::OkStatus());
  }
  return std::make_unique<KeyedGrafiteReader>(*std::move(classes), parsed);
}

}  // namespace grafite_internal
}  // namespace sstfilter
