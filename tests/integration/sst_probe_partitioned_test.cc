// sst_probe on tables with partitioned filters and prefixes, written by
// RocksDB 7.8.3 and by our own builder: each key's partition, prefix
// questions, the partitions in the summary, and one read per partition asked.

#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/prefix_extractor.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "rocksdb/slice_transform.h"
#include "table/meta_blocks.h"
#include "table/partitioned_filter_block.h"
#include "table/testing/real_tables.h"
#include "table/testing/sst_probe_run.h"
#include "table/testing/table_assembler.h"
#include "util/grouped_keys.h"

namespace sstfilter {
namespace {

using test::JsonLines;
using test::ProbeRun;
using test::RunProbe;

constexpr int kExitUsage = 2;
constexpr size_t kAsked = 100;
constexpr size_t kKeysPerDataBlock = 16;

const GroupedKeys& Keys() {
  static const GroupedKeys* keys = new GroupedKeys(
      MakeReadableGroupedKeys(400, 25, /*absent_keys=*/kAsked, /*seed=*/5));
  return *keys;
}

std::vector<std::string> Prefixes(const std::vector<std::string>& keys) {
  std::vector<std::string> prefixes;
  for (size_t i = 0; i < kAsked; ++i) {
    prefixes.push_back(keys[i].substr(0, kGroupPrefixBytes));
  }
  return prefixes;
}

class SstProbePartitionedTest : public testing::Test {
 protected:
  std::vector<nlohmann::json> Probe(const std::string& path,
                                    const std::vector<std::string>& flags,
                                    const std::vector<std::string>& keys) {
    // The smallest tail: every partition asked is read on its own.
    std::vector<std::string> args = {"--format=json",
                                     "--tail_prefetch_bytes=0"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(path);
    args.insert(args.end(), keys.begin(), keys.end());
    const ProbeRun run = RunProbe(dir_, args);
    EXPECT_EQ(run.exit_status, 0) << run.err;
    return JsonLines(run.out);
  }

  // Present keys and prefixes all match, each in a partition; absent ones
  // are mostly ruled out; the reads are the open's plus one per partition
  // asked.
  void ExpectPartitionedAnswers(const std::string& path) {
    const std::vector<std::string> present(Keys().keys.begin(),
                                           Keys().keys.begin() + kAsked);
    const std::vector<nlohmann::json> one = Probe(path, {}, {present[0]});
    ASSERT_EQ(one.size(), 2u);
    const int open_reads = one.back()["reads"].get<int>() - 1;

    std::vector<std::string> asked = present;
    asked.insert(asked.end(), Keys().absent_in_absent_groups.begin(),
                 Keys().absent_in_absent_groups.end());
    const std::vector<nlohmann::json> out = Probe(path, {}, asked);
    ASSERT_EQ(out.size(), asked.size() + 1);
    std::set<int> partitions;
    int ruled_out = 0;
    for (size_t i = 0; i < asked.size(); ++i) {
      if (i < kAsked) {
        EXPECT_EQ(out[i]["may_match"], true) << asked[i];
      }
      ruled_out += out[i]["may_match"] == false;
      if (out[i].contains("partition")) {
        partitions.insert(out[i]["partition"].get<int>());
      }
    }
    EXPECT_GE(ruled_out, 0.9 * kAsked);
    const nlohmann::json& summary = out.back();
    EXPECT_EQ(summary["layout"], "partitioned") << summary.dump();
    EXPECT_GT(summary["num_filters"].get<int>(), 8) << summary.dump();
    EXPECT_LT(partitions.size(), summary["num_filters"].get<size_t>());
    EXPECT_EQ(summary["reads"].get<int>(),
              open_reads + static_cast<int>(partitions.size()))
        << "one read per partition asked";
    EXPECT_EQ(summary["partitions_described"].get<size_t>(), partitions.size());

    const std::vector<nlohmann::json> present_prefixes =
        Probe(path, {"--prefix"}, Prefixes(Keys().keys));
    for (size_t i = 0; i < kAsked; ++i) {
      EXPECT_EQ(present_prefixes[i]["may_match"], true);
    }
    const std::vector<nlohmann::json> absent_prefixes =
        Probe(path, {"--prefix"}, Prefixes(Keys().absent_in_absent_groups));
    int prefixes_ruled_out = 0;
    for (size_t i = 0; i < kAsked; ++i) {
      prefixes_ruled_out += absent_prefixes[i]["may_match"] == false;
    }
    EXPECT_GE(prefixes_ruled_out, 0.9 * kAsked);
    // Under another extractor's name, no prefix is ruled out.
    const std::vector<nlohmann::json> other =
        Probe(path, {"--prefix", "--prefix_extractor=rocksdb.FixedPrefix.4"},
              Prefixes(Keys().absent_in_absent_groups));
    for (size_t i = 0; i < kAsked; ++i) EXPECT_EQ(other[i]["may_match"], true);

    const ProbeRun stats = RunProbe(dir_, {"--stats", path});
    EXPECT_EQ(stats.exit_status, 0) << stats.err;
    EXPECT_TRUE(absl::StrContains(stats.out, "partitioned layout"))
        << stats.out;
    EXPECT_TRUE(absl::StrContains(stats.out, "partitions of")) << stats.out;
    EXPECT_TRUE(absl::StrContains(
        stats.out, "whole keys and prefixes (rocksdb.FixedPrefix.8)"))
        << stats.out;
  }

  test::TempDir dir_;
};

TEST_F(SstProbePartitionedTest, RocksDbTable) {
  test::RocksDbTableOptions options;
  options.filter_policy = AsRocksDbFilterPolicy(
      std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(0.01))));
  options.partition_filters = true;
  options.metadata_block_size = 512;
  options.block_size = 1024;
  options.prefix_extractor.reset(
      rocksdb::NewFixedPrefixTransform(kGroupPrefixBytes));
  const std::string path = dir_.File("rocksdb.sst");
  ASSERT_TRUE(test::WriteRocksDbTable(path, Keys().keys, options).ok());
  ExpectPartitionedAnswers(path);
}

TEST_F(SstProbePartitionedTest, OwnBuilderTable) {
  std::unique_ptr<const FilterPolicy> policy =
      std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(0.01)));
  PartitionedFilterOptions options;
  options.keys.keys = FilterKeys::kWholeKeysAndPrefixes;
  options.keys.prefix_extractor = NewFixedPrefixExtractor(kGroupPrefixBytes);
  options.partition_bytes = 512;
  const test::AssembledTable table = test::AssemblePartitionedTable(
      *policy, options, Keys().keys, kKeysPerDataBlock, /*user_keys=*/true);
  const std::string path = dir_.File("own.sst");
  ASSERT_TRUE(test::WriteFileBytes(path, table.file).ok());
  ExpectPartitionedAnswers(path);
}

TEST_F(SstProbePartitionedTest, UnknownExtractorNameIsAUsageError) {
  const ProbeRun run = RunProbe(
      dir_, {"--prefix_extractor=rocksdb.Noop", dir_.File("x.sst"), "k"});
  EXPECT_EQ(run.exit_status, kExitUsage);
  EXPECT_TRUE(absl::StrContains(run.err, "rocksdb.Noop")) << run.err;
}

}  // namespace
}  // namespace sstfilter
