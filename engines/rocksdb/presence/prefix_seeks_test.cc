// Prefix seeks through PresenceFilteredDB (filter_prefix_seeks): each answer
// is compared with a RocksDB iterator of the base database (GetBaseDB) over
// the same state, and RocksDB's seek ticker tells which seeks the filter
// answered without entering RocksDB.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/presence_testing.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/statistics.h"
#include "table/testing/real_tables.h"

namespace sstfilter {
namespace {

using test::TempDir;

// Keys "p0000-000000".. under prefixes of 5 bytes: the even prefix numbers
// are present, the odd ones absent.
constexpr int kPrefixes = 400;
constexpr int kKeysPerPrefix = 5;
constexpr size_t kPrefixBytes = 5;

std::string Prefix(int number) { return absl::StrFormat("p%04d", number); }
std::string KeyOf(int prefix, int i) {
  return absl::StrFormat("%s-%06d", Prefix(prefix), i);
}

rocksdb::Options PrefixOptions(size_t prefix_bytes = kPrefixBytes) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  options.prefix_extractor.reset(
      rocksdb::NewFixedPrefixTransform(prefix_bytes));
  return options;
}

PresenceFilterOptions PrefixSeeks() {
  PresenceFilterOptions options = presence_testing::SmallFilter();
  options.filter_prefix_seeks = true;
  return options;
}

rocksdb::ReadOptions SameAsStart() {
  rocksdb::ReadOptions options;
  options.prefix_same_as_start = true;
  return options;
}

void WritePresentPrefixes(rocksdb::DB* db) {
  for (int p = 0; p < kPrefixes; p += 2) {
    for (int i = 0; i < kKeysPerPrefix; ++i) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), KeyOf(p, i), "v").ok());
    }
  }
}

// What an iterator yields from a Seek (or SeekForPrev) to target: every entry
// then reached, and its status.
std::string Yield(rocksdb::Iterator* iterator, const std::string& target,
                  bool for_prev) {
  std::string yielded;
  if (for_prev) {
    for (iterator->SeekForPrev(target); iterator->Valid(); iterator->Prev()) {
      absl::StrAppend(&yielded, iterator->key().ToString(), " ");
    }
  } else {
    for (iterator->Seek(target); iterator->Valid(); iterator->Next()) {
      absl::StrAppend(&yielded, iterator->key().ToString(), " ");
    }
  }
  return yielded + iterator->status().ToString();
}

std::string YieldThrough(rocksdb::DB* db, const rocksdb::ReadOptions& options,
                         const std::string& target, bool for_prev) {
  std::unique_ptr<rocksdb::Iterator> iterator(db->NewIterator(options));
  return Yield(iterator.get(), target, for_prev);
}

uint64_t SeeksInRocksDB(rocksdb::DB* db) {
  const std::shared_ptr<rocksdb::Statistics>& statistics =
      db->GetOptions().statistics;
  return statistics->getTickerCount(rocksdb::NUMBER_DB_SEEK) +
         statistics->getTickerCount(rocksdb::NUMBER_DB_PREV);
}

// Seeks (both directions) to a key under every prefix, present or absent,
// through the wrapper and through RocksDB alone; returns how many of the
// wrapper's seeks entered RocksDB, and fails the test on any difference.
int CompareEveryPrefix(PresenceFilteredDB* db,
                       const rocksdb::ReadOptions& options) {
  int entered = 0;
  for (int p = 0; p < kPrefixes; ++p) {
    for (bool for_prev : {false, true}) {
      const std::string target = KeyOf(p, for_prev ? 999999 : 2);
      const uint64_t before = SeeksInRocksDB(db);
      const std::string wrapper = YieldThrough(db, options, target, for_prev);
      entered += SeeksInRocksDB(db) != before;
      EXPECT_EQ(wrapper,
                YieldThrough(db->GetBaseDB(), options, target, for_prev))
          << "seek to " << target << (for_prev ? " for prev" : "");
    }
  }
  return entered;
}

TEST(PrefixSeeksTest, AnAbsentPrefixIsAnsweredWithoutRocksDB) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), PrefixOptions(), PrefixSeeks());
  ASSERT_NE(db, nullptr);
  WritePresentPrefixes(db.get());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  for (int p = 1; p < kPrefixes; p += 4) {  // some in the memtable too
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), KeyOf(p, 0), "v").ok());
    ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), KeyOf(p, 0)).ok());
  }
  const int entered = CompareEveryPrefix(db.get(), SameAsStart());
  // Every present prefix's seeks, a deleted key's, and about 1% of the rest.
  const int present = kPrefixes + kPrefixes / 2;
  EXPECT_GE(entered, present);
  EXPECT_LT(entered, present + kPrefixes / 10);
}

