// Helpers for tests of any filter: deterministic key sets, building a filter,
// and counting matches.

#ifndef SSTFILTER_TESTS_TESTING_FILTER_TEST_UTIL_H_
#define SSTFILTER_TESTS_TESTING_FILTER_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_policy.h"
#include "tests/testing/random.h"
#include "util/coding.h"

namespace sstfilter {
namespace test {

// 16-byte key number i of the set `set`: keys of different sets never collide,
// so keys of set 1 are certainly absent from a filter of set 0.
inline std::string Key16(uint64_t set, uint64_t i) {
  std::string key(16, '\0');
  EncodeFixed64(&key[0], Mix64(i ^ (set << 56)));
  EncodeFixed64(&key[8], set);
  return key;
}

inline std::vector<std::string> Keys16(uint64_t set, uint64_t first,
                                       uint64_t count) {
  std::vector<std::string> keys;
  keys.reserve(count);
  for (uint64_t i = 0; i < count; ++i) keys.push_back(Key16(set, first + i));
  return keys;
}

inline std::string BuildFilter(const FilterPolicy& policy,
                               const std::vector<std::string>& keys) {
  std::unique_ptr<FilterBuilder> builder = policy.NewBuilder();
  for (const std::string& key : keys) builder->AddKey(key);
  std::string filter;
  builder->Finish(&filter);
  return filter;
}

// Number of keys (set `set`, numbers first..first+count-1) that a batched
// query matches, asked in batches: query(absl::Span<const absl::string_view>
// keys, bool* results) sets results[i] for keys[i]. Any filter's batched query
// fits (FilterReader::MayMatch, CountingBloomFilter::MayContain).
template <typename BatchQuery>
uint64_t CountBatchMatches(const BatchQuery& query, uint64_t set,
                           uint64_t first, uint64_t count) {
  constexpr uint64_t kBatch = 256;
  std::vector<std::string> keys(kBatch);
  std::vector<absl::string_view> views(kBatch);
  bool results[kBatch];
  uint64_t matches = 0;
  for (uint64_t start = 0; start < count; start += kBatch) {
    const uint64_t n = std::min(kBatch, count - start);
    for (uint64_t i = 0; i < n; ++i) {
      keys[i] = Key16(set, first + start + i);
      views[i] = keys[i];
    }
    query(absl::MakeConstSpan(views.data(), n), results);
    for (uint64_t i = 0; i < n; ++i) matches += results[i] ? 1 : 0;
  }
  return matches;
}

// The same for a filter reader.
inline uint64_t CountMatches(const FilterReader& reader, uint64_t set,
                             uint64_t first, uint64_t count) {
  return CountBatchMatches(
      [&reader](absl::Span<const absl::string_view> keys, bool* results) {
        reader.MayMatch(keys, results);
      },
      set, first, count);
}

// The numbers i of the first `count` keys Key16(set, i) that reader matches,
// comma-separated: golden tests pin them, so that a change to the query shows
// even where the filter's bytes stay the same.
inline std::string FirstMatches(const FilterReader& reader, uint64_t set,
                                int count) {
  std::string indices;
  int found = 0;
  for (uint64_t i = 0; found < count; ++i) {
    if (reader.MayMatch(Key16(set, i))) {
      absl::StrAppend(&indices, found == 0 ? "" : ",", i);
      ++found;
    }
  }
  return indices;
}

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_TESTING_FILTER_TEST_UTIL_H_
