// sst_probe on the tables a real RocksDB database writes through
// AsRocksDbFilterPolicy at the newest format_version of the release linked
// (5 for RocksDB 7.8.3; 6, the default, for 9.7.4 under --config=rocksdb9):
// every present key may match, and a byte flipped in any block sst_probe reads
// (the footer at format_version 6, the metaindex, the filter block and each
// filter partition) is reported as corruption, with every key "may match".

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "gtest/gtest.h"
#include "rocksdb/version.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "table/testing/sst_probe_run.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr int kExitBadInput = 1;
constexpr int kNewestFormatVersion = ROCKSDB_MAJOR >= 9 ? 6 : 5;
constexpr size_t kKeys = 3000;
constexpr size_t kKeysAsked = 50;
// Flips per block: this many spread over its contents, and every byte of its
// trailer.
constexpr uint64_t kFlipsPerBlock = 24;

class SstProbeRocksDbDbTest : public testing::TestWithParam<bool> {
 protected:
  bool partitioned() const { return GetParam(); }

  // The one table file of a database holding keys_.
  std::string WriteTable() {
    test::RocksDbTableOptions options;
    options.filter_policy =
        AsRocksDbFilterPolicy(*NewBloomFilterPolicy(FilterOptions::Fpp(0.01)));
    options.format_version = kNewestFormatVersion;
    options.partition_filters = partitioned();
    options.metadata_block_size = 512;
    absl::StatusOr<std::vector<std::string>> files = test::WriteRocksDbDatabase(
        dir_.File("db"), keys_, options, /*keys_per_flush=*/kKeys,
        /*target_file_bytes=*/64 << 20);
    EXPECT_TRUE(files.ok()) << files.status();
    EXPECT_EQ(files.ok() ? files->size() : 0, 1u);
    return files.ok() && !files->empty() ? files->front() : "";
  }

  // Runs sst_probe on path for the first kKeysAsked keys; returns how many
  // it did not answer "may match", and its exit status.
  test::ProbeRun Probe(const std::string& path) {
    std::vector<std::string> args = {path};
    args.insert(args.end(), keys_.begin(), keys_.begin() + kKeysAsked);
    return test::RunProbe(dir_, args);
  }

  static size_t NotMayMatch(const test::ProbeRun& run) {
    size_t lines = 0;
    size_t not_may_match = 0;
    for (const std::string& line : test::Lines(run.out)) {
      if (lines++ == kKeysAsked) break;
      not_may_match += !absl::StartsWith(line, "may match");
    }
    return not_may_match + (lines < kKeysAsked ? kKeysAsked - lines : 0);
  }

  test::TempDir dir_;
  const std::vector<std::string> keys_ = test::SortedHexKeys(kKeys, 9, "key");
};

TEST_P(SstProbeRocksDbDbTest, ReadsEveryKeyAndReportsEveryFlippedBlock) {
  const std::string path = WriteTable();
  ASSERT_FALSE(path.empty());
  const test::ProbeRun clean = Probe(path);
  ASSERT_EQ(clean.exit_status, 0) << clean.err;
  EXPECT_EQ(NotMayMatch(clean), 0u) << clean.out;

  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  ASSERT_TRUE(table.ok()) << table.status();
  const TableFilterInfo& info = (*table)->info();
  ASSERT_EQ(info.footer.format_version,
            static_cast<uint32_t>(kNewestFormatVersion));
  ASSERT_TRUE(info.filter.has_value());
  EXPECT_EQ(info.partitions.size() > 1, partitioned());
  std::vector<BlockHandle> blocks = {info.footer.metaindex,
                                     info.filter->handle};
  for (const FilterPartition& partition : info.partitions) {
    blocks.push_back(partition.handle);
  }

  const std::string bytes = test::ReadFileBytes(path).value();
  std::vector<uint64_t> offsets;
  for (const BlockHandle& block : blocks) {
    const uint64_t step = std::max<uint64_t>(1, block.size / kFlipsPerBlock);
    for (uint64_t i = 0; i < block.size; i += step) {
      offsets.push_back(block.offset + i);
    }
    for (uint64_t i = 0; i < kBlockTrailerBytes; ++i) {
      offsets.push_back(block.offset + block.size + i);
    }
  }
  if (kNewestFormatVersion >= 6) {  // only format_version 6 checksums it
    for (uint64_t i = bytes.size() - kRocksDbFooterBytes; i < bytes.size();
         ++i) {
      offsets.push_back(i);
    }
  }
  const std::string damaged_path = dir_.File("damaged.sst");
  for (uint64_t offset : offsets) {
    std::string damaged = bytes;
    damaged[offset] = static_cast<char>(damaged[offset] ^ 0x04);
    ASSERT_TRUE(test::WriteFileBytes(damaged_path, damaged).ok());
    const test::ProbeRun run = Probe(damaged_path);
    EXPECT_EQ(run.exit_status, kExitBadInput)
        << "byte " << offset << " of " << bytes.size()
        << " flipped: " << run.err;
    // Past the footer and metaindex, the keys are answered: "may match".
    if (!run.out.empty()) {
      EXPECT_EQ(NotMayMatch(run), 0u)
          << "byte " << offset << " flipped: " << run.out;
    }
  }
  EXPECT_GT(offsets.size(), 2 * kFlipsPerBlock);
}

INSTANTIATE_TEST_SUITE_P(FullAndPartitioned, SstProbeRocksDbDbTest,
                         testing::Bool(),
                         [](const testing::TestParamInfo<bool>& param) {
                           return param.param ? "Partitioned" : "Full";
                         });

}  // namespace
}  // namespace sstfilter
