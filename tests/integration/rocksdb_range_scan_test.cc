// The range filter inside a real RocksDB 7.8.3 database: a properties
// collector builds it into every table RocksDB writes (flush, compaction),
// and RangeScan's table_filter skips tables for scans over empty ranges. The
// oracle is a std::map of what the database should hold, overwrites, merge
// operands, deletes, single deletes and range deletions applied: every scan
// returns exactly the map's keys and values in its range, after flushes into
// overlapping tables (where a table may hold only a tombstone or an operand
// for a key whose value lies in an older one), after a full compaction and
// after a reopen, while empty scans read at most a tenth of the data blocks
// they read without the filter (counted as misses of a block cache of
// capacity 0).

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_range_filter.h"
#include "filter/range/range_key.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table_properties.h"
#include "table/range_filter_key.h"
#include "table/testing/append_operator.h"
#include "tests/integration/rocksdb_db_util.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr int kBatches = 6;
constexpr int kKeysPerBatch = 3000;
constexpr int kEmptyScans = 2000;
constexpr int kScans = 400;
// Keys' codes are multiples of this, so ranges between them are empty.
constexpr uint64_t kCodeStep = uint64_t{1} << 20;

// A key: its 8-byte code and an 8-byte suffix, so keys sharing a code differ.
std::string KeyOf(uint64_t code, uint64_t suffix) {
  std::string key = KeyOfRangeCode(code);
  key.append(KeyOfRangeCode(suffix));
  return key;
}

