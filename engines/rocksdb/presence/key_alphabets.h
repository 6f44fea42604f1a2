// The bytes seen at each position of a column family's keys, per key length:
// what lets a range be answered for keys of any length (range_items.h). A
// byte string of length L can be a key only if its byte at each position i
// was seen at position i of a key of length L. Sets only grow, as filters do.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_KEY_ALPHABETS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_KEY_ALPHABETS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sstfilter {
namespace presence_internal {

// A set of byte values.
class ByteSet {
 public:
  bool Has(uint8_t byte) const { return (Word(byte >> 6) >> (byte & 63)) & 1; }
  // The smallest member above byte, or the largest below it; none if none.
  std::optional<uint8_t> NextAbove(uint8_t byte) const;
  std::optional<uint8_t> NextBelow(uint8_t byte) const;
  // The smallest and largest member. REQUIRES: the set is not empty.
  uint8_t Min() const;
  uint8_t Max() const;
  // Words 0..3 (bit b of word w: byte 64 * w + b).
  uint64_t Word(int w) const {
    return words_[w].load(std::memory_order_relaxed);
  }
  // REQUIRES: one writer at a time; readers may run meanwhile.
  void AddSingleWriter(uint8_t byte) {
    const uint64_t bit = uint64_t{1} << (byte & 63);
    std::atomic<uint64_t>& word = words_[byte >> 6];
    const uint64_t before = word.load(std::memory_order_relaxed);
    if ((before & bit) == 0)
      word.store(before | bit, std::memory_order_relaxed);
  }
  void OrWord(int w, uint64_t bits) {
    words_[w].store(Word(w) | bits, std::memory_order_relaxed);
  }

 private:
  std::atomic<uint64_t> words_[4] = {};
};

class KeyAlphabets {
 public:
  // Keys longer than this are only counted (has_longer_keys).
  static constexpr size_t kMaxLength = 255;

  KeyAlphabets() = default;
  KeyAlphabets(const KeyAlphabets&) = delete;
  KeyAlphabets& operator=(const KeyAlphabets&) = delete;
  ~KeyAlphabets();

  // Records key's bytes. REQUIRES: one adder at a time (the adds of the
  // filter these belong to); readers may run meanwhile and see each byte
  // once the Add that recorded it has returned.
  void AddSingleWriter(absl::string_view key);

  // The sets of positions 0..length-1 of keys of that length, or null when
  // no such key was added. REQUIRES: length <= kMaxLength.
  const ByteSet* Of(size_t length) const {
    return by_length_[length].load(std::memory_order_acquire);
  }
  bool has_empty_key() const {
    return (lengths_[0].load(std::memory_order_acquire) & 1) != 0;
  }
  bool has_longer_keys() const {
    return longer_keys_.load(std::memory_order_acquire);
  }
  // Calls visit(length) for each length of a key added, ascending, from
  // min_length on; stops when it returns false.
  template <typename Visit>
  void ForEachLength(size_t min_length, Visit visit) const {
    for (size_t w = min_length / 64; w < 4; ++w) {
      uint64_t bits = lengths_[w].load(std::memory_order_acquire);
      if (w == min_length / 64) bits &= ~uint64_t{0} << (min_length % 64);
      while (bits != 0) {
        const size_t length = 64 * w + __builtin_ctzll(bits);
        bits &= bits - 1;
        if (!visit(length)) return;
      }
    }
  }

  // The sets as bytes, and those bytes added back in (a union): a save, and
  // its restore (DataLossError naming what is wrong for other bytes, the
  // sets then unchanged). Save reads each set once: an add running meanwhile
  // is saved or not, byte by byte.
  std::string Save() const;
  absl::Status Restore(absl::string_view saved);

 private:
  // The sets of length, created when missing. REQUIRES: the single writer.
  ByteSet* Sets(size_t length);

  std::atomic<ByteSet*> by_length_[kMaxLength + 1] = {};
  std::atomic<uint64_t> lengths_[4] = {};  // bit L: a key of length L
  std::atomic<bool> longer_keys_{false};
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_KEY_ALPHABETS_H_
