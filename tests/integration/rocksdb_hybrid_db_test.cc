// NewRocksDbHybridFilterPolicy inside a real RocksDB 7.8.3 database of four
// levels holding 200,000 keys, each level's tables written at that level
// (rocksdb_tree_builder.h): every table holds the family the tree allocation
// chose for its level, under the one name "sstfilter.Hybrid2"; every key
// reads back; absent keys read as many data blocks as the filters' rates
// predict, fewer than with the native filter at the same memory everywhere;
// and under a build-memory cap the large tables fall back to the native
// filter, counted, with every key still found.

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/rocksdb/rocksdb_hybrid_policy.h"
#include "filter/bloom/bloom.h"
#include "filter/hybrid/hybrid.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "tests/integration/rocksdb_db_util.h"
#include "tests/integration/rocksdb_tree_builder.h"

namespace sstfilter {
namespace {

constexpr size_t kValueBytes = 64;
constexpr size_t kAbsentKeys = 50000;
constexpr double kBudgetBitsPerKey = 10;
constexpr int kNumLevels = 4;
constexpr test::LevelBatch kBatches[] = {
    {3, 176000}, {2, 20000}, {1, 2000}, {0, 1000}, {0, 1000}};
constexpr uint64_t kTableBytes = 1 << 20;
constexpr size_t kMultiGetKeys = 100;
// Native and compact filters' marker bytes, at size - 2
// (filter/bloom/README.md, filter/burr/README.md).
constexpr uint8_t kNativeMarker = 0xB1;
constexpr uint8_t kCompactMarker = 0xB7;
// A cap the 1 MB tables of the last level exceed (their ~15,000 keys' hashes
// and the solver's buffers) and the small ones do not.
constexpr size_t kBuildCapBytes = 512 * 1024;

std::vector<TreeLevel> ModelTree() {
  return test::ModelTree(kBatches, kNumLevels);
}

struct Tree {
  test::TempDir dir;
  rocksdb::Options options;
  std::unique_ptr<rocksdb::DB> db;
};

absl::Status OpenTree(std::shared_ptr<const rocksdb::FilterPolicy> policy,
                      const std::vector<test::Entry>& entries, Tree* tree) {
  tree->options = test::TreeOptions(policy, kNumLevels);
  absl::Status s = test::BuildTree(tree->options, tree->dir.path(), entries,
                                   kBatches, kTableBytes);
  if (!s.ok()) return s;
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db =
      test::OpenDb(tree->options, tree->dir.path());
  if (!db.ok()) return db.status();
  tree->db = *std::move(db);
  return absl::OkStatus();
}

// The family of each table's filter, by the level it was written at: the
// filter's marker byte (0: no filter).
std::vector<std::vector<uint8_t>> MarkersByLevel(rocksdb::DB* db) {
  std::vector<std::vector<uint8_t>> markers(kNumLevels);
  rocksdb::TablePropertiesCollection properties;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&properties).ok());
  for (const auto& [path, table] : properties) {
    const int level = test::LevelWrittenAt(*table);
    EXPECT_GE(level, 0) << path;
    if (level < 0) continue;
    absl::StatusOr<std::unique_ptr<TableFilter>> reader =
        TableFilter::OpenFile(path, {});
    EXPECT_TRUE(reader.ok()) << reader.status();
    if (!reader.ok()) continue;
    const absl::string_view filter = (*reader)->filter_block_contents();
    if (filter.size() >= 2) {
      EXPECT_EQ(table->filter_policy_name, kCheckedHybridFormatName) << path;
    }
    markers[level].push_back(test::Version1Marker(filter));
  }
  return markers;
}

uint8_t MarkerOf(FilterFamily family) {
  switch (family) {
    case FilterFamily::kNative:
      return kNativeMarker;
    case FilterFamily::kCompact:
      return kCompactMarker;
    case FilterFamily::kNone:
      break;
  }
  return 0;
}

// Absent keys' data-block reads, and what the tables' rates predict.
struct AbsentReads {
  uint64_t reads = 0;
  double predicted = 0;
  double variance = 0;
};

AbsentReads ReadAbsent(Tree* tree, const std::vector<std::string>& absent) {
  std::vector<rocksdb::LiveFileMetaData> files;
  tree->db->GetLiveFilesMetaData(&files);
  AbsentReads out;
  std::vector<double> fpp;
  for (const rocksdb::LiveFileMetaData& file : files) {
    absl::StatusOr<double> table_fpp =
        test::TableExpectedFpp(file.db_path + file.name);
    EXPECT_TRUE(table_fpp.ok()) << table_fpp.status();
    fpp.push_back(table_fpp.ok() ? *table_fpp : 1.0);
  }
  for (const std::string& key : absent) {
    for (size_t i = 0; i < files.size(); ++i) {
      if (files[i].smallestkey <= key && key <= files[i].largestkey) {
        out.predicted += fpp[i];
        out.variance += fpp[i] * (1 - fpp[i]);
      }
    }
  }
  const test::ReadTickers start = test::Tickers(*tree->options.statistics);
  EXPECT_EQ(test::GetAbsent(tree->db.get(), absent), 0u);
  out.reads = (test::Tickers(*tree->options.statistics) - start).data_misses;
  return out;
}

class RocksDbHybridDbTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    entries_ = new std::vector<test::Entry>(
        test::RandomEntries(200000, kValueBytes, 701));
    absent_ = new std::vector<std::string>(
        test::AbsentKeys(kAbsentKeys, 702, *entries_));
  }
  static void TearDownTestSuite() {
    delete entries_;
    delete absent_;
  }

  static std::vector<test::Entry>* entries_;
  static std::vector<std::string>* absent_;
};

