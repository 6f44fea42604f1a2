// sstfilter's native filter inside a real RocksDB 7.8.3 database, through
// AsRocksDbFilterPolicy (the database of rocksdb_db_fixture.h): every key read
// back with Get and MultiGet; the metaindex and the table properties; 100,000
// absent keys counted against the statistics RocksDB keeps of its filters and
// data-block reads; the database reopened with RocksDB's own Bloom filter
// policy and back.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table_properties.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/table_filter.h"
#include "tests/integration/rocksdb_db_fixture.h"
#include "tests/integration/rocksdb_db_util.h"

namespace sstfilter {
namespace test {
namespace {

constexpr char kNativeFullFilterKey[] = "fullfilter.sstfilter.LocalBloom2";
// The native trailer (at most 13 bytes) and the body's rounding to a byte.
constexpr double kOverheadBitsPerTable = 8 * 14;

// The highest false-positive rate any table's filter in dir is expected to
// have.
double HighestExpectedFpp(const std::string& dir) {
  double highest = 0;
  for (const std::string& table : TableFiles(dir)) {
    absl::StatusOr<double> fpp = TableExpectedFpp(table);
    EXPECT_TRUE(fpp.ok()) << fpp.status();
    highest = std::max(highest, fpp.ok() ? *fpp : 1.0);
  }
  return highest;
}

// Get consults each key's table filter with MayMatch(key), MultiGet with the
// batched MayMatch; neither filter ever says no to a present key.
TEST_F(RocksDbDbTest, EveryKeyReadsBackThroughGetAndMultiGet) {
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  const ReadTickers start = Tickers(*options_.statistics);

  ExpectEveryKeyFound(GetAll(db.get(), entries()), entries().size(), "Get");
  // One table per key (the tables of one level do not overlap).
  EXPECT_EQ(calls_->single.load(), entries().size());
  EXPECT_EQ(calls_->batches.load(), 0u);

  ExpectEveryKeyFound(MultiGetAll(db.get(), entries(), kMultiGetKeys),
                      entries().size(), "MultiGet");
  EXPECT_EQ(calls_->single.load(), entries().size()) << "MultiGet asked singly";
  EXPECT_EQ(calls_->batched_keys.load(), entries().size());
  // At most 32 keys a call (RocksDB's batch), at least one call a batch.
  EXPECT_GE(calls_->batches.load(), entries().size() / 32);
  EXPECT_LE(calls_->batches.load(), entries().size());

  EXPECT_EQ((Tickers(*options_.statistics) - start).filter_useful, 0u)
      << "a filter said no to a present key";
}

// A read-only policy found by the format's name reads the filters the native
// policy wrote: RocksDB's filter rules out absent keys, and every present key
// is found.
TEST_F(RocksDbDbTest, ReadOnlyPolicyReadsTheFormatsFilters) {
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> read_only =
      NewRocksDbReadOnlyFilterPolicy("sstfilter.LocalBloom2");
  ASSERT_TRUE(read_only.ok()) << read_only.status();
  std::unique_ptr<rocksdb::DB> db = Open(*read_only);
  ASSERT_NE(db, nullptr);
  ExpectEveryKeyFound(GetAll(db.get(), entries()), entries().size(), "Get");
  const AbsentRun run = LookUpAbsent(db.get(), /*multi_get=*/false);
  EXPECT_EQ(run.not_absent, 0u);
  // At 1%, all but about 1% of the lookups that reach a table stop at its
  // filter.
  EXPECT_GE(run.delta.filter_useful, run.in_range * 97 / 100)
      << run.in_range << " lookups reached a table";

  EXPECT_EQ(NewRocksDbReadOnlyFilterPolicy("no.SuchFormat").status().code(),
            absl::StatusCode::kNotFound);
}

// The metaindex of every table holds the native filter under
// "fullfilter.sstfilter.LocalBloom2" (read with sstfilter's table reader),
// and RocksDB's table properties agree.
TEST_F(RocksDbDbTest, TablesHoldTheNativeFullFilter) {
  const std::vector<std::string> tables = TableFiles(path());
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
    EXPECT_EQ(*info.properties->filter_policy, "sstfilter.LocalBloom2");
  }

  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  rocksdb::TablePropertiesCollection properties;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&properties).ok());
  ASSERT_EQ(properties.size(), tables.size());
  uint64_t filter_entries = 0;
  uint64_t filter_bytes = 0;
  for (const auto& [path, table] : properties) {
    EXPECT_EQ(table->filter_policy_name, "sstfilter.LocalBloom2") << path;
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
  const double want = NativePolicy()->BitsPerKey();
  EXPECT_GE(bits_per_key, want);
  EXPECT_LE(bits_per_key,
            want + kOverheadBitsPerTable * tables.size() / filter_entries);
}

// A lookup for an absent key reaches one table (if any: the key may fall
// outside every table's range); there the filter says no, or one data block
// is read. Both are counted by RocksDB.
TEST_F(RocksDbDbTest, AbsentKeysSkipDataBlocks) {
  const double fpp = HighestExpectedFpp(path());
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
    ExpectEveryKeyFound(GetAll(db.get(), entries()), entries().size(),
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

}  // namespace
}  // namespace test
}  // namespace sstfilter
