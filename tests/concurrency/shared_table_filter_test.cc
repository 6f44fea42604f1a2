// TableFilter shared by threads (table/table_filter.h: after Open, every
// const method from any number of threads; partitions load once). Real tables
// written by RocksDB and LevelDB hold the filter of every registered policy
// factory, and the engines' own filters (RocksDB's Ribbon among them, which no
// factory here builds); several threads then ask each table at once, racing
// on the first use of each lazily loaded partition, while one thread also
// reads the table's accessors. Every answer must be the one a lone thread
// gets from another TableFilter of the same file.
//
// Tagged "tsan": CI runs it under ThreadSanitizer.

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/testing/policy_tables.h"
#include "filter/filter_arena.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "tests/concurrency/run_on_threads.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using test::kThreads;
using test::RunOnThreads;

constexpr size_t kKeys = 2000;
constexpr size_t kPrefixBytes = 6;  // "key" and 3 hex digits: 4096 prefixes

struct Queries {
  std::vector<std::string> keys;      // added and absent, sorted
  std::vector<bool> added;            // per key
  std::vector<std::string> prefixes;  // of every key, some of no added key
};

Queries MakeQueries(const std::vector<std::string>& added) {
  Queries q;
  std::vector<std::string> absent = test::SortedHexKeys(kKeys, 2);
  q.keys = added;
  q.keys.insert(q.keys.end(), absent.begin(), absent.end());
  std::sort(q.keys.begin(), q.keys.end());
  for (const std::string& key : q.keys) {
    q.added.push_back(std::binary_search(added.begin(), added.end(), key));
    q.prefixes.push_back(key.substr(0, kPrefixBytes));
  }
  return q;
}

// What one thread asks first; the accessor-reading thread's other questions.
struct Lone {
  std::vector<char> key;
  std::vector<char> prefix;
  std::vector<std::optional<size_t>> partition;
};

Lone AskAlone(const TableFilter& table, const Queries& q) {
  Lone lone;
  for (size_t i = 0; i < q.keys.size(); ++i) {
    lone.key.push_back(table.KeyMayMatch(q.keys[i]));
    lone.prefix.push_back(table.PrefixMayMatch(q.prefixes[i]));
    lone.partition.push_back(table.PartitionOf(q.keys[i]));
  }
  return lone;
}

// Opens path twice: one table answers alone, the other is asked by kThreads
// threads at once: threads 0 and 1 in key order from the first key (so that
// they meet on each partition's first use), thread 2 backwards, thread 3 from
// the middle, reading PartitionOf, partition_contents, corruption, io and
// info as it goes and loading every partition halfway. Expects the lone
// answers everywhere, every added key to match, and each partition to be read
// once. Returns the shared table.
std::unique_ptr<TableFilter> ExpectSharedAnswers(
    const std::string& path, const Queries& q,
    TableFilterOptions options = {}) {
  options.tail_prefetch_bytes = 0;  // every partition loads on first use
  absl::StatusOr<std::unique_ptr<TableFilter>> alone =
      TableFilter::OpenFile(path, options);
  EXPECT_TRUE(alone.ok()) << alone.status();
  if (!alone.ok()) return nullptr;
  const Lone lone = AskAlone(**alone, q);
  for (size_t i = 0; i < q.keys.size(); ++i) {
    if (q.added[i]) {
      EXPECT_TRUE(lone.key[i]) << "false negative " << q.keys[i];
    }
  }
  // And the filter is read: most absent keys are ruled out.
  EXPECT_LT(std::count(lone.key.begin(), lone.key.end(), 1), 1.2 * kKeys);

  absl::StatusOr<std::unique_ptr<TableFilter>> opened =
      TableFilter::OpenFile(path, options);
  EXPECT_TRUE(opened.ok()) << opened.status();
  if (!opened.ok()) return nullptr;
  const TableFilter& table = **opened;
  const IoStats at_open = table.io();
  const size_t n = q.keys.size();
  std::vector<uint64_t> mismatches(kThreads, 0);
  RunOnThreads(kThreads, [&](int t) {
    uint64_t& mine = mismatches[t];
    for (size_t j = 0; j < n; ++j) {
      const size_t i = t <= 1 ? j : t == 2 ? n - 1 - j : (j + n / 2) % n;
      mine += table.KeyMayMatch(q.keys[i]) != static_cast<bool>(lone.key[i]);
      mine += table.PrefixMayMatch(q.prefixes[i]) !=
              static_cast<bool>(lone.prefix[i]);
      if (t != 3) continue;
      const std::optional<size_t> partition = table.PartitionOf(q.keys[i]);
      mine += partition != lone.partition[i];
      // Empty until loaded, then the partition's bytes: never torn.
      if (partition.has_value()) {
        const absl::string_view contents = table.partition_contents(*partition);
        mine +=
            !contents.empty() &&
            contents.size() != table.info().partitions[*partition].handle.size;
      }
      if (j % 64 == 0) {
        (void)table.corruption();
        (void)table.io();
      }
      if (j == n / 2) (void)table.LoadAllPartitions();
    }
  });
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(mismatches[t], 0u) << "thread " << t;
  if (table.corruption().ok()) {
    EXPECT_EQ(table.io().reads - at_open.reads,
              static_cast<int>(table.info().partitions.size()))
        << "each partition read once";
  }
  return *std::move(opened);
}

