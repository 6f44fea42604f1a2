#include "tests/integration/rocksdb_prefix_keys.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"

namespace sstfilter {
namespace test {

PrefixedKeys MakePrefixedKeys(size_t num_prefixes, size_t mean_keys_per_prefix,
                              size_t num_absent, uint64_t seed) {
  GroupedKeysOptions options(GroupKeyStyle::kBinary, num_prefixes,
                             mean_keys_per_prefix, num_absent, seed);
  options.vary_group_sizes = true;
  options.absent_groups = num_absent;  // one absent key each
  GroupedKeys grouped = MakeGroupedKeys(options);
  PrefixedKeys keys;
  keys.entries.reserve(grouped.keys.size());
  for (std::string& key : grouped.keys) {
    keys.entries.push_back(
        {std::move(key), absl::StrCat("value", keys.entries.size())});
  }
  keys.prefixes = std::move(grouped.prefixes);
  keys.first_entry = std::move(grouped.first_key);
  keys.absent_keys_of_present_prefixes =
      std::move(grouped.absent_in_present_groups);
  keys.absent_prefixes = std::move(grouped.absent_prefixes);
  keys.keys_of_absent_prefixes = std::move(grouped.absent_in_absent_groups);
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
