#include "engines/rocksdb/presence/key_alphabets.h"

#include "absl/strings/str_cat.h"
#include "util/coding.h"

namespace sstfilter {
namespace presence_internal {
namespace {

// Save's layout: a version byte, a flags byte (kLongerKeys), then for each
// length with keys, ascending: the length (varint32) and its sets, four
// little-endian 64-bit words each.
constexpr uint8_t kSavedVersion = 1;
constexpr uint8_t kLongerKeys = 1;

absl::Status Lost(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("key alphabets: ", what));
}

}  // namespace

std::optional<uint8_t> ByteSet::NextAbove(uint8_t byte) const {
  for (int value = byte + 1; value < 256;) {
    const uint64_t bits = Word(value >> 6) >> (value & 63);
    if (bits != 0) return static_cast<uint8_t>(value + __builtin_ctzll(bits));
    value = (value | 63) + 1;
  }
  return std::nullopt;
}

std::optional<uint8_t> ByteSet::NextBelow(uint8_t byte) const {
  for (int value = byte - 1; value >= 0;) {
    const int shift = 63 - (value & 63);
    const uint64_t bits = Word(value >> 6) << shift;
    if (bits != 0) return static_cast<uint8_t>(value - __builtin_clzll(bits));
    value = (value & ~63) - 1;
  }
  return std::nullopt;
}

uint8_t ByteSet::Min() const { return Has(0) ? 0 : *NextAbove(0); }
uint8_t ByteSet::Max() const { return Has(255) ? 255 : *NextBelow(255); }

KeyAlphabets::~KeyAlphabets() {
  for (std::atomic<ByteSet*>& sets : by_length_) delete[] sets.load();
}

ByteSet* KeyAlphabets::Sets(size_t length) {
  ByteSet* sets = by_length_[length].load(std::memory_order_relaxed);
  if (sets == nullptr) {
    sets = new ByteSet[length == 0 ? 1 : length];
    by_length_[length].store(sets, std::memory_order_release);
    std::atomic<uint64_t>& word = lengths_[length / 64];
    word.store(
        word.load(std::memory_order_relaxed) | uint64_t{1} << (length % 64),
        std::memory_order_release);
  }
  return sets;
}

void KeyAlphabets::AddSingleWriter(absl::string_view key) {
  if (key.size() > kMaxLength) {
    longer_keys_.store(true, std::memory_order_release);
    return;
  }
  ByteSet* sets = Sets(key.size());
  for (size_t i = 0; i < key.size(); ++i) {
    sets[i].AddSingleWriter(static_cast<uint8_t>(key[i]));
  }
}

std::string KeyAlphabets::Save() const {
  std::string out;
  out.push_back(static_cast<char>(kSavedVersion));
  out.push_back(static_cast<char>(has_longer_keys() ? kLongerKeys : 0));
  ForEachLength(0, [this, &out](size_t length) {
    PutVarint32(&out, static_cast<uint32_t>(length));
    const ByteSet* sets = Of(length);
    for (size_t i = 0; i < length; ++i) {
      for (int w = 0; w < 4; ++w) PutFixed64(&out, sets[i].Word(w));
    }
    return true;
  });
  return out;
}

absl::Status KeyAlphabets::Restore(absl::string_view saved) {
  if (saved.size() < 2 || static_cast<uint8_t>(saved[0]) != kSavedVersion) {
    return Lost("not a save of version 1");
  }
  const uint8_t flags = static_cast<uint8_t>(saved[1]);
  if ((flags & ~kLongerKeys) != 0) return Lost("unknown flags");
  // Validate everything before changing anything.
  absl::string_view rest = saved.substr(2);
  for (absl::string_view check = rest; !check.empty();) {
    uint32_t length = 0;
    if (!GetVarint32(&check, &length) || length > kMaxLength ||
        check.size() < size_t{32} * length) {
      return Lost("a length or its sets are cut short or too long");
    }
    // A key sets a byte at each of its positions.
    for (size_t i = 0; i < length; ++i, check.remove_prefix(32)) {
      if (DecodeFixed64(check.data()) == 0 &&
          DecodeFixed64(check.data() + 8) == 0 &&
          DecodeFixed64(check.data() + 16) == 0 &&
          DecodeFixed64(check.data() + 24) == 0) {
        return Lost(absl::StrCat("an empty set at length ", length));
      }
    }
  }
  if (flags & kLongerKeys) longer_keys_.store(true, std::memory_order_release);
  while (!rest.empty()) {
    uint32_t length = 0;
    GetVarint32(&rest, &length);
    ByteSet* sets = Sets(length);
    for (size_t i = 0; i < length; ++i) {
      for (int w = 0; w < 4; ++w) {
        sets[i].OrWord(w, DecodeFixed64(rest.data()));
        rest.remove_prefix(8);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace presence_internal
}  // namespace sstfilter
