// sstfilter's native filter inside a real RocksDB 7.8.3 database, through
// AsRocksDbFilterPolicy: 200,000 keys written, flushed, compacted into one
// level and reopened; every key read back with Get and MultiGet; 100,000
// absent keys counted against the statistics RocksDB keeps of its filters and
// data-block reads; the database reopened with RocksDB's own Bloom filter
// policy and back; and filter blocks damaged on disk.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/adapters/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table_properties.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/table_filter.h"
#include "tests/integration/rocksdb_db_util.h"
#include "tests/testing/real_tables.h"

namespace sstfilter {
namespace {

constexpr size_t kPresentKeys = 200000;
constexpr size_t kAbsentKeys = 100000;
constexpr size_t kValueBytes = 24;
// Small tables, so that the database has several (about 8 MB of entries).
constexpr uint64_t kTableBytes = 2 << 20;
constexpr double kFpp = 0.01;
constexpr size_t kMultiGetKeys = 100;  // RocksDB splits it into batches of 32
constexpr char kNativeFullFilterKey[] = "fullfilter.sstfilter.LocalBloom1";

std::shared_ptr<const FilterPolicy> NativePolicy() {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(FilterOptions::Fpp(kFpp));
  return policy.ok() ? std::shared_ptr<const FilterPolicy>(std::move(*policy))
                     : nullptr;
}

// One database, built once for every test: tests that damage it work on a
// copy.
struct SharedDb {
  test::TempDir dir;
  std::vector<test::Entry> entries;
  std::vector<std::string> absent;
  absl::Status built;
};

absl::Status Build(SharedDb* shared) {
  rocksdb::Options options =
      test::CountingOptions(AsRocksDbFilterPolicy(NativePolicy()));
  options.target_file_size_base = kTableBytes;
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db =
      test::OpenDb(options, shared->dir.path());
  if (!db.ok()) return db.status();
  absl::Status s = test::PutAll(db->get(), shared->entries);
  if (s.ok()) {
    s = test::FromRocksDb((*db)->Flush(rocksdb::FlushOptions()), "Flush");
  }
  if (s.ok()) {
    // Forced: a lone flushed table would otherwise move down unchanged, and
    // the test wants several tables, written by compaction.
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction =
        rocksdb::BottommostLevelCompaction::kForce;
    s = test::FromRocksDb((*db)->CompactRange(compact, nullptr, nullptr),
                          "CompactRange");
  }
  if (s.ok()) s = test::FromRocksDb((*db)->Close(), "Close");
  return s;
}

// What a run of absent-key lookups cost, from RocksDB's statistics.
struct AbsentRun {
  test::ReadTickers delta;
  size_t in_range = 0;    // lookups that reached a table
  size_t not_absent = 0;  // lookups that did not answer NotFound
};

class RocksDbDbTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_ = new SharedDb;
    shared_->entries = test::RandomEntries(kPresentKeys, kValueBytes, 501);
    shared_->absent = test::AbsentKeys(kAbsentKeys, 502, shared_->entries);
    shared_->built = Build(shared_);
  }
  static void TearDownTestSuite() {
    delete shared_;
    shared_ = nullptr;
  }

  void SetUp() override { ASSERT_TRUE(shared_->built.ok()) << shared_->built; }

  const std::vector<test::Entry>& entries() const { return shared_->entries; }
  const std::vector<std::string>& absent() const { return shared_->absent; }

  // Opens the database at path (the shared one by default) with policy.
  std::unique_ptr<rocksdb::DB> Open(
      std::shared_ptr<const rocksdb::FilterPolicy> policy,
      const std::string& path = "") {
    options_ = test::CountingOptions(std::move(policy));
    absl::StatusOr<std::unique_ptr<rocksdb::DB>> db =
        test::OpenDb(options_, path.empty() ? shared_->dir.path() : path);
    EXPECT_TRUE(db.ok()) << db.status();
    return db.ok() ? *std::move(db) : nullptr;
  }

  // Our native policy, its readers counting their calls in calls_.
  std::shared_ptr<const rocksdb::FilterPolicy> Ours() {
    calls_ = std::make_shared<test::MayMatchCalls>();
    return AsRocksDbFilterPolicy(test::CountingPolicy(NativePolicy(), calls_));
  }

  AbsentRun LookUpAbsent(rocksdb::DB* db, bool multi_get) const {
    AbsentRun run;
    run.in_range = test::KeysInTableRanges(db, absent());
    const test::ReadTickers before = test::Tickers(*options_.statistics);
    run.not_absent = multi_get
                         ? test::MultiGetAbsent(db, absent(), kMultiGetKeys)
                         : test::GetAbsent(db, absent());
    run.delta = test::Tickers(*options_.statistics) - before;
    return run;
  }