class SharedTableFilterTest : public testing::Test {
 protected:
  SharedTableFilterTest()
      : keys_(test::SortedHexKeys(kKeys, 1)), queries_(MakeQueries(keys_)) {}

  std::string Path(const std::string& name) { return dir_.File(name); }

  // RocksDB table options with a filter of many small partitions.
  static test::RocksDbTableOptions Partitioned(
      std::shared_ptr<const rocksdb::FilterPolicy> policy) {
    test::RocksDbTableOptions options;
    options.filter_policy = std::move(policy);
    options.partition_filters = true;
    options.metadata_block_size = 256;
    return options;
  }

  test::TempDir dir_;
  std::vector<std::string> keys_;
  Queries queries_;
};

TEST_F(SharedTableFilterTest, EveryPolicyInEveryLayout) {
  for (const FamilyVariant& factory : RegisteredFamilyVariants()) {
    SCOPED_TRACE(factory.spec);
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> made =
        factory.factory(FilterOptions::Fpp(0.01));
    ASSERT_TRUE(made.ok()) << made.status();
    const std::shared_ptr<const FilterPolicy> policy = *std::move(made);

    const std::string full = Path(absl::StrCat(factory.spec, ".sst"));
    ASSERT_TRUE(test::WriteRocksDbTableWith(policy, full, keys_).ok());
    ExpectSharedAnswers(full, queries_);

    const std::string partitioned =
        Path(absl::StrCat(factory.spec, "_partitioned.sst"));
    ASSERT_TRUE(
        test::WriteRocksDbTable(partitioned, keys_,
                                Partitioned(AsRocksDbFilterPolicy(policy)))
            .ok());
    std::unique_ptr<TableFilter> table =
        ExpectSharedAnswers(partitioned, queries_);
    ASSERT_NE(table, nullptr);
    EXPECT_GT(table->info().partitions.size(), 4u);

    const std::string per_2kb = Path(absl::StrCat(factory.spec, ".ldb"));
    ASSERT_TRUE(test::WriteLevelDbTableWith(policy, per_2kb, keys_).ok());
    TableFilterOptions user_keys;
    user_keys.index_keys = IndexKeys::kUser;
    table = ExpectSharedAnswers(per_2kb, queries_, user_keys);
    ASSERT_NE(table, nullptr);
    EXPECT_GT(table->info().num_filters, 1u);
  }
}

// The engines' own filters, read through the registered formats: RocksDB's
// FastLocalBloom and Ribbon, whole and partitioned, and LevelDB's Bloom.
TEST_F(SharedTableFilterTest, EnginesOwnFilters) {
  const std::vector<
      std::pair<std::string, std::shared_ptr<const rocksdb::FilterPolicy>>>
      rocksdb_policies = {
          {"bloom", std::shared_ptr<const rocksdb::FilterPolicy>(
                        rocksdb::NewBloomFilterPolicy(10))},
          {"ribbon", std::shared_ptr<const rocksdb::FilterPolicy>(
                         rocksdb::NewRibbonFilterPolicy(10))}};
  for (const auto& [name, policy] : rocksdb_policies) {
    SCOPED_TRACE(name);
    test::RocksDbTableOptions whole;
    whole.filter_policy = policy;
    ASSERT_TRUE(
        test::WriteRocksDbTable(Path(name + ".sst"), keys_, whole).ok());
    ExpectSharedAnswers(Path(name + ".sst"), queries_);
    ASSERT_TRUE(test::WriteRocksDbTable(Path(name + "_partitioned.sst"), keys_,
                                        Partitioned(policy))
                    .ok());
    ExpectSharedAnswers(Path(name + "_partitioned.sst"), queries_);
  }

  std::unique_ptr<const leveldb::FilterPolicy> leveldb_bloom(
      leveldb::NewBloomFilterPolicy(10));
  test::LevelDbTableOptions leveldb_options;
  leveldb_options.filter_policy = leveldb_bloom.get();
  ASSERT_TRUE(
      test::WriteLevelDbTable(Path("leveldb.ldb"), keys_, leveldb_options)
          .ok());
  TableFilterOptions user_keys;
  user_keys.index_keys = IndexKeys::kUser;
  ExpectSharedAnswers(Path("leveldb.ldb"), queries_, user_keys);
}

