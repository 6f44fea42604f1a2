#include "engines/rocksdb/presence/range_items.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>

#include "filter/bloom/bloom_format.h"

namespace sstfilter {
namespace presence_internal {
namespace {

// A run: the keys of one length that share all but their last `level` bytes,
// and one quarter of the values of the byte before those (its chunk): the
// members are that byte's values modulo 64.
constexpr int kChunkBits = 6;

uint64_t RunHash(int level, size_t length, absl::string_view prefix,
                 int chunk) {
  // The run's name, hashed as a key is: level, length, chunk, prefix.
  char name[3 + KeyAlphabets::kMaxLength];
  name[0] = static_cast<char>(level);
  name[1] = static_cast<char>(length);
  name[2] = static_cast<char>(chunk);
  std::memcpy(name + 3, prefix.data(), prefix.size());
  return bloom::KeyHash(absl::string_view(name, 3 + prefix.size()));
}

void AddMember(int level, absl::string_view key, MutableBloomFilter* bits) {
  const uint8_t byte = static_cast<uint8_t>(key[key.size() - level]);
  bits->AddRunMemberSingleWriter(
      RunHash(level, key.size(), key.substr(0, key.size() - level),
              byte >> kChunkBits),
      byte & (MutableBloomFilter::kRunMembers - 1), kRangeProbes);
}

// 256 bits: byte values.
using ByteMask = std::array<uint64_t, 4>;

// The members of set from first to last, inclusive.
ByteMask Between(const ByteSet& set, int first, int last) {
  ByteMask mask = {};
  for (int w = 0; w < 4; ++w) {
    const int low = std::max(first, 64 * w), high = std::min(last, 64 * w + 63);
    if (low > high) continue;
    const int width = high - low + 1;
    const uint64_t span =
        (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1)
        << (low - 64 * w);
    mask[w] = set.Word(w) & span;
  }
  return mask;
}

// Whether a member of mask may have been added to the runs of the keys of
// length that share prefix (all but their last level bytes).
bool RunsMayHold(const MutableBloomFilter& bits, int level, size_t length,
                 absl::string_view prefix, const ByteMask& mask) {
  for (int chunk = 0; chunk < 4; ++chunk) {
    if (mask[chunk] == 0) continue;
    if (bits.MayContainRunMember(RunHash(level, length, prefix, chunk),
                                 mask[chunk], kRangeProbes)) {
      return true;
    }
  }
  return false;
}

// The smallest byte string of length whose bytes are in sets (one per
// position) that is at least lo; none if there is none.
std::optional<std::string> SmallestAtLeast(const ByteSet* sets, size_t length,
                                           absl::string_view lo) {
  const size_t limit = std::min(length, lo.size());
  size_t tight = 0;  // lo[0, tight) is in the sets
  while (tight < limit && sets[tight].Has(static_cast<uint8_t>(lo[tight]))) {
    ++tight;
  }
  std::string out(lo.substr(0, std::min(tight, length)));
  if (tight == limit && lo.size() <= length) {
    // lo itself, or lo followed by the smallest bytes.
    for (size_t i = out.size(); i < length; ++i) out.push_back(sets[i].Min());
    return out;
  }
  // A byte above lo's at the last position where one exists, then the
  // smallest bytes. (With all of lo[0, length) in the sets and lo longer,
  // that prefix is below lo.)
  for (size_t i = std::min(tight, length - 1) + 1; i-- > 0;) {
    const std::optional<uint8_t> above =
        sets[i].NextAbove(static_cast<uint8_t>(lo[i]));
    if (!above.has_value()) continue;
    out.resize(i);
    out.push_back(static_cast<char>(*above));
    for (size_t j = i + 1; j < length; ++j) out.push_back(sets[j].Min());
    return out;
  }
  return std::nullopt;
}

// The largest byte string of length whose bytes are in sets that is at most
// hi (below it unless inclusive); none if there is none.
std::optional<std::string> LargestAtMost(const ByteSet* sets, size_t length,
                                         absl::string_view hi, bool inclusive) {
  const size_t limit = std::min(length, hi.size());
  size_t tight = 0;
  while (tight < limit && sets[tight].Has(static_cast<uint8_t>(hi[tight]))) {
    ++tight;
  }
  if (tight == limit) {
    // A proper prefix of hi is below it; hi itself only if inclusive.
    if (hi.size() > length) return std::string(hi.substr(0, length));
    if (hi.size() == length && inclusive) return std::string(hi);
    if (limit == 0) return std::nullopt;  // nothing is below ""
    tight = limit - 1;
  }
  for (size_t i = tight + 1; i-- > 0;) {
    const std::optional<uint8_t> below =
        sets[i].NextBelow(static_cast<uint8_t>(hi[i]));
    if (!below.has_value()) continue;
    std::string out(hi.substr(0, i));
    out.push_back(static_cast<char>(*below));
    for (size_t j = i + 1; j < length; ++j) out.push_back(sets[j].Max());
    return out;
  }
  return std::nullopt;
}

size_t CommonPrefix(absl::string_view a, absl::string_view b) {
  const size_t limit = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < limit && a[i] == b[i]) ++i;
  return i;
}

// Items reach keys through the runs of their last kLevels bytes.
constexpr size_t kLevels = 2;

// Whether a key of length in the sets may lie in [low, high], the smallest
// and largest strings of that length in the sets within the range. Where low
// and high first differ, at position length - k, the keys between them are,
// for each level j below k (position length - j): those of low's run at that
// position after low's byte (from it, at the last byte), and those of high's
// run before high's byte (up to it); and at level k, those of the run both
// share between their bytes. A part the sets hold no byte of needs no probe;
// any other above kLevels has no items, so the range may hold a key.
bool LengthMayHoldKey(const MutableBloomFilter& bits, const ByteSet* sets,
                      size_t length, absl::string_view low,
                      absl::string_view high) {
  // k; low == high is a range of one key, at level 1.
  const size_t differ = std::max<size_t>(length - CommonPrefix(low, high), 1);
  const auto byte_at = [](absl::string_view s, size_t i) {
    return static_cast<int>(static_cast<uint8_t>(s[i]));
  };
  // Probes the keys of the run at level (of s's prefix) whose byte is in
  // mask: true if one may exist, or if no items reach them.
  const auto part_may_hold = [&](size_t level, absl::string_view s,
                                 const ByteMask& mask) {
    if ((mask[0] | mask[1] | mask[2] | mask[3]) == 0) return false;
    if (level > kLevels) return true;
    return RunsMayHold(bits, static_cast<int>(level), length,
                       s.substr(0, length - level), mask);
  };
  for (size_t level = 1; level <= differ; ++level) {
    const size_t position = length - level;
    const ByteSet& set = sets[position];
    // At the last byte low and high themselves count; above it, their own
    // bytes lead to the level below.
    const int inner = level == 1 ? 0 : 1;
    const int low_byte = byte_at(low, position) + inner;
    const int high_byte = byte_at(high, position) - inner;
    if (level == differ) {
      if (part_may_hold(level, low, Between(set, low_byte, high_byte))) {
        return true;
      }
    } else if (part_may_hold(level, low, Between(set, low_byte, 255)) ||
               part_may_hold(level, high, Between(set, 0, high_byte))) {
      return true;
    }
  }
  return false;
}

}  // namespace

void AddRangeItemsSingleWriter(absl::string_view key, KeyAlphabets* alphabets,
                               MutableBloomFilter* bits) {
  // The alphabets first: a reader that finds a key's run bits must also find
  // its bytes (both are relaxed stores of one thread, read after the write
  // that follows them is visible).
  alphabets->AddSingleWriter(key);
  if (key.empty() || key.size() > KeyAlphabets::kMaxLength) return;
  AddMember(1, key, bits);
  if (key.size() >= 2) AddMember(2, key, bits);
}

bool RangeMayHoldKey(const KeyAlphabets& alphabets,
                     const MutableBloomFilter& bits, absl::string_view lo,
                     absl::string_view hi, bool hi_inclusive) {
  if (hi_inclusive ? lo > hi : lo >= hi) return false;
  if (alphabets.has_longer_keys()) return true;
  if (lo.empty() && alphabets.has_empty_key()) return true;
  // Every string in the range starts with lo and hi's common prefix, so is
  // no shorter than it.
  const size_t common = CommonPrefix(lo, hi);
  bool may_hold = false;
  alphabets.ForEachLength(std::max<size_t>(common, 1), [&](size_t length) {
    const ByteSet* sets = alphabets.Of(length);
    // The common prefix must be spelled by the sets; the last bytes tell
    // most lengths apart soonest.
    for (size_t i = common; i-- > 0;) {
      if (!sets[i].Has(static_cast<uint8_t>(lo[i]))) return true;
    }
    const std::optional<std::string> low = SmallestAtLeast(sets, length, lo);
    if (!low.has_value()) return true;
    const std::optional<std::string> high =
        LargestAtMost(sets, length, hi, hi_inclusive);
    if (!high.has_value() || *high < *low) return true;
    may_hold = LengthMayHoldKey(bits, sets, length, *low, *high);
    return !may_hold;
  });
  return may_hold;
}

}  // namespace presence_internal
}  // namespace sstfilter