  static std::string Copy() {
    auto* copy = new test::TempDir;  // kept for the test, freed in TearDown
    copies_.emplace_back(copy);
    std::filesystem::copy(shared_->dir.path(), copy->path(),
                          std::filesystem::copy_options::recursive);
    return copy->path();
  }
  void TearDown() override { copies_.clear(); }

  static SharedDb* shared_;
  static std::vector<std::unique_ptr<test::TempDir>> copies_;
  rocksdb::Options options_;
  std::shared_ptr<test::MayMatchCalls> calls_;
};

SharedDb* RocksDbDbTest::shared_ = nullptr;
std::vector<std::unique_ptr<test::TempDir>> RocksDbDbTest::copies_;

// The highest false-positive rate any table's filter is expected to have, from
// its own size and key count, read by sstfilter's table reader.
double HighestExpectedFpp(const std::string& dir) {
  double highest = 0;
  for (const std::string& path : test::TableFiles(dir)) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    EXPECT_TRUE(table.ok()) << table.status();
    if (!table.ok() || (*table)->policy() == nullptr) return 1;
    highest =
        std::max(highest, (*table)
                              ->policy()
                              ->NewReader((*table)->filter_block_contents())
                              ->ExpectedFpp());
  }
  return highest;
}

void ExpectEveryKeyFound(const test::GetOutcomes& got, size_t n,
                         const char* how) {
  EXPECT_EQ(got.found, n) << how << ": " << got.first_failure;
  EXPECT_EQ(got.not_found, 0u) << how;
  EXPECT_EQ(got.corruption, 0u) << how;
  EXPECT_EQ(got.wrong, 0u) << how;
}

// Get consults each key's table filter with MayMatch(key), MultiGet with the
// batched MayMatch; neither filter ever says no to a present key.
TEST_F(RocksDbDbTest, EveryKeyReadsBackThroughGetAndMultiGet) {
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  const test::ReadTickers start = test::Tickers(*options_.statistics);

  ExpectEveryKeyFound(test::GetAll(db.get(), entries()), entries().size(),
                      "Get");
  // One table per key (the tables of one level do not overlap).
  EXPECT_EQ(calls_->single.load(), entries().size());
  EXPECT_EQ(calls_->batches.load(), 0u);

  ExpectEveryKeyFound(test::MultiGetAll(db.get(), entries(), kMultiGetKeys),
                      entries().size(), "MultiGet");
  EXPECT_EQ(calls_->single.load(), entries().size()) << "MultiGet asked singly";
  EXPECT_EQ(calls_->batched_keys.load(), entries().size());
  // At most 32 keys a call (RocksDB's batch), at least one call a batch.
  EXPECT_GE(calls_->batches.load(), entries().size() / 32);
  EXPECT_LE(calls_->batches.load(), entries().size());

  EXPECT_EQ((test::Tickers(*options_.statistics) - start).filter_useful, 0u)
      << "a filter said no to a present key";
}

// The metaindex of every table holds the native filter under
// "fullfilter.sstfilter.LocalBloom1" (read with sstfilter's table reader),
// and RocksDB's table properties agree.
TEST_F(RocksDbDbTest, TablesHoldTheNativeFullFilter) {
  const std::vector<std::string> tables = test::TableFiles(shared_->dir.path());
  ASSERT_GE(tables.size(), 3u) << "expected several tables";
  for (const std::string& path : tables) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    ASSERT_TRUE(table.ok()) << table.status();
    const TableFilterInfo& info = (*table)->info();
    EXPECT_EQ(info.footer.format, TableFormat::kRocksDb) << path;
    ASSERT_TRUE(info.filter.has_value()) << path;
    EXPECT_EQ(info.filter->layout, FilterLayout::kFull) << path;
    EXPECT_EQ(absl::StrCat(kFullFilterPrefix, info.filter->policy_name),
              kNativeFullFilterKey)
        << path;
    EXPECT_TRUE((*table)->corruption().ok()) << (*table)->corruption();
    ASSERT_TRUE(info.properties.has_value() &&
                info.properties->filter_policy.has_value())
        << path;
    EXPECT_EQ(*info.properties->filter_policy, "sstfilter.LocalBloom1");
  }

  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  rocksdb::TablePropertiesCollection properties;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&properties).ok());
  ASSERT_EQ(properties.size(), tables.size());
  uint64_t filter_entries = 0;
  uint64_t filter_bytes = 0;
  for (const auto& [path, table] : properties) {
    EXPECT_EQ(table->filter_policy_name, "sstfilter.LocalBloom1") << path;
    EXPECT_GT(table->filter_size, 0u) << path;
    EXPECT_EQ(table->num_filter_entries, table->num_entries) << path;
    filter_entries += table->num_filter_entries;
    filter_bytes += table->filter_size;
  }
  EXPECT_EQ(filter_entries, entries().size());
  const double bits_per_key = 8.0 * filter_bytes / filter_entries;
  std::printf("%zu tables, filters %.3f bits/key\n", tables.size(),
              bits_per_key);
  // Fpp(0.01) costs the native filter 9.92 bits/key, plus each table's
  // trailer.
  EXPECT_GT(bits_per_key, 9.9);
  EXPECT_LT(bits_per_key, 9.95);
}

