// NewRocksDbPerLevelFilterPolicy inside a real RocksDB 7.8.3 database of four
// levels holding 200,000 keys: every table's filter has the bits/key Monkey
// allocates to the level RocksDB wrote it to, the larger levels hold fewer
// bits/key, every key reads back, absent keys read as many data blocks as the
// filters' rates predict, and the native policy at any size reads every table.
//
// The tree is shaped with real compactions into chosen levels (CompactFiles)
// rather than left to RocksDB's scheduler: with automatic compactions a
// growing tree fills its last level largely by trivial moves (a table moved
// down a level unchanged keeps the filter it was written with), and which
// tables end where depends on timing. Here each level's tables are written at
// that level, and the test is the same on every run.

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/rocksdb/rocksdb_per_level_policy.h"
#include "engines/tree/per_level_allocation.h"
#include "filter/bloom/bloom.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/table_properties.h"
#include "table/testing/real_tables.h"
#include "tests/integration/rocksdb_db_util.h"
#include "tests/integration/rocksdb_tree_builder.h"

namespace sstfilter {
namespace {

constexpr size_t kValueBytes = 64;
constexpr size_t kAbsentKeys = 100000;
constexpr double kBudgetBitsPerKey = 10;
constexpr int kNumLevels = 4;
// The tree, fan-out 10: keys written to each level, deepest first; L0 gets
// two flushes of 1,000 keys, two runs. 200,000 keys in all.
constexpr test::LevelBatch kBatches[] = {
    {3, 176000}, {2, 20000}, {1, 2000}, {0, 1000}, {0, 1000}};
// Tables of at most 1 MB, so that L3 has several.
constexpr uint64_t kTableBytes = 1 << 20;
// The native trailer (at most 13 bytes) and the body's rounding to a byte.
constexpr double kOverheadBits = 8 * 14;
constexpr size_t kMultiGetKeys = 100;

std::vector<TreeLevel> ModelTree() {
  return test::ModelTree(kBatches, kNumLevels);
}

rocksdb::Options TreeOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy) {
  return test::TreeOptions(std::move(policy), kNumLevels);
}

absl::Status BuildTree(const rocksdb::Options& options, const std::string& dir,
                       const std::vector<test::Entry>& entries) {
  return test::BuildTree(options, dir, entries, kBatches, kTableBytes);
}

struct Filters {
  uint64_t bits = 0;
  uint64_t keys = 0;
  int tables = 0;
  double BitsPerKey() const { return keys == 0 ? 0 : 1.0 * bits / keys; }
};

// A database built with one writing policy and reopened for reading through
// a native policy of another size, whose readers count their calls: one
// reader reads the filters of every size.
struct Tree {
  test::TempDir dir;
  rocksdb::Options options;
  std::shared_ptr<test::MayMatchCalls> calls =
      std::make_shared<test::MayMatchCalls>();
  std::unique_ptr<rocksdb::DB> db;
};

absl::Status OpenTree(std::shared_ptr<const rocksdb::FilterPolicy> writer,
                      const std::vector<test::Entry>& entries, Tree* tree) {
  absl::Status s = BuildTree(TreeOptions(writer), tree->dir.path(), entries);
  if (!s.ok()) return s;
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> native =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(7));
  if (!native.ok()) return native.status();
  tree->options = TreeOptions(AsRocksDbFilterPolicy(
      test::CountingPolicy(std::move(*native), tree->calls)));
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db =
      test::OpenDb(tree->options, tree->dir.path());
  if (!db.ok()) return db.status();
  tree->db = *std::move(db);
  return absl::OkStatus();
}

// Two trees of the same keys, built once: one with the per-level policy, one
// with the budget's bits/key at every level.
struct Shared {
  FilterAllocation allocation;
  std::vector<test::Entry> entries;
  std::vector<std::string> absent;
  Tree per_level;
  Tree uniform;
  absl::Status built;
};