// A bound that keeps a seek inside its target's prefix (the prefix's
// successor above, the prefix itself below) lets the filter answer it; a
// wider one does not.
int CompareBoundedSeeks(PresenceFilteredDB* db, int prefixes_wide) {
  int entered = 0;
  for (int p = 0; p < kPrefixes; ++p) {
    std::string upper = Prefix(p);
    upper.back() = static_cast<char>(upper.back() + prefixes_wide);
    const std::string lower = Prefix(p - prefixes_wide + 1);
    rocksdb::Slice upper_slice(upper), lower_slice(lower);
    rocksdb::ReadOptions options;
    options.iterate_upper_bound = &upper_slice;
    options.iterate_lower_bound = &lower_slice;
    for (bool for_prev : {false, true}) {
      const std::string target = KeyOf(p, for_prev ? 999999 : 2);
      const uint64_t before = SeeksInRocksDB(db);
      const std::string wrapper = YieldThrough(db, options, target, for_prev);
      entered += SeeksInRocksDB(db) != before;
      EXPECT_EQ(wrapper,
                YieldThrough(db->GetBaseDB(), options, target, for_prev))
          << "seek to " << target << " within [" << lower << ", " << upper
          << ")" << (for_prev ? " for prev" : "");
    }
  }
  return entered;
}

TEST(PrefixSeeksTest, ASeekBoundedInsideAnAbsentPrefixIsAnswered) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), PrefixOptions(), PrefixSeeks());
  ASSERT_NE(db, nullptr);
  WritePresentPrefixes(db.get());
  const int entered = CompareBoundedSeeks(db.get(), /*prefixes_wide=*/1);
  EXPECT_GE(entered, kPrefixes);
  EXPECT_LT(entered, kPrefixes + kPrefixes / 10);
  // Bounds two prefixes wide can hold a present key's prefix.
  EXPECT_EQ(CompareBoundedSeeks(db.get(), /*prefixes_wide=*/2), 2 * kPrefixes);
}

TEST(PrefixSeeksTest, SeeksWithoutPrefixSameAsStartGoToRocksDB) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), PrefixOptions(), PrefixSeeks());
  ASSERT_NE(db, nullptr);
  WritePresentPrefixes(db.get());
  rocksdb::ReadOptions total_order;
  total_order.total_order_seek = true;
  EXPECT_EQ(CompareEveryPrefix(db.get(), total_order), 2 * kPrefixes);
}

TEST(PrefixSeeksTest, WithoutTheOptionEverySeekGoesToRocksDB) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = presence_testing::OpenServing(
      dir.path(), PrefixOptions(), presence_testing::SmallFilter());
  ASSERT_NE(db, nullptr);
  WritePresentPrefixes(db.get());
  EXPECT_EQ(CompareEveryPrefix(db.get(), SameAsStart()), 2 * kPrefixes);
}

// The iterator reads at its creation, as RocksDB's does, though it enters
// RocksDB only later.
TEST(PrefixSeeksTest, AnIteratorSeesTheStateOfItsCreation) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), PrefixOptions(), PrefixSeeks());
  ASSERT_NE(db, nullptr);
  WritePresentPrefixes(db.get());
  std::unique_ptr<rocksdb::Iterator> wrapper(db->NewIterator(SameAsStart()));
  std::unique_ptr<rocksdb::Iterator> rocksdb(
      db->GetBaseDB()->NewIterator(SameAsStart()));
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), KeyOf(1, 0), "later").ok());
  ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), KeyOf(0, 0)).ok());
  for (const std::string& target : {KeyOf(1, 0), KeyOf(3, 0), KeyOf(0, 0)}) {
    EXPECT_EQ(Yield(wrapper.get(), target, false),
              Yield(rocksdb.get(), target, false))
        << target;
  }
  wrapper->SeekToFirst();
  rocksdb->SeekToFirst();
  ASSERT_TRUE(wrapper->Valid());
  EXPECT_EQ(wrapper->key().ToString(), rocksdb->key().ToString());
  // Refresh reads the latest state, as RocksDB's does.
  ASSERT_TRUE(wrapper->Refresh().ok());
  ASSERT_TRUE(rocksdb->Refresh().ok());
  EXPECT_EQ(Yield(wrapper.get(), KeyOf(1, 0), false),
            Yield(rocksdb.get(), KeyOf(1, 0), false));
}

uint64_t Snapshots(rocksdb::DB* db) {
  uint64_t snapshots = 0;
  EXPECT_TRUE(db->GetIntProperty("rocksdb.num-snapshots", &snapshots));
  return snapshots;
}