// Either key coding: the first 8 bytes, or the keys coded per table.
class RocksDbRangeScanTest : public testing::TestWithParam<RangeKeyCoding> {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(testing::TempDir(), "/range_scan_db");
    rocksdb::DestroyDB(dir_, rocksdb::Options());
    options_ = test::CountingOptions(nullptr);
    auto collector = NewRangeFilterCollectorFactory(
        FilterOptions::BitsPerKey(16), GetParam());
    ASSERT_TRUE(collector.ok()) << collector.status();
    options_.table_properties_collector_factories.push_back(*collector);
    // Merge operands append to the value, so a scan that missed a table
    // holding only an operand would return the older value.
    options_.merge_operator = std::make_shared<test::AppendOperator>();
    // Every flush stays a table of level 0, overlapping the others.
    options_.disable_auto_compactions = true;
    // The compaction writes several tables of level 1, each a slice of the
    // key space.
    options_.target_file_size_base = 128 << 10;
    Reopen();
  }

  void Reopen() {
    db_.reset();
    auto db = test::OpenDb(options_, dir_);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
  }

  uint64_t RandomCode() { return (rng_.Next64() / kCodeStep) * kCodeStep; }

  // A batch of new keys; overwrites, merge operands, deletes and single
  // deletes of older ones; and one range deletion, flushed into a table of its
  // own. Each older key touched is remembered, for scans around it.
  void WriteBatchAndFlush(int batch) {
    rocksdb::WriteOptions write;
    for (int i = 0; i < kKeysPerBatch; ++i) {
      const std::string key = KeyOf(RandomCode(), rng_.Next64());
      const std::string value = absl::StrCat("v", batch, "-", i);
      ASSERT_TRUE(db_->Put(write, key, value).ok());
      model_[key] = value;
      written_once_.insert(key);
    }
    if (batch > 0) {
      for (int i = 0; i < 200; ++i) {
        const std::string code = KeyOfRangeCode(rng_.Next64());
        std::string key;
        if (i % 4 == 3) {
          // SingleDelete only keys written once (RocksDB's requirement).
          auto it = written_once_.lower_bound(code);
          if (it == written_once_.end()) continue;
          key = *it;
        } else {
          auto it = model_.lower_bound(code);
          if (it == model_.end()) continue;
          key = it->first;
        }
        touched_.push_back(key);
        written_once_.erase(key);
        if (i % 4 == 0) {
          model_[key] = absl::StrCat("overwritten in ", batch);
          ASSERT_TRUE(db_->Put(write, key, model_[key]).ok());
        } else if (i % 4 == 1) {
          const std::string operand = absl::StrCat("merged in ", batch);
          model_[key] = test::AppendOperator::Appended(&model_[key], operand);
          ASSERT_TRUE(db_->Merge(write, key, operand).ok());
        } else if (i % 4 == 2) {
          ASSERT_TRUE(db_->Delete(write, key).ok());
          model_.erase(key);
        } else {
          ASSERT_TRUE(db_->SingleDelete(write, key).ok());
          model_.erase(key);
        }
      }
      // A range deletion of about 30 keys, whose own table holds only its
      // start key: scans inside it must not bring the keys back.
      auto first = model_.lower_bound(KeyOfRangeCode(rng_.Next64()));
      auto last = first;
      for (int i = 0; i < 30 && last != model_.end(); ++i) ++last;
      if (first != model_.end() && last != model_.end()) {
        const std::string begin = first->first;
        const std::string end = last->first;
        ASSERT_TRUE(
            db_->DeleteRange(write, db_->DefaultColumnFamily(), begin, end)
                .ok());
        touched_.push_back(begin);
        model_.erase(first, last);
        written_once_.erase(written_once_.lower_bound(begin),
                            written_once_.lower_bound(end));
      }
    }
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  }

  uint64_t DataBlockReads() const {
    return options_.statistics->getTickerCount(rocksdb::BLOCK_CACHE_DATA_MISS);
  }

  // The keys and values a scan of [lower, upper) returns.
  std::map<std::string, std::string> Scan(const rocksdb::ReadOptions& read,
                                          const std::string& lower) {
    std::map<std::string, std::string> found;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read));
    for (it->Seek(lower); it->Valid(); it->Next()) {
      found[it->key().ToString()] = it->value().ToString();
    }
    EXPECT_TRUE(it->status().ok()) << it->status().ToString();
    return found;
  }

  std::map<std::string, std::string> Expected(const std::string& lower,
                                              const std::string& upper) const {
    return std::map<std::string, std::string>(model_.lower_bound(lower),
                                              model_.lower_bound(upper));
  }

  // An empty range of up to 32 codes: half anywhere, half starting just
  // after a present key's code (the correlated case).
  std::pair<std::string, std::string> EmptyRange() {
    while (true) {
      uint64_t code;
      if (rng_.OneIn(2)) {
        code = rng_.Next64();
      } else {
        auto it = model_.lower_bound(KeyOfRangeCode(rng_.Next64()));
        if (it == model_.end()) continue;
        code = RangeKeyCode(it->first) + 1;
      }
      const uint64_t length = 1 + rng_.Uniform(32);
      if (code + length < code) continue;
      std::string lower = KeyOfRangeCode(code);
      std::string upper = KeyOfRangeCode(code + length);
      if (model_.lower_bound(lower) != model_.lower_bound(upper)) continue;
      return {lower, upper};
    }
  }

  // Every check, in the database's current shape.
  void CheckScans(const std::string& shape) {
    SCOPED_TRACE(shape);
    // Every live table carries a range filter.
    rocksdb::TablePropertiesCollection tables;
    ASSERT_TRUE(db_->GetPropertiesOfAllTables(&tables).ok());
    ASSERT_FALSE(tables.empty());
    for (const auto& [file, properties] : tables) {
      EXPECT_EQ(properties->user_collected_properties.count(
                    RangeFilterKey(GetParam() == RangeKeyCoding::kPerTable
                                       ? "sstfilter.KeyedGrafiteByLength2"
                                       : "sstfilter.Grafite2")),
                1u)
          << file;
    }

    // Empty ranges, each scanned with and without the table filter.
    uint64_t reads_with = 0;
    uint64_t reads_without = 0;
    for (int i = 0; i < kEmptyScans; ++i) {
      const auto [lower, upper] = EmptyRange();
      RangeScan scan(lower, upper);
      uint64_t before = DataBlockReads();
      EXPECT_TRUE(Scan(scan.options(), lower).empty());
      reads_with += DataBlockReads() - before;

      rocksdb::ReadOptions plain;
      const rocksdb::Slice lower_slice(lower), upper_slice(upper);
      plain.iterate_lower_bound = &lower_slice;
      plain.iterate_upper_bound = &upper_slice;
      before = DataBlockReads();
      EXPECT_TRUE(Scan(plain, lower).empty());
      reads_without += DataBlockReads() - before;
    }
    std::printf(
        "%s: %d empty scans read %llu data blocks with the range "
        "filter, %llu without (%zu tables)\n",
        shape.c_str(), kEmptyScans, static_cast<unsigned long long>(reads_with),
        static_cast<unsigned long long>(reads_without), tables.size());
    EXPECT_GE(reads_without, static_cast<uint64_t>(kEmptyScans));
    EXPECT_LE(reads_with, reads_without / 10);

    // Ranges around present and touched keys, short and long: exactly the
    // model's keys and values.
    for (int i = 0; i < kScans; ++i) {
      std::string anchor;
      if (i % 2 == 0 && !touched_.empty()) {
        anchor = touched_[rng_.Uniform(touched_.size())];
      } else {
        auto it = model_.lower_bound(KeyOfRangeCode(rng_.Next64()));
        if (it == model_.end()) continue;
        anchor = it->first;
      }
      const uint64_t code = RangeKeyCode(anchor);
      const uint64_t before = rng_.Uniform(2) == 0 ? 0 : rng_.Uniform(1 << 16);
      const uint64_t after = 1 + rng_.Uniform(i % 8 == 0 ? kCodeStep * 64 : 64);
      if (code < before || code + after < code) continue;
      const std::string lower = KeyOfRangeCode(code - before);
      const std::string upper = KeyOfRangeCode(code + after);
      RangeScan scan(lower, upper);
      ASSERT_EQ(Scan(scan.options(), lower), Expected(lower, upper))
          << "scan " << i;
    }
  }

  test::Random rng_{28};
  std::string dir_;
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
  std::map<std::string, std::string> model_;
  // Present keys that were written once and never touched since.
  std::set<std::string> written_once_;
  // Keys overwritten, merged or deleted (alone or as a range's start) after
  // they were written.
  std::vector<std::string> touched_;
};

