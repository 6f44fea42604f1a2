#include "engines/rocksdb/presence/range_items.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include "util/coding.h"
#include "util/joined_hash.h"

namespace sstfilter {
namespace presence_internal {
namespace {

// A run: the keys of one length that share all but their last `level` bytes,
// and one quarter of the values of the byte before those (its chunk): the
// members are that byte's values modulo 64.
constexpr int kChunkBits = 6;

uint64_t RunHash(int level, size_t length, absl::string_view prefix,
                 int chunk) {
  // The run's name, hashed as a key is (bloom::KeyHash): level, length,
  // chunk, prefix; read in place rather than copied together.
  const uint8_t head[3] = {static_cast<uint8_t>(level),
                           static_cast<uint8_t>(length),
                           static_cast<uint8_t>(chunk)};
  return JoinedHash64(head, prefix);
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

// The members of set from first to last, inclusive (none when first > last):
// only the words the span touches are read.
ByteMask Between(const ByteSet& set, int first, int last) {
  ByteMask mask = {};
  if (first > last) return mask;
  const int first_word = first >> 6;
  const int last_word = last >> 6;
  for (int w = first_word; w <= last_word; ++w) mask[w] = set.Word(w);
  mask[first_word] &= ~uint64_t{0} << (first & 63);
  mask[last_word] &= ~uint64_t{0} >> (63 - (last & 63));
  return mask;
}

// The run probes a range needs, gathered so that their blocks load at once
// (each is a cache miss in a filter of megabytes) before any is tested.
class RunProbes {
 public:
  explicit RunProbes(const MutableBloomFilter& bits) : bits_(bits) {}

  // Adds the probes of the members of mask in the runs of the keys of length
  // that share prefix (all but their last level bytes); true if one of those
  // already gathered matched (the range may hold a key).
  bool Add(int level, size_t length, absl::string_view prefix,
           const ByteMask& mask) {
    for (int chunk = 0; chunk < 4; ++chunk) {
      if (mask[chunk] == 0) continue;
      if (count_ == kMaxProbes && AnyMatch()) return true;
      const uint64_t hash = RunHash(level, length, prefix, chunk);
      bits_.PrefetchRun(hash);
      probes_[count_++] = {hash, mask[chunk]};
    }
    return false;
  }

  // Whether a gathered probe matches; forgets them.
  bool AnyMatch() {
    bool match = false;
    for (size_t i = 0; i < count_ && !match; ++i) {
      match = bits_.MayContainRunMember(probes_[i].hash, probes_[i].members,
                                        kRangeProbes);
    }
    count_ = 0;
    return match;
  }

 private:
  static constexpr size_t kMaxProbes = 32;
  struct Probe {
    uint64_t hash;
    uint64_t members;
  };
  const MutableBloomFilter& bits_;
  Probe probes_[kMaxProbes];
  size_t count_ = 0;
};

// A byte string of at most KeyAlphabets::kMaxLength bytes, without an
// allocation.
class KeyBuffer {
 public:
  absl::string_view view() const { return absl::string_view(bytes_, size_); }
  void Assign(absl::string_view s) {
    std::memcpy(bytes_, s.data(), s.size());
    size_ = s.size();
  }
  void Resize(size_t size) { size_ = size; }
  void Push(uint8_t byte) { bytes_[size_++] = static_cast<char>(byte); }

 private:
  char bytes_[KeyAlphabets::kMaxLength];
  size_t size_ = 0;
};

// The smallest byte string of length whose bytes are in sets (one per
// position) that is at least lo, into *found: lo itself, or built in out;
// false if there is none. lo's first `spelled` bytes are known to be in the
// sets.
bool SmallestAtLeast(const ByteSet* sets, size_t length, absl::string_view lo,
                     size_t spelled, KeyBuffer* out, absl::string_view* found) {
  const size_t limit = std::min(length, lo.size());
  size_t tight = std::min(spelled, limit);  // lo[0, tight) is in the sets
  while (tight < limit && sets[tight].Has(static_cast<uint8_t>(lo[tight]))) {
    ++tight;
  }
  if (tight == limit && lo.size() <= length) {
    // lo itself, or lo followed by the smallest bytes.
    if (lo.size() == length) {
      *found = lo;
      return true;
    }
    out->Assign(lo);
    for (size_t i = lo.size(); i < length; ++i) out->Push(sets[i].Min());
    *found = out->view();
    return true;
  }
  // A byte above lo's at the last position where one exists, then the
  // smallest bytes. (With all of lo[0, length) in the sets and lo longer,
  // that prefix is below lo.)
  for (size_t i = std::min(tight, length - 1) + 1; i-- > 0;) {
    const std::optional<uint8_t> above =
        sets[i].NextAbove(static_cast<uint8_t>(lo[i]));
    if (!above.has_value()) continue;
    out->Assign(lo.substr(0, i));
    out->Push(*above);
    for (size_t j = i + 1; j < length; ++j) out->Push(sets[j].Min());
    *found = out->view();
    return true;
  }
  return false;
}

// The largest byte string of length whose bytes are in sets that is at most
// hi (below it unless inclusive), into *found: a prefix of hi, or built in
// out; false if there is none. hi's first `spelled` bytes are known to be in
// the sets.
bool LargestAtMost(const ByteSet* sets, size_t length, absl::string_view hi,
                   bool inclusive, size_t spelled, KeyBuffer* out,
                   absl::string_view* found) {
  const size_t limit = std::min(length, hi.size());
  size_t tight = std::min(spelled, limit);
  while (tight < limit && sets[tight].Has(static_cast<uint8_t>(hi[tight]))) {
    ++tight;
  }
  if (tight == limit) {
    // A proper prefix of hi is below it; hi itself only if inclusive.
    if (hi.size() > length || (hi.size() == length && inclusive)) {
      *found = hi.substr(0, length);
      return true;
    }
    if (limit == 0) return false;  // nothing is below ""
    tight = limit - 1;
  }
  for (size_t i = tight + 1; i-- > 0;) {
    const std::optional<uint8_t> below =
        sets[i].NextBelow(static_cast<uint8_t>(hi[i]));
    if (!below.has_value()) continue;
    out->Assign(hi.substr(0, i));
    out->Push(*below);
    for (size_t j = i + 1; j < length; ++j) out->Push(sets[j].Max());
    *found = out->view();
    return true;
  }
  return false;
}

// The length of a and b's common prefix, known to be at least `from`, found
// eight bytes at a time.
size_t CommonPrefix(absl::string_view a, absl::string_view b, size_t from = 0) {
  const size_t limit = std::min(a.size(), b.size());
  size_t i = from;
  for (; i + 8 <= limit; i += 8) {
    // Read little-endian, the first differing byte is the lowest of x ^ y.
    const uint64_t x = DecodeFixed64(a.data() + i);
    const uint64_t y = DecodeFixed64(b.data() + i);
    if (x != y) return i + static_cast<size_t>(__builtin_ctzll(x ^ y)) / 8;
  }
  while (i < limit && a[i] == b[i]) ++i;
  return i;
}

// Whether a < b, given their common prefix's length: what string_view's
// comparison answers, without comparing the prefix again.
bool Below(absl::string_view a, absl::string_view b, size_t common) {
  if (common == b.size()) return false;  // b is a prefix of a, or equal
  return common == a.size() ||
         static_cast<uint8_t>(a[common]) < static_cast<uint8_t>(b[common]);
}

// Whether the sets spell s[0, n): each byte in its position's set. Tested
// from the end, where lengths differ soonest.
bool Spells(const ByteSet* sets, absl::string_view s, size_t n) {
  for (size_t i = n; i-- > 0;) {
    if (!sets[i].Has(static_cast<uint8_t>(s[i]))) return false;
  }
  return true;
}

// Items reach keys through the runs of their last kLevels bytes.
constexpr size_t kLevels = 2;

// Gathers the probes for the keys of length in the sets that may lie in
// [low, high], the smallest and largest strings of that length in the sets
// within the range, which share exactly their first `shared` bytes; true when
// the range may hold such a key without a probe (no items reach part of it), or
// a probe gathered before matched. Where low and high first differ, at position
// length - k, the keys between them are, for each level j below k (position
// length - j): those of low's run at that position after low's byte (from it,
// at the last byte), and those of high's run before high's byte (up to it); and
// at level k, those of the run both share between their bytes. A part the sets
// hold no byte of needs no probe; any other above kLevels has no items.
bool GatherLength(const ByteSet* sets, size_t length, absl::string_view low,
                  absl::string_view high, size_t shared, RunProbes* probes) {
  // k; low == high is a range of one key, at level 1.
  const size_t differ = std::max<size_t>(length - shared, 1);
  const auto byte_at = [](absl::string_view s, size_t i) {
    return static_cast<int>(static_cast<uint8_t>(s[i]));
  };
  // Gathers the probes of the keys of the run at level (of s's prefix)
  // whose byte is in mask; true if they may exist with no items to tell.
  const auto part = [&](size_t level, absl::string_view s,
                        const ByteMask& mask) {
    if ((mask[0] | mask[1] | mask[2] | mask[3]) == 0) return false;
    if (level > kLevels) return true;
    return probes->Add(static_cast<int>(level), length,
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
      if (part(level, low, Between(set, low_byte, high_byte))) return true;
    } else if (part(level, low, Between(set, low_byte, 255)) ||
               part(level, high, Between(set, 0, high_byte))) {
      return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<double> RangeItemsPerKey(double fpp) {
  const absl::StatusOr<int> key_probes =
      MutableBloomFilter::NumProbesFor(FilterOptions::Fpp(fpp));
  if (!key_probes.ok()) return key_probes.status();
  // Two run members per key, each setting kRangeProbes bits.
  return 2.0 * kRangeProbes / *key_probes;
}

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
  // Every string in the range starts with lo and hi's common prefix, so is
  // no shorter than it.
  const size_t common = CommonPrefix(lo, hi);
  const bool empty =
      hi_inclusive ? Below(hi, lo, common) : !Below(lo, hi, common);
  if (empty) return false;
  if (alphabets.has_longer_keys()) return true;
  if (lo.empty() && alphabets.has_empty_key()) return true;
  RunProbes probes(bits);
  // The bounds of each length's keys: views of lo and hi where they are such
  // strings themselves, else built in these buffers.
  KeyBuffer low_buffer, high_buffer;
  absl::string_view low, high;
  bool may_hold = false;
  alphabets.ForEachLength(std::max<size_t>(common, 1), [&](size_t length) {
    const ByteSet* sets = alphabets.Of(length);
    if (!Spells(sets, lo, common)) return true;
    // lo and hi agree on the common prefix, which the sets spell.
    if (!SmallestAtLeast(sets, length, lo, common, &low_buffer, &low) ||
        !LargestAtMost(sets, length, hi, hi_inclusive, common, &high_buffer,
                       &high)) {
      return true;
    }
    // From byte 0: only once low <= high is known do both start with lo and
    // hi's common prefix (low may have left it to find a key at least lo).
    const size_t shared = CommonPrefix(low, high);
    if (Below(high, low, shared)) return true;
    may_hold = GatherLength(sets, length, low, high, shared, &probes);
    return !may_hold;
  });
  return may_hold || probes.AnyMatch();
}

}  // namespace presence_internal
}  // namespace sstfilter