absl::Status Build(Shared* shared) {
  absl::StatusOr<FilterAllocation> allocation =
      AllocateFilterBits(ModelTree(), kBudgetBitsPerKey, NativeBloomCost());
  if (!allocation.ok()) return allocation.status();
  shared->allocation = *allocation;
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> per_level =
      NewRocksDbPerLevelFilterPolicy(ModelTree(), kBudgetBitsPerKey);
  if (!per_level.ok()) return per_level.status();
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> uniform =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(kBudgetBitsPerKey));
  if (!uniform.ok()) return uniform.status();

  size_t keys = 0;
  for (const test::LevelBatch& batch : kBatches) keys += batch.keys;
  shared->entries = test::RandomEntries(keys, kValueBytes, 601);
  shared->absent = test::AbsentKeys(kAbsentKeys, 602, shared->entries);
  absl::Status s = OpenTree(*per_level, shared->entries, &shared->per_level);
  if (!s.ok()) return s;
  return OpenTree(AsRocksDbFilterPolicy(std::move(*uniform)), shared->entries,
                  &shared->uniform);
}

class RocksDbPerLevelDbTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    shared_ = new Shared;
    shared_->built = Build(shared_);
  }
  static void TearDownTestSuite() {
    delete shared_;
    shared_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(shared_->built.ok()) << shared_->built; }

  static Shared* shared_;
};

Shared* RocksDbPerLevelDbTest::shared_ = nullptr;

// A Get asks the filter of each table whose range holds the key, level by
// level, until one has it: each filter says no, or one data block is read.
TEST_F(RocksDbPerLevelDbTest, EveryKeyReadsBack) {
  const std::vector<test::Entry>& entries = shared_->entries;
  Tree& tree = shared_->per_level;
  const uint64_t single = tree.calls->single.load();
  const test::ReadTickers start = test::Tickers(*tree.options.statistics);
  const test::GetOutcomes got = test::GetAll(tree.db.get(), entries);
  const test::ReadTickers get = test::Tickers(*tree.options.statistics) - start;
  EXPECT_EQ(got.found, entries.size()) << got.first_failure;
  const uint64_t asked = tree.calls->single.load() - single;
  EXPECT_EQ(asked, get.filter_useful + get.data_misses);
  EXPECT_GT(asked, 2 * entries.size()) << "one level only?";

  const uint64_t batches = tree.calls->batches.load();
  const test::GetOutcomes multi =
      test::MultiGetAll(tree.db.get(), entries, kMultiGetKeys);
  EXPECT_EQ(multi.found, entries.size()) << multi.first_failure;
  EXPECT_GT(tree.calls->batches.load(), batches);
}

// Each table's filter has its level's allocation, and the levels hold fewer
// bits/key the larger they are, as Monkey has it.
TEST_F(RocksDbPerLevelDbTest, TablesHaveTheirLevelsBitsPerKey) {
  const FilterAllocation& allocation = shared_->allocation;
  rocksdb::DB* db = shared_->per_level.db.get();
  rocksdb::TablePropertiesCollection properties;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&properties).ok());
  std::map<std::string, Filters> by_table;  // by file name, "/000012.sst"
  for (const auto& [path, table] : properties) {
    const int written_at = test::LevelWrittenAt(*table);
    ASSERT_GE(written_at, 0) << path;
    ASSERT_LT(written_at, kNumLevels) << path;
    EXPECT_EQ(table->filter_policy_name, "sstfilter.LocalBloom2") << path;
    ASSERT_GT(table->num_filter_entries, 0u) << path;
    const double want = allocation.levels[written_at].bits_per_key;
    const double bits_per_key =
        8.0 * table->filter_size / table->num_filter_entries;
    EXPECT_GE(bits_per_key, want) << path << ", written at L" << written_at;
    EXPECT_LE(bits_per_key, want + kOverheadBits / table->num_filter_entries)
        << path << ", written at L" << written_at;
    by_table[path.substr(path.rfind('/'))] =
        Filters{8 * table->filter_size, table->num_filter_entries, 1};
  }

  rocksdb::ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  std::vector<Filters> by_level(kNumLevels);
  for (const rocksdb::LevelMetaData& level : meta.levels) {
    for (const rocksdb::SstFileMetaData& file : level.files) {
      const auto table = by_table.find(file.name);
      ASSERT_NE(table, by_table.end()) << file.name;
      by_level[level.level].bits += table->second.bits;
      by_level[level.level].keys += table->second.keys;
      ++by_level[level.level].tables;
    }
  }
  Filters all;
  for (int level = 0; level < kNumLevels; ++level) {
    const Filters& now = by_level[level];
    std::printf(
        "L%d: allocated %6.3f bits/key (fpp %.3g); %2d tables, %6llu keys "
        "at %6.3f bits/key\n",
        level, allocation.levels[level].bits_per_key,
        allocation.levels[level].fpp, now.tables,
        static_cast<unsigned long long>(now.keys), now.BitsPerKey());
    RecordProperty(absl::StrCat("L", level, "_bits_per_key"),
                   absl::StrCat(now.BitsPerKey()));
    all.bits += now.bits;
    all.keys += now.keys;
  }
  std::printf("all levels: %.3f bits/key for a budget of %.0f\n",
              all.BitsPerKey(), kBudgetBitsPerKey);
  EXPECT_EQ(all.keys, shared_->entries.size());
  EXPECT_EQ(by_level[0].tables, 2);
  EXPECT_GE(by_level[3].tables, 10);
  for (int level = 1; level < kNumLevels; ++level) {
    EXPECT_GT(by_level[level - 1].BitsPerKey(), by_level[level].BitsPerKey())
        << "L" << level;
  }
  // The budget, spent over the real tables, trailers included.
  EXPECT_GE(all.BitsPerKey(), kBudgetBitsPerKey * (1 - 1e-6));
  EXPECT_LE(all.BitsPerKey(), kBudgetBitsPerKey * 1.005);
}

