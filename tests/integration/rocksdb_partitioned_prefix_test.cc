// sstfilter's native and compact filters inside real RocksDB databases (7.8.3,
// or 9.7.4 under --config=rocksdb9) with prefix extractors and partitioned
// filters, through AsRocksDbFilterPolicy. For each table configuration (a full
// filter, or partitions with a two-level index, and with RocksDB 9 also
// partitions cut apart from the index's, decouple_partitioned_filters; no
// prefix extractor, or a fixed-length
// one with whole-key filtering on or off; filter blocks held by the table
// readers, or in a small block cache), a database of about 64,000 keys under
// 4,000 prefixes is written, flushed and compacted into several tables, and
// then:
//  - every key is found by Get, MultiGet and a prefix Seek;
//  - absent keys and seeks to absent prefixes skip data blocks at the
//    filter's rate, counted by RocksDB's statistics;
//  - read with RocksDB's own Bloom policy and then with ours again, nothing
//    is lost.
// LevelDB has neither prefix extractors nor partitioned filters: no LevelDB
// counterpart.

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/version.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "tests/integration/rocksdb_db_util.h"
#include "tests/integration/rocksdb_prefix_keys.h"

namespace sstfilter {
namespace test {
namespace {

constexpr size_t kPrefixes = 4000;
constexpr size_t kMeanKeysPerPrefix = 16;
constexpr size_t kAbsentLookups = 20000;  // of each kind
constexpr uint64_t kSeed = 2401;
constexpr double kFpp = 0.01;
constexpr size_t kMultiGetKeys = 100;  // RocksDB splits it into batches of 32

// Small blocks, tables and write buffers, so that the 64,000 keys (1.9 MB of
// data blocks) make several tables, each with about a hundred filter partitions
// when partitioned (RocksDB cuts a partition at the end of the data block in
// which it holds as many keys as a filter of metadata_block_size less 10%
// takes, or its index partition is full).
constexpr size_t kBlockBytes = 1024;
constexpr uint64_t kMetadataBlockBytes = 256;
constexpr size_t kWriteBufferBytes = 1 << 20;
constexpr uint64_t kTableBytes = 512 << 10;
// Smaller than the index and filter blocks together (56 to 190 KB) and shared
// with the data blocks, so that filter blocks and partitions do not all stay
// cached.
constexpr size_t kSmallCacheBytes = 64 << 10;

// Both families promise a measured rate of at most 1.05 fpp
// (filter/bloom/bloom_fpp_test.cc, filter/burr/burr_fpp_test.cc); a count of
// lookups passing a filter is allowed this many binomial standard deviations
// above that.
constexpr double kPromisedFppFactor = 1.05;
constexpr double kSigmas = 5;

enum class Family { kNative, kCompact };
enum class Prefixes { kNone, kAndWholeKeys, kOnly };

struct DbConfig {
  Family family;
  bool partitioned;  // partition_filters with kTwoLevelIndexSearch
  Prefixes prefixes;
  bool filters_in_cache;  // cache_index_and_filter_blocks, small block cache
  // With partitioned: decouple_partitioned_filters (RocksDB 9.6 and later),
  // filter partitions cut by their own size, not at the index partitions'.
  bool decoupled = false;
};

// RocksDB releases with decouple_partitioned_filters.
constexpr bool kCanDecouplePartitions = ROCKSDB_MAJOR >= 9;

std::string ConfigName(const DbConfig& config) {
  return absl::StrCat(
      config.family == Family::kNative ? "Native" : "Compact",
      config.partitioned ? (config.decoupled ? "Decoupled" : "Partitioned")
                         : "Full",
      config.prefixes == Prefixes::kNone           ? "NoPrefix"
      : config.prefixes == Prefixes::kAndWholeKeys ? "PrefixAndWholeKey"
                                                   : "PrefixOnly",
      config.filters_in_cache ? "FiltersInCache" : "FiltersInReaders");
}

std::vector<DbConfig> AllConfigs() {
  std::vector<DbConfig> configs;
  for (Family family : {Family::kNative, Family::kCompact}) {
    for (bool partitioned : {false, true}) {
      for (Prefixes prefixes :
           {Prefixes::kNone, Prefixes::kAndWholeKeys, Prefixes::kOnly}) {
        for (bool filters_in_cache : {false, true}) {
          configs.push_back({family, partitioned, prefixes, filters_in_cache});
          if (partitioned && kCanDecouplePartitions) {
            configs.push_back({family, partitioned, prefixes, filters_in_cache,
                               /*decoupled=*/true});
          }
        }
      }
    }
  }
  return configs;
}

std::shared_ptr<const FilterPolicy> PolicyOf(Family family) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      family == Family::kNative ? NewBloomFilterPolicy(FilterOptions::Fpp(kFpp))
                                : NewBurrFilterPolicy(FilterOptions::Fpp(kFpp));
  EXPECT_TRUE(policy.ok()) << policy.status();
  return policy.ok() ? std::shared_ptr<const FilterPolicy>(std::move(*policy))
                     : nullptr;
}

// CountingOptions (rocksdb_db_util.h) shaped by config, with filter_policy.
rocksdb::Options ConfigOptions(
    const DbConfig& config,
    std::shared_ptr<const rocksdb::FilterPolicy> filter_policy) {
  rocksdb::BlockBasedTableOptions table =
      CountingTableOptions(std::move(filter_policy));
  table.block_size = kBlockBytes;
  table.metadata_block_size = kMetadataBlockBytes;
  if (config.partitioned) {
    table.partition_filters = true;
    table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
#if ROCKSDB_MAJOR >= 9
    table.decouple_partitioned_filters = config.decoupled;
#endif
  }
  table.whole_key_filtering = config.prefixes != Prefixes::kOnly;
  if (config.filters_in_cache) {
    table.cache_index_and_filter_blocks = true;
    table.block_cache = rocksdb::NewLRUCache(kSmallCacheBytes);
  }
  rocksdb::Options options = CountingOptions(table);
  if (config.prefixes != Prefixes::kNone) {
    options.prefix_extractor.reset(
        rocksdb::NewFixedPrefixTransform(kPrefixBytes));
  }
  options.write_buffer_size = kWriteBufferBytes;
  options.target_file_size_base = kTableBytes;
  // The flushed tables stay in L0 until the one compaction after the writes.
  options.disable_auto_compactions = true;
  return options;
}

// The most of `reached` absent-key lookups that a filter made with
// Fpp(kFpp) lets through, with the statistical margin above.
double MostPassing(uint64_t reached) {
  const double p = kPromisedFppFactor * kFpp;
  const double mean = static_cast<double>(reached) * p;
  return mean + kSigmas * std::sqrt(mean * (1 - p));
}

enum class Lookup { kGet, kMultiGet, kSeek };

const char* LookupName(Lookup how) {
  switch (how) {
    case Lookup::kGet:
      return "Get";
    case Lookup::kMultiGet:
      return "MultiGet";
    case Lookup::kSeek:
      return "Seek";
  }
  return "?";
}

// What a run of lookups for absent keys (or seeks to absent prefixes) cost.
struct AbsentRun {
  Lookup how = Lookup::kGet;
  size_t lookups = 0;
  size_t reached = 0;     // lookups that reached a table (one each)
  size_t unexpected = 0;  // lookups that found something or failed
  ReadTickers delta;

