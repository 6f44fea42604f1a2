// Seeks under a bound through PresenceFilteredDB with filter_range_seeks:
// each answer compared with a RocksDB iterator of the base database
// (GetBaseDB) over the same state, on the key shapes of util/key_shapes.h,
// in memtables and tables, after deletes, and after reopening with and
// without a save; RocksDB's seek ticker tells which seeks the filter
// answered without entering RocksDB.

#include <cctype>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/presence_testing.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "table/testing/real_tables.h"
#include "util/key_shapes.h"

namespace sstfilter {
namespace {

using key_shapes::KeyNumber;
using key_shapes::KeyShape;
using key_shapes::NumberDraws;
using test::TempDir;

constexpr int kKeys = 4000;
constexpr int kRanges = 1500;

rocksdb::Options BaseOptions() {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  return options;
}

PresenceFilterOptions RangeSeeks() {
  PresenceFilterOptions options = presence_testing::SmallFilter();
  options.filter_range_seeks = true;
  return options;
}

uint64_t SeeksInRocksDB(rocksdb::DB* db) {
  return db->GetOptions().statistics->getTickerCount(rocksdb::NUMBER_DB_SEEK);
}

// The keys a seek in [lo, hi) (forward) or [lo, hi] (backward, from hi)
// yields, and its status.
std::string Yield(rocksdb::DB* db, const std::string& lo, const std::string& hi,
                  bool backward) {
  rocksdb::ReadOptions options;
  const std::string upper = backward ? hi + std::string(1, '\0') : hi;
  rocksdb::Slice lower_slice(lo), upper_slice(upper);
  options.iterate_lower_bound = &lower_slice;
  options.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> iterator(db->NewIterator(options));
  std::string yielded;
  if (backward) {
    for (iterator->SeekForPrev(hi); iterator->Valid(); iterator->Prev()) {
      absl::StrAppend(&yielded, absl::CHexEscape(iterator->key().ToString()),
                      " ");
    }
  } else {
    for (iterator->Seek(lo); iterator->Valid(); iterator->Next()) {
      absl::StrAppend(&yielded, absl::CHexEscape(iterator->key().ToString()),
                      " ");
    }
  }
  return yielded + iterator->status().ToString();
}

struct Outcome {
  int empty = 0;          // ranges RocksDB found empty, no deleted key in
  int empty_entered = 0;  // of those, seeks the wrapper sent to RocksDB
  int holding = 0;
};

// Whether a deleted key, which the filter keeps, lies in [lo, hi).
bool HoldsDeleted(const std::set<std::string>& deleted, const std::string& lo,
                  const std::string& hi) {
  auto it = deleted.lower_bound(lo);
  return it != deleted.end() && *it < hi;
}

// Ranges of up to 64 numbers, half starting just after a present key, in
// both directions, through the wrapper and RocksDB alone.
Outcome CompareRanges(PresenceFilteredDB* db, const KeyShape& shape,
                      const std::vector<KeyNumber>& present,
                      const std::set<std::string>& deleted, uint64_t seed) {
  NumberDraws draws(seed);
  Outcome outcome;
  for (int i = 0; i < kRanges; ++i) {
    // A fifth end at a present key, a fifth start at one (holding it
    // unless it was deleted); the rest start just after one, or anywhere.
    const KeyNumber width = 1 + draws.Below(64);
    const KeyNumber key = present[draws.Below(present.size())];
    const KeyNumber start = i % 5 == 0   ? key - width
                            : i % 5 == 1 ? key
                            : i % 5 == 2 ? draws.Below(shape.max_number - 64)
                                         : key + 1;
    const std::string lo = shape.key(start);
    const std::string hi = shape.key(start + width);
    if (lo >= hi) continue;
    for (bool backward : {false, true}) {
      const std::string expected = Yield(db->GetBaseDB(), lo, hi, backward);
      const uint64_t before = SeeksInRocksDB(db);
      const std::string wrapper = Yield(db, lo, hi, backward);
      const bool entered = SeeksInRocksDB(db) != before;
      EXPECT_EQ(wrapper, expected)
          << shape.name << (backward ? " backward" : " forward") << " ["
          << absl::CHexEscape(lo) << ", " << absl::CHexEscape(hi) << ")";
      if (expected != "OK") {
        ++outcome.holding;
      } else if (!HoldsDeleted(deleted, lo, hi + std::string(1, '\0'))) {
        ++outcome.empty;
        outcome.empty_entered += entered;
      }
    }
  }
  return outcome;
}

void ExpectFewEntered(const Outcome& outcome, const char* shape) {
  EXPECT_GT(outcome.empty, kRanges / 2) << shape;
  EXPECT_GT(outcome.holding, kRanges / 5) << shape;
  // The items match about 0.1-0.5% of empty ranges (range_items_test).
  EXPECT_LT(outcome.empty_entered, outcome.empty / 50 + 3) << shape;
}

class RangeSeeksTest : public ::testing::TestWithParam<size_t> {};

TEST_P(RangeSeeksTest, EmptyRangesAreAnsweredAndNoneHoldingAKeyIs) {
  const KeyShape& shape = key_shapes::KeyShapes()[GetParam()];
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), BaseOptions(), RangeSeeks());
  ASSERT_NE(db, nullptr);
  NumberDraws draws(3);
  std::vector<KeyNumber> present =
      key_shapes::DrawKeyNumbers(shape, kKeys, &draws);
  // Written in a random order.
  for (size_t i = present.size(); i > 1; --i) {
    std::swap(present[i - 1], present[draws.Below(i)]);
  }
  for (int i = 0; i < kKeys; ++i) {
    ASSERT_TRUE(
        db->Put(rocksdb::WriteOptions(), shape.key(present[i]), "v").ok());
    if (i == kKeys / 2) {
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }
  }
  // Deleted keys leave RocksDB's ranges empty; the filter keeps them.
  std::set<std::string> deleted;
  for (int i = 0; i < kKeys / 10; ++i) {
    deleted.insert(shape.key(present[i]));
    ASSERT_TRUE(
        db->Delete(rocksdb::WriteOptions(), shape.key(present[i])).ok());
  }
  ExpectFewEntered(CompareRanges(db.get(), shape, present, deleted, 5),
                   shape.name);