TEST_P(RocksDbRangeScanTest, EmptyScansSkipTablesAndEveryKeyIsReturned) {
  for (int batch = 0; batch < kBatches; ++batch) WriteBatchAndFlush(batch);
  CheckScans("flushed tables of level 0");

  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction =
      rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(db_->CompactRange(compact, nullptr, nullptr).ok());
  CheckScans("compacted");

  // Reopened without the collector: the tables keep their filters, and the
  // read side needs only the table filter.
  options_.table_properties_collector_factories.clear();
  Reopen();
  CheckScans("reopened");
}

INSTANTIATE_TEST_SUITE_P(
    EachKeyCoding, RocksDbRangeScanTest,
    testing::Values(RangeKeyCoding::kFirst8Bytes, RangeKeyCoding::kPerTable),
    [](const testing::TestParamInfo<RangeKeyCoding>& coding) {
      return coding.param == RangeKeyCoding::kPerTable ? "KeysCodedPerTable"
                                                       : "FirstEightBytes";
    });

TEST(RangeTableFilterTest, TablesWithoutAUsableFilterAreRead) {
  rocksdb::TableProperties properties;
  EXPECT_TRUE(TableMayHoldRange(properties, "a", "b"));  // no filter
  properties.user_collected_properties[RangeFilterKey("sstfilter.Grafite2")] =
      std::string(40, '\x5a');  // damaged: its CRC fails
  EXPECT_TRUE(TableMayHoldRange(properties, "a", "b"));
  properties.user_collected_properties.clear();
  properties.user_collected_properties[RangeFilterKey("sstfilter.Future9")] =
      "?";  // a format this library does not read
  EXPECT_TRUE(TableMayHoldRange(properties, "a", "b"));
}