// A lookup for an absent key reaches one table (if any: the key may fall
// outside every table's range); there the filter says no, or one data block
// is read. Both are counted by RocksDB.
TEST_F(RocksDbDbTest, AbsentKeysSkipDataBlocks) {
  const double fpp = HighestExpectedFpp(shared_->dir.path());
  ASSERT_LE(fpp, kFpp);
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  const double floor = (1 - 2 * fpp) * absent().size();
  for (bool multi_get : {false, true}) {
    const char* how = multi_get ? "MultiGet" : "Get";
    const AbsentRun run = LookUpAbsent(db.get(), multi_get);
    std::printf(
        "%s, %zu absent keys (%zu within a table's range): "
        "BLOOM_FILTER_USEFUL %llu (floor %.0f at expected fpp %.4f%%), "
        "data blocks read %llu\n",
        how, absent().size(), run.in_range,
        static_cast<unsigned long long>(run.delta.filter_useful), floor,
        100 * fpp, static_cast<unsigned long long>(run.delta.data_misses));
    RecordProperty(absl::StrCat(how, "_bloom_filter_useful"),
                   absl::StrCat(run.delta.filter_useful));
    RecordProperty(absl::StrCat(how, "_data_block_reads"),
                   absl::StrCat(run.delta.data_misses));
    EXPECT_EQ(run.not_absent, 0u) << how;
    EXPECT_GE(static_cast<double>(run.delta.filter_useful), floor) << how;
    EXPECT_EQ(run.delta.data_hits, 0u) << how << ": the cache holds nothing";
    // Every lookup that reached a table was stopped by its filter or read a
    // data block, never both, never more. (With MultiGet, two absent keys of
    // one batch of 32 that pass the filter could share a data block read:
    // less than 0.1 such pairs expected among these keys, and none occurs.)
    EXPECT_EQ(run.delta.filter_useful + run.delta.data_misses, run.in_range)
        << how;
  }
}

// RocksDB's own policy looks for "fullfilter.rocksdb.BuiltinBloomFilter" and
// finds nothing it reads: the tables are read without filters, each absent
// key in range costs a data block, and every key is still found. Back with
// the native policy, the filters work again.
TEST_F(RocksDbDbTest, RocksDbsOwnPolicyIgnoresOurFilters) {
  {
    std::unique_ptr<rocksdb::DB> db =
        Open(std::shared_ptr<const rocksdb::FilterPolicy>(
            rocksdb::NewBloomFilterPolicy(10)));
    ASSERT_NE(db, nullptr);
    ExpectEveryKeyFound(test::GetAll(db.get(), entries()), entries().size(),
                        "Get with RocksDB's policy");
    const AbsentRun run = LookUpAbsent(db.get(), /*multi_get=*/false);
    std::printf(
        "RocksDB's policy, %zu absent keys in range: "
        "BLOOM_FILTER_USEFUL %llu, data blocks read %llu\n",
        run.in_range, static_cast<unsigned long long>(run.delta.filter_useful),
        static_cast<unsigned long long>(run.delta.data_misses));
    EXPECT_EQ(run.not_absent, 0u);
    EXPECT_EQ(run.delta.filter_useful, 0u);
    EXPECT_EQ(run.delta.data_misses, run.in_range);
  }
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  const AbsentRun run = LookUpAbsent(db.get(), /*multi_get=*/false);
  EXPECT_GE(static_cast<double>(run.delta.filter_useful),
            (1 - 2 * kFpp) * absent().size());
  EXPECT_EQ(run.delta.filter_useful + run.delta.data_misses, run.in_range);
}

