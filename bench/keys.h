// Key generation for filter_bench: every key is a pure function of a 64-bit
// index, so a workload of 10^8 keys never has to be stored, and the same index
// gives the same bytes in every run and for every implementation.
//
// Added ("present") keys have indexes below kAbsentBase; keys never added
// ("absent") have indexes from kAbsentBase up, a disjoint range. Each key kind
// starts with a bijective function of its index, so distinct indexes give
// distinct keys.

#ifndef SSTFILTER_BENCH_KEYS_H_
#define SSTFILTER_BENCH_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "util/mix64.h"

namespace sstfilter {
namespace bench {

// First index of the absent keys. Present indexes stay below it (the largest
// workload is far smaller), and it leaves room for 12 decimal digits in
// sequential keys.
constexpr uint64_t kAbsentBase = 500'000'000'000;  // key index

// Largest key any kind produces.
constexpr size_t kMaxKeyBytes = 100;

enum class KeyKind {
  kRandom16,    // 16 bytes: two 64-bit mixes of the index
  kSequential,  // "user%012d" of the index, as in YCSB and db_bench
  kVarlen,      // 8..100 bytes, length and bytes drawn from the index
};

// Writes key `index` of `kind` to buf (at least kMaxKeyBytes bytes); returns
// its length.
size_t MakeKey(KeyKind kind, uint64_t index, char* buf);

// A reusable buffer of keys, small enough to stay in cache: for streaming a
// workload through a builder without storing it, and for handing queries to a
// filter while their keys are hot, as the key of a real lookup is.
class KeyChunk {
 public:
  static constexpr size_t kCapacity = 1024;  // keys per chunk

  KeyChunk() : arena_(kCapacity * kMaxKeyBytes, '\0') {
    views_.reserve(kCapacity);
  }

  // Makes keys first .. first + count - 1. REQUIRES: count <= kCapacity.
  void Fill(KeyKind kind, uint64_t first, size_t count);
  // Makes the keys of indexes[0 .. count - 1]. REQUIRES: count <= kCapacity.
  void FillIndexes(KeyKind kind, const uint64_t* indexes, size_t count);

  size_t size() const { return views_.size(); }
  const absl::string_view* data() const { return views_.data(); }
  absl::string_view operator[](size_t i) const { return views_[i]; }

 private:
  std::string arena_;
  std::vector<absl::string_view> views_;
};

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_KEYS_H_