// Iterators created while no write lands share one snapshot; the first write
// after lets it go once its iterators are gone.
TEST(PrefixSeeksTest, IteratorsShareASnapshotUntilAWrite) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), PrefixOptions(), PrefixSeeks());
  ASSERT_NE(db, nullptr);
  WritePresentPrefixes(db.get());
  std::unique_ptr<rocksdb::Iterator> first(db->NewIterator(SameAsStart()));
  std::unique_ptr<rocksdb::Iterator> second(db->NewIterator(SameAsStart()));
  EXPECT_EQ(Snapshots(db.get()), 1u);
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), KeyOf(1, 0), "v").ok());
  std::unique_ptr<rocksdb::Iterator> third(db->NewIterator(SameAsStart()));
  EXPECT_EQ(Snapshots(db.get()), 2u);
  EXPECT_EQ(Yield(second.get(), KeyOf(1, 0), false), "OK");
  EXPECT_EQ(Yield(third.get(), KeyOf(1, 0), false), KeyOf(1, 0) + " OK");
  first.reset();
  second.reset();
  third.reset();
  EXPECT_EQ(Snapshots(db.get()), 1u);  // the latest, cached
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), KeyOf(3, 0), "v").ok());
  EXPECT_EQ(Snapshots(db.get()), 0u);
}

TEST(PrefixSeeksTest, IteratorsOfSeveralColumnFamiliesReadOneState) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), PrefixOptions(), PrefixSeeks());
  ASSERT_NE(db, nullptr);
  rocksdb::ColumnFamilyHandle* other = nullptr;
  ASSERT_TRUE(db->CreateColumnFamily(PrefixOptions(), "other", &other).ok());
  std::vector<rocksdb::Iterator*> iterators;
  ASSERT_TRUE(db->NewIterators(SameAsStart(),
                               {db->DefaultColumnFamily(), other}, &iterators)
                  .ok());
  ASSERT_EQ(iterators.size(), 2u);
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), other, KeyOf(0, 0), "v").ok());
  EXPECT_EQ(Yield(iterators[1], KeyOf(0, 0), false), "OK");
  for (rocksdb::Iterator* iterator : iterators) delete iterator;
  std::unique_ptr<rocksdb::Iterator> later(
      db->NewIterator(SameAsStart(), other));
  EXPECT_EQ(Yield(later.get(), KeyOf(0, 0), false), KeyOf(0, 0) + " OK");
  ASSERT_TRUE(db->DestroyColumnFamilyHandle(other).ok());
}

// A SetOptions that changes the extractor: RocksDB's seeks then use the new
// prefixes, which the filter does not hold until its rebuild.
TEST(PrefixSeeksTest, ChangingTheExtractorStopsAnswersUntilTheRebuild) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), PrefixOptions(), PrefixSeeks());
  ASSERT_NE(db, nullptr);
  WritePresentPrefixes(db.get());
  // Under 4-byte prefixes "p000x" shares "p000" with present keys.
  ASSERT_TRUE(
      db->SetOptions({{"prefix_extractor", "rocksdb.FixedPrefix.4"}}).ok());
  const std::string target = KeyOf(1, 0);
  EXPECT_EQ(YieldThrough(db.get(), SameAsStart(), target, false),
            YieldThrough(db->GetBaseDB(), SameAsStart(), target, false));
  ASSERT_TRUE(db->WaitUntilServing(presence_testing::kServingWait).ok());
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kPrefixExtractorChanged);
  // Answered again, under the new prefixes: "p1" + anything is absent.
  const uint64_t before = SeeksInRocksDB(db.get());
  int answered_empty = 0;
  for (int i = 0; i < 100; ++i) {
    const std::string absent = absl::StrFormat("q%03d", i);
    answered_empty +=
        YieldThrough(db.get(), SameAsStart(), absent, false) == "OK";
  }
  EXPECT_EQ(answered_empty, 100);
  EXPECT_LT(SeeksInRocksDB(db.get()) - before, 10u);
  CompareEveryPrefix(db.get(), SameAsStart());
}

TEST(PrefixSeeksTest,
     AReopenedFilterKeepsItsPrefixesOnlyUnderTheSameExtractor) {
  TempDir dir;
  {
    std::unique_ptr<PresenceFilteredDB> db = presence_testing::OpenServing(
        dir.path(), PrefixOptions(), PrefixSeeks());
    ASSERT_NE(db, nullptr);
    WritePresentPrefixes(db.get());
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  {
    std::unique_ptr<PresenceFilteredDB> db = presence_testing::OpenServing(
        dir.path(), PrefixOptions(), PrefixSeeks());
    ASSERT_NE(db, nullptr);
    EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
              PresenceRebuildReason::kNone);
    EXPECT_LT(CompareEveryPrefix(db.get(), SameAsStart()),
              kPrefixes + kPrefixes / 10);
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  std::unique_ptr<PresenceFilteredDB> db = presence_testing::OpenServing(
      dir.path(), PrefixOptions(/*prefix_bytes=*/4), PrefixSeeks());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kPrefixExtractorChanged);
  CompareEveryPrefix(db.get(), SameAsStart());
}

}  // namespace
}  // namespace sstfilter
