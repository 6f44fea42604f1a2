#include "bench/keys.h"

#include <algorithm>
#include <cstring>

namespace sstfilter {
namespace bench {
namespace {

// 2^64 / golden ratio: decorrelates the second mix from the first.
constexpr uint64_t kSecondHalfSalt = 0x9e3779b97f4a7c15ULL;
constexpr uint64_t kLengthSalt = 0xd6e8feb86659fd93ULL;  // any odd constant
constexpr size_t kMinVarlenBytes = 8;  // bytes, holds the index mix
constexpr int kSequentialDigits = 12;  // decimal digits after "user"

void Store64(uint64_t v, char* dst) { std::memcpy(dst, &v, sizeof(v)); }

}  // namespace

size_t MakeKey(KeyKind kind, uint64_t index, char* buf) {
  switch (kind) {
    case KeyKind::kRandom16:
      Store64(Mix64(index), buf);
      Store64(Mix64(index ^ kSecondHalfSalt), buf + 8);
      return 16;
    case KeyKind::kSequential: {
      // "user%012d" written by hand: snprintf would cost more than the filters
      // measured. Indexes stay below 10^12 (kAbsentBase + 10^11 at most), so 12
      // digits suffice.
      std::memcpy(buf, "user", 4);
      for (int i = kSequentialDigits - 1; i >= 0; --i) {
        buf[4 + i] = static_cast<char>('0' + index % 10);
        index /= 10;
      }
      return 4 + kSequentialDigits;
    }
    case KeyKind::kVarlen: {
      const size_t len =
          kMinVarlenBytes +
          Mix64(index ^ kLengthSalt) % (kMaxKeyBytes - kMinVarlenBytes + 1);
      uint64_t state = Mix64(index);
      Store64(state, buf);  // unique per index
      for (size_t at = 8; at < len; at += 8) {
        state = Mix64(state + kSecondHalfSalt);
        char word[8];
        Store64(state, word);
        std::memcpy(buf + at, word, std::min<size_t>(8, len - at));
      }
      return len;
    }
  }
  return 0;
}

void KeyChunk::Fill(KeyKind kind, uint64_t first, size_t count) {
  views_.clear();
  size_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t len = MakeKey(kind, first + i, &arena_[at]);
    views_.emplace_back(arena_.data() + at, len);
    at += len;
  }
}

void KeyChunk::FillIndexes(KeyKind kind, const uint64_t* indexes,
                           size_t count) {
  views_.clear();
  size_t at = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t len = MakeKey(kind, indexes[i], &arena_[at]);
    views_.emplace_back(arena_.data() + at, len);
    at += len;
  }
}

}  // namespace bench
}  // namespace sstfilter
