// Helpers for tests of any filter: deterministic key sets, building a filter,
// counting matches, and sharing a reader between threads.

#ifndef SSTFILTER_FILTER_TESTING_FILTER_TEST_UTIL_H_
#define SSTFILTER_FILTER_TESTING_FILTER_TEST_UTIL_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_policy.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {

// options for format version 1 (no CRC32C): for tests of a family's own
// layout, which version 2 wraps unchanged (filter/format_version_2.md).
inline FilterOptions Version1(FilterOptions options) {
  options.self_checksum = false;
  return options;
}

// The version-1 filter inside a version-2 (checked) one, read as
// filter/format_version_2.md lays it out: the last six bytes are a CRC32C, the
// marker 0xC2 (0xC3 after one pad byte) and k. Other bytes are returned whole.
inline absl::string_view Version1Filter(absl::string_view filter) {
  if (filter.size() < 7) return filter;
  const uint8_t marker = static_cast<uint8_t>(filter[filter.size() - 2]);
  if (marker != 0xC2 && marker != 0xC3) return filter;
  return filter.substr(0, filter.size() - 6 - (marker == 0xC3 ? 1 : 0));
}

// The byte before the last of the version-1 filter: the family marker of
// sstfilter's own formats. 0 for fewer than two bytes.
inline uint8_t Version1Marker(absl::string_view filter) {
  const absl::string_view inner = Version1Filter(filter);
  return inner.size() < 2 ? 0 : static_cast<uint8_t>(inner[inner.size() - 2]);
}

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

// A spec ("hybrid:family=native") as a gtest name: each character that is not
// a letter or digit becomes '_'.
inline std::string TestNameOf(absl::string_view spec) {
  std::string name(spec);
  for (char& c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
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

// The number of answers that differ from a lone thread's when `threads`
// threads share one reader of filter at once. Each thread asks every query
// singly, through policy.KeyMayMatch and in batches of 64, then ExpectedFpp,
// starting at its own offset so that the threads touch the same bytes at
// different times. Readers are immutable (filter_format.h), so the count is 0;
// under ThreadSanitizer a data race fails the test even where the answers
// agree.
inline uint64_t SharedReaderMismatches(const FilterPolicy& policy,
                                       absl::string_view filter,
                                       const std::vector<std::string>& queries,
                                       int threads) {
  const std::unique_ptr<FilterReader> reader = policy.NewReader(filter);
  const size_t n = queries.size();
  std::vector<char> lone(n);
  for (size_t i = 0; i < n; ++i) lone[i] = reader->MayMatch(queries[i]);
  const double lone_fpp = reader->ExpectedFpp();

  std::atomic<uint64_t> mismatches{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      constexpr size_t kBatch = 64;
      std::vector<absl::string_view> batch;
      std::vector<size_t> batch_index;
      bool results[kBatch];
      uint64_t mine = 0;
      for (size_t j = 0; j < n; ++j) {
        const size_t i = (j + static_cast<size_t>(t) * n / threads) % n;
        const bool want = lone[i];
        mine += reader->MayMatch(queries[i]) != want;
        mine += policy.KeyMayMatch(queries[i], filter) != want;
        batch.push_back(queries[i]);
        batch_index.push_back(i);
        if (batch.size() == kBatch || j + 1 == n) {
          reader->MayMatch(batch, results);
          for (size_t b = 0; b < batch.size(); ++b) {
            mine += results[b] != static_cast<bool>(lone[batch_index[b]]);
          }
          batch.clear();
          batch_index.clear();
        }
      }
      mine += reader->ExpectedFpp() != lone_fpp;
      mismatches.fetch_add(mine);
    });
  }
  for (std::thread& thread : pool) thread.join();
  return mismatches.load();
}

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_TESTING_FILTER_TEST_UTIL_H_
