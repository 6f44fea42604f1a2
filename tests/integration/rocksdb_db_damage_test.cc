// Filter blocks damaged on disk in the database of rocksdb_db_fixture.h:
// damage its checksum catches, and damage it cannot see. Neither ever makes
// a present key NotFound.

#include <cstdio>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "tests/integration/rocksdb_db_fixture.h"
#include "tests/integration/rocksdb_db_util.h"

namespace sstfilter {
namespace test {
namespace {

// Applies damage to the filter block of every table in dir; returns the
// number of tables damaged.
template <typename Damage>
size_t DamageFilterBlocks(const std::string& dir, Damage damage) {
  size_t damaged = 0;
  for (const std::string& path : TableFiles(dir)) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    EXPECT_TRUE(table.ok()) << table.status();
    if (!table.ok() || !(*table)->info().filter.has_value()) continue;
    absl::StatusOr<std::string> bytes = ReadFileBytes(path);
    EXPECT_TRUE(bytes.ok()) << bytes.status();
    if (!bytes.ok()) continue;
    damage((*table)->info(), &*bytes);
    EXPECT_TRUE(WriteFileBytes(path, *bytes).ok());
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
  for (const std::string& path : TableFiles(dir)) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_TRUE(absl::IsDataLoss((*table)->corruption())) << path;
  }

  std::unique_ptr<rocksdb::DB> db = Open(Ours(), dir);
  ASSERT_NE(db, nullptr);
  const GetOutcomes got = GetAll(db.get(), entries());
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
// The same damage, with the block checksum recomputed over it: the filter's
// own CRC32C (format version 2) catches it, and every key may match.
TEST_F(RocksDbDbTest, DamageUnderAValidBlockChecksumMatchesEverything) {
  const std::string dir = Copy();
  const size_t damaged = DamageFilterBlocks(
      dir, [](const TableFilterInfo& info, std::string* bytes) {
        const BlockHandle& block = info.filter->handle;
        // The checked trailer ends with its marker, then k.
        (*bytes)[block.offset + block.size - 2] ^= 0x01;
        std::string contents = bytes->substr(block.offset, block.size);
        AppendBlockTrailer(CompressionType::kNone,
                           static_cast<ChecksumType>(info.footer.checksum_type),
                           &contents, ContextOf(info.footer, block));
        bytes->replace(block.offset, contents.size(), contents);
      });
  ASSERT_GE(damaged, 3u);
  for (const std::string& path : TableFiles(dir)) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, {});
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_TRUE(absl::IsDataLoss((*table)->corruption())) << path;
    EXPECT_TRUE((*table)->KeyMayMatch(absent().front())) << path;
  }

  std::unique_ptr<rocksdb::DB> db = Open(Ours(), dir);
  ASSERT_NE(db, nullptr);
  ExpectEveryKeyFound(GetAll(db.get(), entries()), entries().size(), "Get");
  EXPECT_EQ(calls_->single.load(), entries().size()) << "filters not consulted";
  const AbsentRun run = LookUpAbsent(db.get(), /*multi_get=*/false);
  EXPECT_EQ(run.delta.filter_useful, 0u);
  EXPECT_EQ(run.delta.data_misses, run.in_range);
  EXPECT_TRUE(db->VerifyChecksum().ok());
}

}  // namespace
}  // namespace test
}  // namespace sstfilter