// Applies damage to the filter block of every table in dir; returns the
// number of tables damaged.
template <typename Damage>
size_t DamageFilterBlocks(const std::string& dir, Damage damage) {
  size_t damaged = 0;
  for (const std::string& path : test::TableFiles(dir)) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    EXPECT_TRUE(table.ok()) << table.status();
    if (!table.ok() || !(*table)->info().filter.has_value()) continue;
    absl::StatusOr<std::string> bytes = test::ReadFileBytes(path);
    EXPECT_TRUE(bytes.ok()) << bytes.status();
    if (!bytes.ok()) continue;
    damage((*table)->info(), &*bytes);
    EXPECT_TRUE(test::WriteFileBytes(path, *bytes).ok());
    ++damaged;
  }
  return damaged;
}

// A bit flipped inside each table's filter block: the block checksum catches
// it, and RocksDB reads the tables without their filters. No key is lost.
TEST_F(RocksDbDbTest, CorruptFilterBlockNeverLosesAKey) {
  const std::string dir = Copy();
  const size_t damaged = DamageFilterBlocks(
      dir, [](const TableFilterInfo& info, std::string* bytes) {
        const BlockHandle& block = info.filter->handle;
        (*bytes)[block.offset + block.size / 2] ^= 0x10;
      });
  ASSERT_GE(damaged, 3u);
  for (const std::string& path : test::TableFiles(dir)) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_TRUE(absl::IsDataLoss((*table)->corruption())) << path;
  }

  std::unique_ptr<rocksdb::DB> db = Open(Ours(), dir);
  ASSERT_NE(db, nullptr);
  const test::GetOutcomes got = test::GetAll(db.get(), entries());
  std::printf(
      "corrupt filter blocks: %zu found, %zu corruption, %zu not found\n",
      got.found, got.corruption, got.not_found);
  // The promise: never NotFound for a present key, never a wrong value.
  EXPECT_EQ(got.not_found, 0u) << got.first_failure;
  EXPECT_EQ(got.wrong, 0u) << got.first_failure;
  EXPECT_EQ(got.found + got.corruption, entries().size());
  // How RocksDB 7.8.3 keeps it (rocksdb_adapter.h): it drops a filter block
  // whose checksum fails, silently, and reads the table without it.
  EXPECT_EQ(got.found, entries().size());
  EXPECT_EQ(calls_->single.load(), 0u) << "a corrupt filter was consulted";
  const AbsentRun run = LookUpAbsent(db.get(), /*multi_get=*/false);
  EXPECT_EQ(run.delta.filter_useful, 0u);
  EXPECT_EQ(run.delta.data_misses, run.in_range);
  // Asked to, RocksDB does report the damage.
  EXPECT_TRUE(db->VerifyChecksum().IsCorruption());
}

// Damage the checksum cannot see: each filter's format marker changed and the
// block's checksum recomputed. RocksDB hands the bytes to sstfilter's reader,
// which reads an unknown format as "may match": no key is lost, no lookup is
// saved.
TEST_F(RocksDbDbTest, UnknownFilterFormatMatchesEverything) {
  const std::string dir = Copy();
  const size_t damaged = DamageFilterBlocks(
      dir, [](const TableFilterInfo& info, std::string* bytes) {
        const BlockHandle& block = info.filter->handle;
        // The native trailer ends with the format marker, then k.
        (*bytes)[block.offset + block.size - 2] ^= 0x01;
        std::string contents = bytes->substr(block.offset, block.size);
        AppendBlockTrailer(CompressionType::kNone,
                           static_cast<ChecksumType>(info.footer.checksum_type),
                           &contents);
        bytes->replace(block.offset, contents.size(), contents);
      });
  ASSERT_GE(damaged, 3u);
  for (const std::string& path : test::TableFiles(dir)) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_TRUE((*table)->corruption().ok()) << "checksum not recomputed";
    EXPECT_TRUE((*table)->KeyMayMatch(absent().front())) << path;
  }

  std::unique_ptr<rocksdb::DB> db = Open(Ours(), dir);
  ASSERT_NE(db, nullptr);
  ExpectEveryKeyFound(test::GetAll(db.get(), entries()), entries().size(),
                      "Get");
  EXPECT_EQ(calls_->single.load(), entries().size()) << "filters not consulted";
  const AbsentRun run = LookUpAbsent(db.get(), /*multi_get=*/false);
  EXPECT_EQ(run.delta.filter_useful, 0u);
  EXPECT_EQ(run.delta.data_misses, run.in_range);
  EXPECT_TRUE(db->VerifyChecksum().ok());
}

}  // namespace
}  // namespace sstfilter
