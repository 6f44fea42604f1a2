#include "tests/integration/rocksdb_prefix_keys.h"

#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {

PrefixedKeys MakePrefixedKeys(size_t num_prefixes, size_t mean_keys_per_prefix,
                              size_t num_absent, uint64_t seed) {
  Random rng(seed);
  std::set<std::string> prefixes;
  while (prefixes.size() < num_prefixes) {
    prefixes.insert(rng.Bytes(kPrefixBytes));
  }
  PrefixedKeys keys;
  keys.prefixes.assign(prefixes.begin(), prefixes.end());

  // Sorted prefixes, each with its sorted suffixes: the entries come out in
  // key order.
  std::vector<std::set<std::string>> suffixes(num_prefixes);
  for (size_t i = 0; i < num_prefixes; ++i) {
    const uint64_t count = rng.Range(1, 2 * mean_keys_per_prefix - 1);
    while (suffixes[i].size() < count) {
      suffixes[i].insert(rng.Bytes(kSuffixBytes));
    }
    keys.first_entry.push_back(keys.entries.size());
    for (const std::string& suffix : suffixes[i]) {
      keys.entries.push_back({keys.prefixes[i] + suffix,
                              absl::StrCat("value", keys.entries.size())});
    }
  }
  keys.first_entry.push_back(keys.entries.size());

  std::set<std::string> absent;
  while (keys.absent_keys_of_present_prefixes.size() < num_absent) {
    const size_t i = rng.Uniform(num_prefixes);
    std::string suffix = rng.Bytes(kSuffixBytes);
    if (suffix >= *suffixes[i].rbegin() || suffixes[i].count(suffix) != 0) {
      continue;
    }
    std::string key = keys.prefixes[i] + suffix;
    if (absent.insert(key).second) {
      keys.absent_keys_of_present_prefixes.push_back(std::move(key));
    }
  }

  while (keys.absent_prefixes.size() < num_absent) {
    std::string prefix = rng.Bytes(kPrefixBytes);
    if (!prefixes.insert(prefix).second) continue;
    keys.keys_of_absent_prefixes.push_back(prefix + rng.Bytes(kSuffixBytes));
    keys.absent_prefixes.push_back(std::move(prefix));
  }
  return keys;
}

PrefixScans ScanEveryPrefix(rocksdb::DB* db, const PrefixedKeys& keys) {
  PrefixScans scans;
  std::unique_ptr<rocksdb::Iterator> it(
      db->NewIterator(rocksdb::ReadOptions()));
  for (size_t i = 0; i < keys.prefixes.size(); ++i) {
    const rocksdb::Slice prefix(keys.prefixes[i]);
    const size_t first = keys.first_entry[i];
    const size_t end = keys.first_entry[i + 1];
    size_t next = first;
    bool exact = true;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      ++scans.keys;
      exact = exact && next < end && it->key() == keys.entries[next].key &&
              it->value() == keys.entries[next].value;
      ++next;
    }
    exact = exact && next == end && it->status().ok();
    if (exact) {
      ++scans.exact;
    } else if (scans.first_failure.empty()) {
      scans.first_failure =
          absl::StrCat("prefix ", i, ": ", next - first, " keys returned of ",
                       end - first, ", status ", it->status().ToString());
    }
  }
  return scans;
}

size_t SeekAbsentPrefixes(rocksdb::DB* db,
                          const std::vector<std::string>& prefixes) {
  size_t found = 0;
  for (const std::string& prefix : prefixes) {
    std::unique_ptr<rocksdb::Iterator> it(
        db->NewIterator(rocksdb::ReadOptions()));
    it->Seek(prefix);
    found +=
        !it->status().ok() || (it->Valid() && it->key().starts_with(prefix));
  }
  return found;
}

}  // namespace test
}  // namespace sstfilter