// Filters of prefixes and whole keys: PrefixMayMatch and KeyMayMatch at once,
// whole and partitioned.
TEST_F(SharedTableFilterTest, Prefixes) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> made =
      RegisteredFamilyVariants().front().factory(FilterOptions::Fpp(0.01));
  ASSERT_TRUE(made.ok()) << made.status();
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      AsRocksDbFilterPolicy(*std::move(made));
  for (bool partitioned : {false, true}) {
    SCOPED_TRACE(partitioned ? "partitioned" : "whole");
    test::RocksDbTableOptions options =
        partitioned ? Partitioned(policy) : test::RocksDbTableOptions();
    options.filter_policy = policy;
    options.prefix_extractor.reset(
        rocksdb::NewFixedPrefixTransform(kPrefixBytes));
    const std::string path = Path(partitioned ? "prefix_p.sst" : "prefix.sst");
    ASSERT_TRUE(test::WriteRocksDbTable(path, keys_, options).ok());
    std::unique_ptr<TableFilter> table = ExpectSharedAnswers(path, queries_);
    ASSERT_NE(table, nullptr);
    ASSERT_TRUE(table->FiltersPrefixes());
    // Some prefixes of absent keys are ruled out: the prefixes are filtered.
    size_t ruled_out = 0;
    for (const std::string& prefix : queries_.prefixes)
      ruled_out += !table->PrefixMayMatch(prefix);
    EXPECT_GT(ruled_out, 0u);
  }
}

// A partition whose checksum fails, loaded by racing threads: each thread gets
// "may match" for its keys, the other partitions still filter, and the error
// is recorded once, whoever loaded it.
TEST_F(SharedTableFilterTest, CorruptPartitionLoadedByRacingThreads) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> made =
      RegisteredFamilyVariants().front().factory(FilterOptions::Fpp(0.01));
  ASSERT_TRUE(made.ok()) << made.status();
  const std::string path = Path("damaged.sst");
  ASSERT_TRUE(
      test::WriteRocksDbTable(
          path, keys_, Partitioned(AsRocksDbFilterPolicy(*std::move(made))))
          .ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> intact =
      TableFilter::OpenFile(path, {});
  ASSERT_TRUE(intact.ok()) << intact.status();
  const std::vector<FilterPartition> partitions = (*intact)->info().partitions;
  ASSERT_GT(partitions.size(), 4u);
  absl::StatusOr<std::string> bytes = test::ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  const BlockHandle damaged = partitions[partitions.size() / 2].handle;
  (*bytes)[damaged.offset + damaged.size / 2] ^= 0x01;
  ASSERT_TRUE(test::WriteFileBytes(path, *bytes).ok());

  std::unique_ptr<TableFilter> table = ExpectSharedAnswers(path, queries_);
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->corruption().ok());
}

// Tables opened on several threads at once into one FilterArena, then each
// asked by every thread.
TEST_F(SharedTableFilterTest, TablesOpenedIntoOneArena) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> made =
      RegisteredFamilyVariants().front().factory(FilterOptions::Fpp(0.01));
  ASSERT_TRUE(made.ok()) << made.status();
  const std::shared_ptr<const FilterPolicy> policy = *std::move(made);
  const std::string path = Path("arena.sst");
  ASSERT_TRUE(test::WriteRocksDbTableWith(policy, path, keys_).ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> alone =
      TableFilter::OpenFile(path, {});
  ASSERT_TRUE(alone.ok()) << alone.status();
  const Lone lone = AskAlone(**alone, queries_);

  FilterArena arena;
  TableFilterOptions options;
  options.filter_arena = &arena;
  std::vector<std::unique_ptr<TableFilter>> tables(kThreads);
  RunOnThreads(kThreads, [&](int t) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, options);
    if (table.ok()) tables[t] = *std::move(table);
  });
  std::vector<uint64_t> mismatches(kThreads, 0);
  RunOnThreads(kThreads, [&](int t) {
    for (size_t i = 0; i < queries_.keys.size(); ++i) {
      const TableFilter* table = tables[(t + i) % kThreads].get();
      mismatches[t] +=
          table == nullptr || table->KeyMayMatch(queries_.keys[i]) !=
                                  static_cast<bool>(lone.key[i]);
    }
  });
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(mismatches[t], 0u) << "thread " << t;
}

}  // namespace
}  // namespace sstfilter