// What a run of absent keys should read in a tree: the sum, over the tables
// each key falls in the range of, of their filters' expected rates.
struct Prediction {
  double reads = 0;
  double variance = 0;
  size_t asked = 0;  // filters asked
};

Prediction Predict(rocksdb::DB* db, const std::vector<std::string>& keys) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::vector<double> fpp(files.size(), 1.0);
  for (size_t i = 0; i < files.size(); ++i) {
    absl::StatusOr<double> table_fpp =
        test::TableExpectedFpp(files[i].db_path + files[i].name);
    EXPECT_TRUE(table_fpp.ok()) << table_fpp.status();
    if (table_fpp.ok()) fpp[i] = *table_fpp;
  }
  Prediction prediction;
  for (const std::string& key : keys) {
    for (size_t i = 0; i < files.size(); ++i) {
      if (files[i].smallestkey <= key && key <= files[i].largestkey) {
        prediction.reads += fpp[i];
        prediction.variance += fpp[i] * (1 - fpp[i]);
        ++prediction.asked;
      }
    }
  }
  return prediction;
}

// An absent key asks one table in each of L1..L3 and each L0 table (when it
// falls within their ranges), and reads a data block for each false positive:
// as many as the tables' rates predict, within the spread of chance. The
// per-level tree reads about a third of what the uniform one does.
TEST_F(RocksDbPerLevelDbTest, AbsentKeysReadWhatTheRatesPredict) {
  const std::vector<std::string>& absent = shared_->absent;
  uint64_t reads[2] = {0, 0};
  int i = 0;
  for (Tree* tree : {&shared_->per_level, &shared_->uniform}) {
    const char* name = i == 0 ? "per-level" : "uniform";
    const Prediction predicted = Predict(tree->db.get(), absent);
    const test::ReadTickers start = test::Tickers(*tree->options.statistics);
    EXPECT_EQ(test::GetAbsent(tree->db.get(), absent), 0u) << name;
    const test::ReadTickers got =
        test::Tickers(*tree->options.statistics) - start;
    std::printf(
        "%s: %zu absent keys read %llu data blocks, %.0f expected "
        "(%.4f a key)\n",
        name, absent.size(), static_cast<unsigned long long>(got.data_misses),
        predicted.reads, predicted.reads / absent.size());
    RecordProperty(absl::StrCat(name, "_absent_data_block_reads"),
                   absl::StrCat(got.data_misses));
    EXPECT_EQ(got.filter_useful + got.data_misses, predicted.asked) << name;
    EXPECT_NEAR(static_cast<double>(got.data_misses), predicted.reads,
                5 * std::sqrt(predicted.variance))
        << name;
    reads[i++] = got.data_misses;
  }
  absl::StatusOr<FilterAllocation> uniform =
      UniformFilterBits(ModelTree(), kBudgetBitsPerKey, NativeBloomCost());
  ASSERT_TRUE(uniform.ok()) << uniform.status();
  std::printf("the model: %.4f reads a key per-level, %.4f uniform\n",
              shared_->allocation.expected_reads, uniform->expected_reads);
  // The model's ratio is 3.2; the tables' own rates and chance move it a
  // little.
  EXPECT_LT(2.5 * reads[0], reads[1]);
}

}  // namespace
}  // namespace sstfilter