  // A filter said no: BLOOM_FILTER_USEFUL counts Get's whole-key and prefix
  // answers and MultiGet's whole-key ones, BLOOM_FILTER_PREFIX_USEFUL
  // MultiGet's prefix answers and the seeks'.
  uint64_t Filtered() const {
    return delta.filter_useful + delta.prefix_useful;
  }
  uint64_t DataBlocks() const { return delta.data_misses + delta.data_hits; }
};

// The filter let at most MostPassing of the lookups that reached a table
// through, and each that passed read one data block (Get and Seek exactly
// one; MultiGet reads a block once for the keys of a batch that need it).
void ExpectFilteredAtFpp(const AbsentRun& run, const std::string& what) {
  EXPECT_EQ(run.unexpected, 0u) << what;
  // The tables cover the key space but for the gaps between them: a bound on
  // few lookups would say little.
  EXPECT_GE(run.reached, run.lookups * 9 / 10) << what;
  ASSERT_LE(run.Filtered(), run.reached) << what;
  const uint64_t passed = run.reached - run.Filtered();
  const double most = MostPassing(run.reached);
  std::printf(
      "%s: %zu of %zu reached a table, %llu passed the filter (%.3f%%, at "
      "most %.0f), %llu data blocks read\n",
      what.c_str(), run.reached, run.lookups,
      static_cast<unsigned long long>(passed), 100.0 * passed / run.reached,
      most, static_cast<unsigned long long>(run.DataBlocks()));
  EXPECT_LE(static_cast<double>(passed), most) << what;
  if (run.how == Lookup::kMultiGet) {
    EXPECT_LE(run.DataBlocks(), passed) << what;
  } else {
    EXPECT_EQ(run.DataBlocks(), passed) << what;
  }
}

// No filter said no: each lookup that reached a table read a data block.
void ExpectUnfiltered(const AbsentRun& run, const std::string& what) {
  EXPECT_EQ(run.unexpected, 0u) << what;
  EXPECT_EQ(run.Filtered(), 0u) << what;
  std::printf(
      "%s: %zu of %zu reached a table, none filtered, %llu data "
      "blocks read\n",
      what.c_str(), run.reached, run.lookups,
      static_cast<unsigned long long>(run.DataBlocks()));
  if (run.how == Lookup::kMultiGet) {
    EXPECT_LE(run.DataBlocks(), run.reached) << what;
  } else {
    EXPECT_EQ(run.DataBlocks(), run.reached) << what;
  }
}

// One database per configuration, written on first use and kept for the
// configuration's other cases; every case only reads it.
struct BuiltDb {
  std::unique_ptr<TempDir> dir;
  absl::Status built;
};

class RocksDbPartitionedPrefixTest : public testing::TestWithParam<DbConfig> {
 protected:
  static void SetUpTestSuite() {
    keys_ = new PrefixedKeys(
        MakePrefixedKeys(kPrefixes, kMeanKeysPerPrefix, kAbsentLookups, kSeed));
    dbs_ = new std::map<std::string, BuiltDb>;
  }
  static void TearDownTestSuite() {
    delete dbs_;
    dbs_ = nullptr;
    delete keys_;
    keys_ = nullptr;
  }