// A version-2 filter cut shorter than any version-1 filter: its bytes alone
// would read as an empty version-1 filter, which rules out every range.
TEST(RangeTableFilterTest, AVersion2FilterCutBelowItsTrailerIsRead) {
  auto policy = NewGrafiteFilterPolicy(FilterOptions::BitsPerKey(16));
  ASSERT_TRUE(policy.ok()) << policy.status();
  std::string filter;
  const std::vector<absl::string_view> keys = {"key"};
  (*policy)->CreateFilter(keys, &filter);
  rocksdb::TableProperties properties;
  for (size_t size = 0; size < filter.size(); ++size) {
    properties.user_collected_properties[RangeFilterKey((*policy)->Name())] =
        filter.substr(0, size);
    EXPECT_TRUE(TableMayHoldRange(properties, "key", "key\x01"))
        << "cut to " << size << " bytes";
  }
}

// The memory of verified tables (TableMayHoldRange verifies a version-2
// filter's CRC the first time a process sees a table, named by its
// db_session_id and orig_file_number), with the properties of real tables.
// A filter is damaged here in its stored CRC: its version-1 bytes stay
// intact, so a filter taken as verified answers as the intact one would (no
// for an empty range), while one whose CRC is checked answers "read it".
class VerifiedTablesTest : public testing::Test {
 protected:
  void SetUp() override {
    // A fresh database, so a fresh session that no earlier test has seen.
    const std::string dir =
        absl::StrCat(testing::TempDir(), "/verified_tables_db");
    rocksdb::DestroyDB(dir, rocksdb::Options());
    rocksdb::Options options = test::CountingOptions(nullptr);
    auto collector =
        NewRangeFilterCollectorFactory(FilterOptions::BitsPerKey(16));
    ASSERT_TRUE(collector.ok()) << collector.status();
    options.table_properties_collector_factories.push_back(*collector);
    options.disable_auto_compactions = true;
    auto db = test::OpenDb(options, dir);
    ASSERT_TRUE(db.ok()) << db.status();
    test::Random rng(29);
    for (int table = 0; table < 2; ++table) {
      for (int i = 0; i < 1000; ++i) {
        const std::string key = KeyOf(rng.Next64() / kCodeStep * kCodeStep, i);
        ASSERT_TRUE((*db)->Put(rocksdb::WriteOptions(), key, "v").ok());
      }
      ASSERT_TRUE((*db)->Flush(rocksdb::FlushOptions()).ok());
    }
    rocksdb::TablePropertiesCollection tables;
    ASSERT_TRUE((*db)->GetPropertiesOfAllTables(&tables).ok());
    ASSERT_EQ(tables.size(), 2u);
    for (const auto& [file, properties] : tables) {
      ASSERT_FALSE(properties->db_session_id.empty()) << file;
      tables_.push_back(*properties);
    }
    ASSERT_EQ(tables_[0].db_session_id, tables_[1].db_session_id);
    // The loop in TheMemoryIsClearedWhenFull names tables after the second.
    ASSERT_LT(tables_[0].orig_file_number, tables_[1].orig_file_number);
    // An empty range both intact filters rule out, found without asking
    // TableMayHoldRange (which would remember the tables).
    for (uint64_t code = kCodeStep / 2;; code += kCodeStep) {
      lower_ = KeyOfRangeCode(code);
      upper_ = KeyOfRangeCode(code + 1);
      if (!NewRangeFilterReader(Filter(tables_[0]))
               ->RangeMayMatchBefore(lower_, upper_) &&
          !NewRangeFilterReader(Filter(tables_[1]))
               ->RangeMayMatchBefore(lower_, upper_)) {
        break;
      }
    }
  }

