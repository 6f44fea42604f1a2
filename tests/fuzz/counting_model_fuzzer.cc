// Fuzzes the counting Bloom filter against a multiset model: the input is a
// small filter's options and a sequence of operations on a universe of 64
// keys, and a key the model holds must always match.
//
// Input format:
//   byte 0        expected keys: 1 + (byte & 31), so 1..32 (one to a few
//                 blocks: counters collide and saturate often)
//   byte 1        options: kOptions[byte % 16] (counters/key or an fpp)
//   bytes 2..     one operation each (at most kMaxOps): the high two bits
//                 the kind, the low six bits the key (EncodeKey(uint32_t{i}))
//     0 Add       the model's count of the key goes up
//     1 Remove    of a key the model holds: must succeed. Of a key it does
//                 not hold: only when MayContain says no, and then Remove must
//                 refuse it and change nothing. (Removing a possible false
//                 positive would be the caller error the filter documents.)
//     2 Query     MayContain of a held key must be true
//     3 key < 62  batched MayContain of every key agrees with the single one,
//                 and every held key matches
//       key 62    Clear, and the model empties
//       key 63    a copy compares equal and answers alike
// After every operation NumKeys() is the model's total; at the end every held
// key matches. A violation aborts with a message naming the key.
//
// Cost: filters are made once per (options, expected keys) and copied, since
// sizing from an fpp evaluates the layout's formula hundreds of times.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_policy.h"
#include "filter/typed_key.h"
#include "inmemory/counting/counting_bloom.h"

namespace {

using sstfilter::CountingBloomFilter;
using sstfilter::FilterOptions;

constexpr int kNumKeys = 64;
constexpr size_t kMaxOps = 512;  // keeps one input near a millisecond

const FilterOptions kOptions[16] = {
    FilterOptions::BitsPerKey(1),  FilterOptions::BitsPerKey(1.5),
    FilterOptions::BitsPerKey(2),  FilterOptions::BitsPerKey(3),
    FilterOptions::BitsPerKey(4),  FilterOptions::BitsPerKey(6),
    FilterOptions::BitsPerKey(10), FilterOptions::BitsPerKey(16),
    FilterOptions::BitsPerKey(40), FilterOptions::BitsPerKey(100),
    FilterOptions::Fpp(0.5),       FilterOptions::Fpp(0.1),
    FilterOptions::Fpp(0.03),      FilterOptions::Fpp(0.01),
    FilterOptions::Fpp(1e-3),      FilterOptions::Fpp(1e-6),
};

[[noreturn]] void Fail(const char* what, int key) {
  std::fprintf(stderr, "counting_model_fuzzer: %s (key %d)\n", what, key);
  std::abort();
}

const std::vector<std::string>& Keys() {
  static const auto* const keys = [] {
    auto* k = new std::vector<std::string>;
    for (uint32_t i = 0; i < kNumKeys; ++i) {
      k->push_back(sstfilter::EncodeKey(i));
    }
    return k;
  }();
  return *keys;
}

// An empty filter for the options and expected keys, made once.
const CountingBloomFilter& EmptyFilter(int option, uint64_t expected_keys) {
  static auto* const made =
      new std::map<std::pair<int, uint64_t>, CountingBloomFilter>;
  auto it = made->find({option, expected_keys});
  if (it == made->end()) {
    absl::StatusOr<CountingBloomFilter> filter =
        CountingBloomFilter::Create(kOptions[option], expected_keys);
    if (!filter.ok()) Fail("Create refused valid options", -1);
    it =
        made->emplace(std::make_pair(option, expected_keys), *std::move(filter))
            .first;
  }
  return it->second;
}

void CheckHeldKeysMatch(const CountingBloomFilter& filter, const int* count) {
  for (int i = 0; i < kNumKeys; ++i) {
    if (count[i] > 0 && !filter.MayContain(Keys()[i])) {
      Fail("false negative for a held key", i);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint64_t expected_keys = 1 + (data[0] & 31);
  const int option = data[1] % 16;
  CountingBloomFilter filter = EmptyFilter(option, expected_keys);
  const std::vector<std::string>& keys = Keys();

  int count[kNumKeys] = {0};
  uint64_t total = 0;
  const size_t end = std::min(size, 2 + kMaxOps);
  for (size_t pos = 2; pos < end; ++pos) {
    const int kind = data[pos] >> 6;
    const int key = data[pos] & 63;
    switch (kind) {
      case 0:
        filter.Add(keys[key]);
        ++count[key];
        ++total;
        break;
      case 1:
        if (count[key] > 0) {
          if (!filter.Remove(keys[key]))
            Fail("Remove of a held key failed", key);
          --count[key];
          --total;
        } else if (!filter.MayContain(keys[key])) {
          const CountingBloomFilter before = filter;
          if (filter.Remove(keys[key])) Fail("Remove of an absent key", key);
          if (filter != before)
            Fail("a refused Remove changed the filter", key);
        }
        break;
      case 2:
        if (count[key] > 0 && !filter.MayContain(keys[key])) {
          Fail("false negative for a held key", key);
        }
        break;
      default:
        if (key < 62) {
          std::vector<absl::string_view> views(keys.begin(), keys.end());
          bool results[kNumKeys];
          filter.MayContain(absl::MakeConstSpan(views), results);
          for (int i = 0; i < kNumKeys; ++i) {
            if (results[i] != filter.MayContain(keys[i])) {
              Fail("batched and single queries disagree", i);
            }
          }
          CheckHeldKeysMatch(filter, count);
        } else if (key == 62) {
          filter.Clear();
          for (int& c : count) c = 0;
          total = 0;
        } else {
          const CountingBloomFilter copy = filter;
          if (copy != filter) Fail("a copy differs", key);
          CheckHeldKeysMatch(copy, count);
        }
        break;
    }
    if (filter.NumKeys() != total) Fail("NumKeys differs from the model", key);
  }
  CheckHeldKeysMatch(filter, count);
  return 0;
}