  void SetUp() override {
    BuiltDb& db = (*dbs_)[ConfigName(GetParam())];
    if (db.dir == nullptr) {
      db.dir = std::make_unique<TempDir>();
      db.built = WriteFlushAndCompact(ConfigOptions(GetParam(), Ours()),
                                      db.dir->path(), keys().entries);
    }
    ASSERT_TRUE(db.built.ok()) << db.built;
    path_ = db.dir->path();
  }

  static const PrefixedKeys& keys() { return *keys_; }
  const DbConfig& config() const { return GetParam(); }

  // The policy under test, as RocksDB sees it.
  std::shared_ptr<const rocksdb::FilterPolicy> Ours() const {
    return AsRocksDbFilterPolicy(PolicyOf(config().family));
  }

  // Opens this configuration's database with filter_policy; options_ holds
  // the options, with their statistics.
  std::unique_ptr<rocksdb::DB> Open(
      std::shared_ptr<const rocksdb::FilterPolicy> filter_policy) {
    options_ = ConfigOptions(config(), std::move(filter_policy));
    absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(options_, path_);
    EXPECT_TRUE(db.ok()) << db.status();
    return db.ok() ? *std::move(db) : nullptr;
  }

  // Every key found by Get, MultiGet, and the scan of its prefix.
  void ExpectEveryKeyReadBack(rocksdb::DB* db, const std::string& policy) {
    const size_t n = keys().entries.size();
    ExpectEveryKeyFound(GetAll(db, keys().entries), n,
                        absl::StrCat("Get, ", policy).c_str());
    ExpectEveryKeyFound(MultiGetAll(db, keys().entries, kMultiGetKeys), n,
                        absl::StrCat("MultiGet, ", policy).c_str());
    const PrefixScans scans = ScanEveryPrefix(db, keys());
    EXPECT_EQ(scans.exact, keys().prefixes.size())
        << "Seek, " << policy << ": " << scans.first_failure;
    EXPECT_EQ(scans.keys, n) << "Seek, " << policy;
  }