  // Reopened from its save, and then without one (the tables are read).
  ASSERT_TRUE(db->CloseAndSave().ok());
  db = presence_testing::OpenServing(dir.path(), BaseOptions(), RangeSeeks());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kNone);
  ExpectFewEntered(CompareRanges(db.get(), shape, present, deleted, 6),
                   shape.name);
  ASSERT_TRUE(
      db->Put(rocksdb::WriteOptions(), shape.key(present[0]), "v").ok());
  db.reset();
  db = presence_testing::OpenServing(dir.path(), BaseOptions(), RangeSeeks());
  ASSERT_NE(db, nullptr);
  CompareRanges(db.get(), shape, present, deleted, 7);
}

std::string ShapeTestName(const ::testing::TestParamInfo<size_t>& shape) {
  std::string name;
  for (const char* c = key_shapes::KeyShapes()[shape.param].name; *c != '\0';
       ++c) {
    if (std::isalnum(static_cast<unsigned char>(*c))) name.push_back(*c);
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Shapes, RangeSeeksTest,
                         ::testing::Range(size_t{0},
                                          key_shapes::KeyShapes().size()),
                         ShapeTestName);

// Keys saved only in a record of changes (their table is covered by it, so
// the reopening reads no table) are found through the alphabets that record
// carries.
TEST(RangeSeeksSavesTest, ARecordOfChangesCarriesTheAlphabets) {
  TempDir dir;
  {
    std::unique_ptr<PresenceFilteredDB> db =
        presence_testing::OpenServing(dir.path(), BaseOptions(), RangeSeeks());
    ASSERT_NE(db, nullptr);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "key1", "v").ok());
    ASSERT_TRUE(db->SaveFilters().ok());  // in full
    // A new length, and bytes no key had.
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "key1-zz", "v").ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    ASSERT_TRUE(db->SaveFilters().ok());  // the changes
    // Closed without a save.
  }
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), BaseOptions(), RangeSeeks());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kNone);
  EXPECT_EQ(Yield(db.get(), "key1-", "key1-zzz", false), "key1-zz OK");
  EXPECT_EQ(Yield(db.get(), "key1-", "key1-zzz", true), "key1-zz OK");
}

TEST(RangeSeeksSavesTest, ASaveWithoutRangeItemsIsRebuilt) {
  TempDir dir;
  {
    std::unique_ptr<PresenceFilteredDB> db = presence_testing::OpenServing(
        dir.path(), BaseOptions(), presence_testing::SmallFilter());
    ASSERT_NE(db, nullptr);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "key1", "v").ok());
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  std::unique_ptr<PresenceFilteredDB> db =
      presence_testing::OpenServing(dir.path(), BaseOptions(), RangeSeeks());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kRangeItemsMissing);
  EXPECT_EQ(Yield(db.get(), "key0", "key2", false), "key1 OK");
  const uint64_t before = SeeksInRocksDB(db.get());
  EXPECT_EQ(Yield(db.get(), "key2", "key3", false), "OK");
  EXPECT_EQ(SeeksInRocksDB(db.get()), before);
}

}  // namespace
}  // namespace sstfilter