std::vector<test::Entry>* RocksDbHybridDbTest::entries_ = nullptr;
std::vector<std::string>* RocksDbHybridDbTest::absent_ = nullptr;

TEST_F(RocksDbHybridDbTest, EachLevelGetsItsFamilyAndEveryKeyReadsBack) {
  HybridTreeOptions options;
  options.bloom_before_level = 1;
  options.counters = std::make_shared<HybridCounters>();
  absl::StatusOr<TreeAllocation> allocation =
      HybridTreeAllocation(ModelTree(), kBudgetBitsPerKey, options);
  ASSERT_TRUE(allocation.ok()) << allocation.status();
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      NewRocksDbHybridFilterPolicy(ModelTree(), kBudgetBitsPerKey, options);
  ASSERT_TRUE(policy.ok()) << policy.status();
  Tree hybrid;
  ASSERT_TRUE(OpenTree(*policy, *entries_, &hybrid).ok());

  const std::vector<std::vector<uint8_t>> markers =
      MarkersByLevel(hybrid.db.get());
  size_t tables = 0;
  for (int level = 0; level < kNumLevels; ++level) {
    const LevelChoice& choice = allocation->levels[level];
    std::printf("L%d: %s at fpp %.3g (%.2f bits/key), %zu tables\n", level,
                FilterFamilyName(choice.family), choice.fpp,
                choice.bits_per_key, markers[level].size());
    for (uint8_t marker : markers[level]) {
      EXPECT_EQ(marker, MarkerOf(choice.family)) << "L" << level;
    }
    tables += markers[level].size();
  }
  EXPECT_EQ(allocation->levels[0].family, FilterFamily::kNative)
      << "bloom_before_level 1";
  EXPECT_EQ(allocation->levels.back().family, FilterFamily::kCompact);
  // The counters count every filter built, of the tables that compactions
  // replaced too (each batch is flushed to L0 first).
  size_t live_native = 0, live_compact = 0;
  for (const std::vector<uint8_t>& level : markers) {
    for (uint8_t marker : level) {
      live_native += marker == kNativeMarker;
      live_compact += marker == kCompactMarker;
    }
  }
  EXPECT_EQ(live_native + live_compact, tables);
  EXPECT_GE(options.counters->native_builds.load(), live_native);
  EXPECT_GE(options.counters->compact_builds.load(), live_compact);
  EXPECT_EQ(options.counters->fallbacks, 0u);

  test::ExpectEveryKeyFound(test::GetAll(hybrid.db.get(), *entries_),
                            entries_->size(), "Get");
  test::ExpectEveryKeyFound(
      test::MultiGetAll(hybrid.db.get(), *entries_, kMultiGetKeys),
      entries_->size(), "MultiGet");

  // Absent keys read what the rates predict, and fewer blocks than the
  // native filter at the budget everywhere.
  const AbsentReads got = ReadAbsent(&hybrid, *absent_);
  EXPECT_NEAR(static_cast<double>(got.reads), got.predicted,
              5 * std::sqrt(got.variance) + 1);
  Tree uniform;
  ASSERT_TRUE(OpenTree(AsRocksDbFilterPolicy(std::move(*NewBloomFilterPolicy(
                           FilterOptions::BitsPerKey(kBudgetBitsPerKey)))),
                       *entries_, &uniform)
                  .ok());
  const AbsentReads uniform_reads = ReadAbsent(&uniform, *absent_);
  std::printf(
      "absent keys: hybrid %llu data blocks (%.0f predicted), uniform native "
      "%llu; the model: %.4f a key\n",
      static_cast<unsigned long long>(got.reads), got.predicted,
      static_cast<unsigned long long>(uniform_reads.reads),
      allocation->expected_reads);
  EXPECT_LT(3 * got.reads, uniform_reads.reads);
}

TEST_F(RocksDbHybridDbTest, BuildMemoryCapFallsBackToTheNativeFilter) {
  HybridTreeOptions options;
  options.max_build_bytes = kBuildCapBytes;
  options.counters = std::make_shared<HybridCounters>();
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      NewRocksDbHybridFilterPolicy(ModelTree(), kBudgetBitsPerKey, options);
  ASSERT_TRUE(policy.ok()) << policy.status();
  Tree tree;
  ASSERT_TRUE(OpenTree(*policy, *entries_, &tree).ok());
  const std::vector<std::vector<uint8_t>> markers =
      MarkersByLevel(tree.db.get());
  ASSERT_FALSE(markers[kNumLevels - 1].empty());
  size_t native_in_last = 0;
  for (uint8_t marker : markers[kNumLevels - 1]) {
    native_in_last += marker == kNativeMarker;
  }
  EXPECT_GT(native_in_last, 0u) << "the last level's tables exceed the cap";
  // Every native table of the last level is a fallback; flushed tables that
  // compactions replaced may have fallen back too.
  EXPECT_GE(options.counters->fallbacks.load(), native_in_last);
  EXPECT_LE(options.counters->fallbacks.load(),
            options.counters->native_builds.load());
  test::ExpectEveryKeyFound(test::GetAll(tree.db.get(), *entries_),
                            entries_->size(), "Get");
  const AbsentReads got = ReadAbsent(&tree, *absent_);
  EXPECT_NEAR(static_cast<double>(got.reads), got.predicted,
              5 * std::sqrt(got.variance) + 1);
}

}  // namespace
}  // namespace sstfilter