  // Looks up each of targets (absent keys, or absent prefixes to seek) the
  // way how says, counting what it cost.
  AbsentRun LookUpAbsent(rocksdb::DB* db, Lookup how,
                         const std::vector<std::string>& targets) const {
    AbsentRun run;
    run.how = how;
    run.lookups = targets.size();
    run.reached = how == Lookup::kSeek ? SeeksReachingATable(db, targets)
                                       : KeysInTableRanges(db, targets);
    const ReadTickers before = Tickers(*options_.statistics);
    switch (how) {
      case Lookup::kGet:
        run.unexpected = GetAbsent(db, targets);
        break;
      case Lookup::kMultiGet:
        run.unexpected = MultiGetAbsent(db, targets, kMultiGetKeys);
        break;
      case Lookup::kSeek:
        run.unexpected = SeekAbsentPrefixes(db, targets);
        break;
    }
    run.delta = Tickers(*options_.statistics) - before;
    return run;
  }

  // "<config>, <lookup> <what>".
  std::string Describe(Lookup how, const char* what) const {
    return absl::StrCat(ConfigName(config()), ", ", LookupName(how), " ", what);
  }

  // Whether a Get that reaches a table asks the block cache for a filter
  // block: for its filter partition (the top level stays with the table
  // reader, or pinned in the cache), or for the full filter when the cache
  // holds filters; not for a full filter the table reader holds.
  bool GetReadsAFilterBlock() const {
    return config().partitioned || config().filters_in_cache;
  }

  rocksdb::Options options_;