  static std::string& Filter(rocksdb::TableProperties& properties) {
    return properties.user_collected_properties.at(
        RangeFilterKey("sstfilter.Grafite2"));
  }

  // The table's properties with a bit of its filter's stored CRC flipped (the
  // CRC is the 4 bytes before the marker and the last byte).
  static rocksdb::TableProperties Damaged(rocksdb::TableProperties table) {
    std::string& filter = Filter(table);
    filter[filter.size() - 6] ^= 1;
    EXPECT_FALSE(VerifyRangeFilter(filter).ok());
    return table;
  }

  bool MayHold(const rocksdb::TableProperties& table) const {
    return TableMayHoldRange(table, lower_, upper_);
  }

  std::vector<rocksdb::TableProperties> tables_;
  std::string lower_, upper_;
};

TEST_F(VerifiedTablesTest, ADamagedFilterOnItsFirstCallIsNotRemembered) {
  const rocksdb::TableProperties damaged = Damaged(tables_[0]);
  EXPECT_TRUE(MayHold(damaged));
  EXPECT_TRUE(MayHold(damaged));  // checked again, not taken as verified
  EXPECT_FALSE(MayHold(tables_[0]));
}

TEST_F(VerifiedTablesTest, TablesOfOneSessionAreVerifiedEachByItself) {
  EXPECT_FALSE(MayHold(tables_[0]));  // verified, and remembered
  const rocksdb::TableProperties damaged = Damaged(tables_[1]);
  EXPECT_TRUE(MayHold(damaged));
  EXPECT_TRUE(MayHold(damaged));
  EXPECT_FALSE(MayHold(tables_[1]));
}

TEST_F(VerifiedTablesTest, TheMemoryIsClearedWhenFull) {
  EXPECT_FALSE(MayHold(tables_[0]));
  // Remembered: the table's filter is not checked again (a table's bytes
  // never change; here they do, to show it).
  const rocksdb::TableProperties damaged = Damaged(tables_[0]);
  EXPECT_FALSE(MayHold(damaged));
  // As many other tables as the memory holds: it fills, whatever it held
  // before, and is cleared on the way, so the first table is forgotten and
  // its filter checked again.
  rocksdb::TableProperties other = tables_[1];
  for (size_t i = 0; i < kMaxVerifiedRangeFilterTables; ++i) {
    other.orig_file_number = tables_[1].orig_file_number + 1 + i;
    ASSERT_FALSE(MayHold(other));
  }
  // Loaded again elsewhere (its reader kept for the old place serves only
  // that), the table is verified again.
  const rocksdb::TableProperties damaged_again = damaged;
  EXPECT_TRUE(MayHold(damaged_again));
}

// A table's parsed reader is kept, but serves only the bytes it was made of:
// a table's properties loaded again elsewhere in memory get a new one. Here
// the bytes at the new place differ (a filter holding the range), so that a
// reader kept for the old place would answer wrongly.
TEST_F(VerifiedTablesTest, AKeptReaderServesOnlyItsOwnBytes) {
  EXPECT_FALSE(MayHold(tables_[0]));  // its reader kept
  std::unique_ptr<FilterBuilder> builder =
      (*NewGrafiteFilterPolicy(FilterOptions::BitsPerKey(16)))->NewBuilder();
  builder->AddKey(lower_);
  rocksdb::TableProperties reloaded = tables_[0];
  Filter(reloaded).clear();
  builder->Finish(&Filter(reloaded));
  EXPECT_TRUE(MayHold(reloaded));
  EXPECT_FALSE(MayHold(tables_[0]));
}

TEST(RangeTableFilterTest, InvalidOptionsNameTheValue) {
  auto factory = NewRangeFilterCollectorFactory(FilterOptions::BitsPerKey(1.5));
  ASSERT_FALSE(factory.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(factory.status()));
  EXPECT_NE(factory.status().message().find("1.5"), std::string::npos);
}

}  // namespace
}  // namespace sstfilter
