#include "tests/crash/rocksdb_lookups.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "tests/integration/rocksdb_db_util.h"

namespace sstfilter {
namespace test {

absl::StatusOr<std::optional<std::string>> RocksDbGet(
    rocksdb::DB* db, const std::string& key,
    const rocksdb::Snapshot* snapshot) {
  rocksdb::ReadOptions options;
  options.snapshot = snapshot;
  std::string value;
  rocksdb::Status s = db->Get(options, key, &value);
  if (s.IsNotFound()) return std::nullopt;
  if (!s.ok()) return FromRocksDb(s, absl::StrCat("Get ", key));
  return value;
}

absl::StatusOr<std::optional<std::string>> RocksDbSeek(rocksdb::DB* db,
                                                       const std::string& key,
                                                       bool backward) {
  const std::string just_above = key + std::string(1, '\0');
  rocksdb::Slice lower(key), upper(just_above);
  rocksdb::ReadOptions options;
  options.iterate_lower_bound = &lower;
  options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> iterator(db->NewIterator(options));
  if (backward) {
    iterator->SeekForPrev(key);
  } else {
    iterator->Seek(key);
  }
  if (!iterator->status().ok()) {
    return FromRocksDb(iterator->status(), absl::StrCat("Seek ", key));
  }
  if (!iterator->Valid()) return std::nullopt;
  if (iterator->key() != key) {
    return absl::InternalError(absl::StrCat("a seek within [", key, ", ", key,
                                            "\\0) found ",
                                            iterator->key().ToString()));
  }
  return iterator->value().ToString();
}

absl::StatusOr<std::vector<std::optional<std::string>>> RocksDbMultiGet(
    rocksdb::DB* db, const std::vector<std::string>& keys) {
  std::vector<std::optional<std::string>> found;
  for (size_t first = 0; first < keys.size(); first += kMultiGetBatch) {
    const size_t n = std::min(kMultiGetBatch, keys.size() - first);
    std::vector<rocksdb::Slice> slices(keys.begin() + first,
                                       keys.begin() + first + n);
    std::vector<rocksdb::PinnableSlice> values(n);
    std::vector<rocksdb::Status> statuses(n);
    db->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(), n,
                 slices.data(), values.data(), statuses.data());
    for (size_t i = 0; i < n; ++i) {
      if (statuses[i].IsNotFound()) {
        found.push_back(std::nullopt);
      } else if (statuses[i].ok()) {
        found.push_back(values[i].ToString());
      } else {
        return FromRocksDb(statuses[i],
                           absl::StrCat("MultiGet ", keys[first + i]));
      }
    }
  }
  return found;
}

}  // namespace test
}  // namespace sstfilter