 private:
  static PrefixedKeys* keys_;
  static std::map<std::string, BuiltDb>* dbs_;
  std::string path_;
};

PrefixedKeys* RocksDbPartitionedPrefixTest::keys_ = nullptr;
std::map<std::string, BuiltDb>* RocksDbPartitionedPrefixTest::dbs_ = nullptr;

// Neither filter says no to a present key or prefix: Get and MultiGet find
// every key, and each prefix's Seek (one filter check of the prefix in the
// table the seek lands in) returns exactly the prefix's keys.
TEST_P(RocksDbPartitionedPrefixTest, EveryKeyIsFound) {
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  const ReadTickers start = Tickers(*options_.statistics);
  ExpectEveryKeyReadBack(db.get(), "ours");
  const ReadTickers delta = Tickers(*options_.statistics) - start;
  EXPECT_EQ(delta.filter_useful, 0u) << "a filter said no to a present key";
  EXPECT_EQ(delta.prefix_useful, 0u) << "a filter said no to a present prefix";
  if (config().prefixes == Prefixes::kNone) {
    EXPECT_EQ(delta.prefix_checked, 0u);
  } else {
    // Every prefix's seek asked the filter; point lookups ask for prefixes
    // too when the filter holds no whole keys.
    EXPECT_EQ(
        delta.prefix_checked,
        keys().prefixes.size() +
            (config().prefixes == Prefixes::kOnly
                 ? kPointLookupsCountingPrefixChecks * keys().entries.size()
                 : 0));
  }
}

// RocksDB's table properties: our filter in every table, holding the whole
// keys, the prefixes, or both, as configured; cut into partitions when
// partitioned.
TEST_P(RocksDbPartitionedPrefixTest, TablesHoldOurFilters) {
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  rocksdb::TablePropertiesCollection properties;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&properties).ok());
  ASSERT_GE(properties.size(), 3u) << "expected several tables";
  const std::string policy_name = PolicyOf(config().family)->Name();
  uint64_t entries = 0;
  uint64_t filter_entries = 0;
  uint64_t filter_bytes = 0;
  uint64_t partitions = 0;
  uint64_t index_bytes = 0;
  uint64_t data_bytes = 0;
  for (const auto& [path, table] : properties) {
    EXPECT_EQ(table->filter_policy_name, policy_name) << path;
    EXPECT_GT(table->filter_size, 0u) << path;
    EXPECT_EQ(table->prefix_extractor_name,
              config().prefixes == Prefixes::kNone
                  ? "nullptr"
                  : absl::StrCat("rocksdb.FixedPrefix.", kPrefixBytes))
        << path;
    if (config().partitioned) {
      // The filter's partitions, as sstfilter's table reader finds them:
      // coupled to the index, each index partition ends a filter partition
      // and the other way round; decoupled, they are cut apart.
      absl::StatusOr<std::unique_ptr<TableFilter>> reader =
          TableFilter::OpenFile(path, {});
      ASSERT_TRUE(reader.ok()) << reader.status();
      const uint64_t filter_partitions = (*reader)->info().partitions.size();
      EXPECT_GE(filter_partitions, 2u) << path;
      if (!config().decoupled) {
        EXPECT_EQ(filter_partitions, table->index_partitions) << path;
      }
      partitions += filter_partitions;
    }
    entries += table->num_entries;
    filter_entries += table->num_filter_entries;
    filter_bytes += table->filter_size;
    index_bytes += table->index_size;
    data_bytes += table->data_size;
  }
  std::printf(
      "%s: %zu tables, %llu data bytes, %llu index bytes, %llu filter "
      "entries, %llu filter bytes, %llu partitions\n",
      ConfigName(config()).c_str(), properties.size(),
      static_cast<unsigned long long>(data_bytes),
      static_cast<unsigned long long>(index_bytes),
      static_cast<unsigned long long>(filter_entries),
      static_cast<unsigned long long>(filter_bytes),
      static_cast<unsigned long long>(partitions));
  EXPECT_EQ(entries, keys().entries.size());
  // Every key and prefix once, and a few entries more where a filter starts
  // or ends, as RocksDB 7.8.3 and 9.7.4 add them: to a partition it closes, the
  // next key's prefix (PartitionedFilterBlockBuilder); at the start of the
  // next, the previous prefix again, for SeekForPrev
  // (FullFilterBlockBuilder::Add; without whole-key filtering that prefix is
  // never recorded, and an empty one goes in its place, also before a table's
  // second key, whose prefix then counts again); and a prefix whose keys span
  // two tables is in both. At most three for each table and two for each
  // partition.
  const uint64_t whole_keys =
      config().prefixes == Prefixes::kOnly ? 0 : keys().entries.size();
  if (config().prefixes == Prefixes::kNone) {
    EXPECT_EQ(filter_entries, whole_keys);
  } else {
    EXPECT_GE(filter_entries, whole_keys + kPrefixes);
    EXPECT_LE(filter_entries,
              whole_keys + kPrefixes + 3 * properties.size() + 2 * partitions);
  }
}

