#include "tests/integration/leveldb_db_reads.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/iterator.h"
#include "table/filter_block.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "tests/testing/counting_leveldb_env.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {
namespace {

constexpr size_t kNumKeys = 200'000;
constexpr size_t kNumAbsentKeys = 100'000;
constexpr size_t kPresentStride = 2;  // written keys per present lookup
constexpr uint64_t kKeySeed = 0x1e7e1db;
constexpr uint64_t kAbsentSeed = 0xab5e47;
// LevelDB's default, set here because the counts depend on it: a table cache
// of 990 tables (LevelDB keeps 10 descriptors for other files), so no table
// is closed and reopened while counting.
constexpr int kMaxOpenFiles = 1000;
constexpr size_t kMaxTables = 900;

DbKeys MakeKeys() {
  DbKeys keys;
  keys.sorted = SortedHexKeys(kNumKeys, kKeySeed);
  for (std::string& key : SortedHexKeys(kNumAbsentKeys, kAbsentSeed)) {
    if (!std::binary_search(keys.sorted.begin(), keys.sorted.end(), key)) {
      keys.absent.push_back(std::move(key));
    }
  }
  // Written in random order, as a store sees them, so that compactions merge
  // overlapping tables rather than move sorted runs.
  keys.written = keys.sorted;
  Random rng(kKeySeed);
  for (size_t i = keys.written.size(); i > 1; --i) {
    std::swap(keys.written[i - 1], keys.written[rng.Uniform(i)]);
  }
  for (size_t i = 0; i < keys.written.size(); i += kPresentStride) {
    keys.present.push_back(keys.written[i]);
  }
  return keys;
}

absl::Status CheckGet(leveldb::DB& db, const std::string& key) {
  std::string value;
  const leveldb::Status s = db.Get(leveldb::ReadOptions(), key, &value);
  if (!s.ok()) return FromLevelDb(s, absl::StrCat("Get(", key, ")"));
  if (value != ValueOf(key)) {
    return absl::DataLossError(absl::StrCat("Get(", key, ") returned ", value));
  }
  return absl::OkStatus();
}

absl::Status CheckScan(leveldb::DB& db) {
  const std::vector<std::string>& sorted = TestDbKeys().sorted;
  const std::unique_ptr<leveldb::Iterator> it(
      db.NewIterator(leveldb::ReadOptions()));
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    if (i == sorted.size() || it->key().ToString() != sorted[i] ||
        it->value().ToString() != ValueOf(sorted[i])) {
      return absl::DataLossError(
          absl::StrCat("scan: entry ", i, " is ", it->key().ToString(), " -> ",
                       it->value().ToString(), ", expected ",
                       i < sorted.size() ? sorted[i] : "the end"));
    }
  }
  if (i != sorted.size()) {
    return absl::DataLossError(
        absl::StrCat("scan: ", i, " entries of ", sorted.size()));
  }
  return FromLevelDb(it->status(), "scan");
}

}  // namespace

const DbKeys& TestDbKeys() {
  static const DbKeys* const keys = new DbKeys(MakeKeys());
  return *keys;
}

absl::StatusOr<std::vector<std::string>> WriteTestDatabase(
    const std::string& dir, const leveldb::FilterPolicy* policy) {
  absl::StatusOr<std::vector<std::string>> tables =
      WriteLevelDbDatabase(dir, TestDbKeys().written, policy);
  if (tables.ok() && (tables->empty() || tables->size() > kMaxTables)) {
    return absl::InternalError(
        absl::StrCat(tables->size(), " tables: expected 1 to ", kMaxTables,
                     " (raise kMaxOpenFiles)"));
  }
  return tables;
}

absl::StatusOr<double> FiltersExpectedFpp(
    const std::vector<std::string>& tables, const std::string& filter_name) {
  double weighted = 0;
  double bytes = 0;
  for (const std::string& path : tables) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, TableFilterOptions());
    if (!table.ok()) return table.status();
    const TableFilterInfo& info = (*table)->info();
    if (!info.filter.has_value() || info.filter->policy_name != filter_name ||
        (*table)->filter_block() == nullptr) {
      return absl::NotFoundError(
          absl::StrCat(path, " has no readable filter named ", filter_name));
    }
    weighted += (*table)->filter_block()->ExpectedFpp() *
                static_cast<double>(info.filter_block_bytes);
    bytes += static_cast<double>(info.filter_block_bytes);
  }
  if (bytes == 0) return absl::NotFoundError("no filter bytes");
  return weighted / bytes;
}

absl::StatusOr<ReadCounts> CountReads(
    const std::string& dir, const leveldb::FilterPolicy* read_policy) {
  CountingLevelDbEnv env;
  // Capacity 0 caches nothing: every data block a lookup needs is read.
  const std::unique_ptr<leveldb::Cache> no_block_cache(leveldb::NewLRUCache(0));
  leveldb::Options options;
  options.env = &env;
  options.block_cache = no_block_cache.get();
  options.filter_policy = read_policy;
  options.max_open_files = kMaxOpenFiles;
  absl::StatusOr<std::unique_ptr<leveldb::DB>> opened =
      OpenLevelDb(options, dir);
  if (!opened.ok()) return opened.status();
  const std::unique_ptr<leveldb::DB> db = *std::move(opened);  // before env
  absl::Status status = CheckScan(*db);
  if (!status.ok()) return status;

  ReadCounts counts;
  env.ResetTableReads();
  std::string value;
  for (const std::string& key : TestDbKeys().absent) {
    const leveldb::Status s = db->Get(leveldb::ReadOptions(), key, &value);
    if (!s.IsNotFound()) {
      return absl::InternalError(
          absl::StrCat("absent key ", key, ": ", s.ToString()));
    }
  }
  counts.absent = env.table_reads();
  env.ResetTableReads();
  for (const std::string& key : TestDbKeys().present) {
    status = CheckGet(*db, key);
    if (!status.ok()) return status;
  }
  counts.present = env.table_reads();
  return counts;
}

}  // namespace test
}  // namespace sstfilter