// Absent whole keys: the filter answers for the whole key when it holds whole
// keys; with prefixes only it answers for the prefix, which rules out the
// keys of absent prefixes but not absent keys of present ones.
TEST_P(RocksDbPartitionedPrefixTest, AbsentKeysSkipDataBlocks) {
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  for (Lookup how : {Lookup::kGet, Lookup::kMultiGet}) {
    const AbsentRun of_present =
        LookUpAbsent(db.get(), how, keys().absent_keys_of_present_prefixes);
    const std::string of_present_what =
        Describe(how, "absent keys of present prefixes");
    if (config().prefixes == Prefixes::kOnly) {
      ExpectUnfiltered(of_present, of_present_what);
    } else {
      ExpectFilteredAtFpp(of_present, of_present_what);
    }

    const AbsentRun of_absent =
        LookUpAbsent(db.get(), how, keys().keys_of_absent_prefixes);
    ExpectFilteredAtFpp(of_absent, Describe(how, "keys of absent prefixes"));
    if (config().prefixes == Prefixes::kOnly && how == Lookup::kMultiGet) {
      EXPECT_EQ(of_absent.delta.prefix_checked, of_absent.reached)
          << "MultiGet asks the filter for the prefix";
    }
    if (how == Lookup::kGet) {
      EXPECT_EQ(of_absent.delta.filter_misses + of_absent.delta.filter_hits,
                GetReadsAFilterBlock() ? of_absent.reached : 0u);
    }
  }
}

// A seek to an absent prefix asks the filter of the one table it lands in
// for the prefix, and reads a data block only when the filter says "maybe";
// without a prefix extractor there is no prefix to ask, and every seek reads
// the block it lands in.
TEST_P(RocksDbPartitionedPrefixTest, AbsentPrefixSeeksSkipDataBlocks) {
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  const AbsentRun run =
      LookUpAbsent(db.get(), Lookup::kSeek, keys().absent_prefixes);
  const std::string what = Describe(Lookup::kSeek, "absent prefixes");
  if (config().prefixes == Prefixes::kNone) {
    EXPECT_EQ(run.delta.prefix_checked, 0u);
    ExpectUnfiltered(run, what);
  } else {
    EXPECT_EQ(run.delta.prefix_checked, run.reached);
    ExpectFilteredAtFpp(run, what);
  }
}

// RocksDB finds a table's filter by the configured policy's name: it looks
// for "fullfilter.rocksdb.BuiltinBloomFilter" and
// "partitionedfilter.rocksdb.BuiltinBloomFilter", finds only
// "...sstfilter.LocalBloom1" or "...sstfilter.BumpedRibbon1", and reads the
// tables as if they had no filter: nothing is filtered and nothing is lost.
// Reading only, it rewrites no table, so ours then finds its filters again.
TEST_P(RocksDbPartitionedPrefixTest, ReadsBackWithRocksDbsOwnPolicyAndOurs) {
  {
    std::unique_ptr<rocksdb::DB> db =
        Open(std::shared_ptr<const rocksdb::FilterPolicy>(
            rocksdb::NewBloomFilterPolicy(10)));
    ASSERT_NE(db, nullptr);
    ExpectEveryKeyReadBack(db.get(), "RocksDB's policy");
    const AbsentRun run =
        LookUpAbsent(db.get(), Lookup::kGet, keys().keys_of_absent_prefixes);
    ExpectUnfiltered(
        run,
        Describe(Lookup::kGet, "keys of absent prefixes, RocksDB's policy"));
    EXPECT_EQ(run.delta.filter_misses + run.delta.filter_hits, 0u)
        << "RocksDB's policy read a filter block";
  }
  std::unique_ptr<rocksdb::DB> db = Open(Ours());
  ASSERT_NE(db, nullptr);
  ExpectEveryKeyReadBack(db.get(), "ours again");
  ExpectFilteredAtFpp(
      LookUpAbsent(db.get(), Lookup::kGet, keys().keys_of_absent_prefixes),
      Describe(Lookup::kGet, "keys of absent prefixes, ours again"));
}

INSTANTIATE_TEST_SUITE_P(Configs, RocksDbPartitionedPrefixTest,
                         testing::ValuesIn(AllConfigs()),
                         [](const testing::TestParamInfo<DbConfig>& param) {
                           return ConfigName(param.param);
                         });

}  // namespace
}  // namespace test
}  // namespace sstfilter
