// Writes seeds for the table fuzzers: small tables with partitioned filters
// and prefixes, written by RocksDB 7.8.3 (SstFileWriter) and by our own
// partitioned builder, so that mutations start from valid partition indexes,
// partitions and prefix properties. Usage: make_partitioned_corpus DIR
// (writes DIR/table_file_fuzzer/* and DIR/table_block_fuzzer/*).

#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/prefix_extractor.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "table/meta_blocks.h"
#include "table/partitioned_filter_block.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "table/testing/table_assembler.h"
#include "util/grouped_keys.h"

namespace sstfilter {
namespace {

// Few keys and tiny blocks: each input stays cheap to run, yet has several
// partitions.
constexpr size_t kGroups = 3;
constexpr size_t kKeysPerGroup = 12;
constexpr size_t kKeysPerDataBlock = 6;

int Fail(const absl::Status& status) {
  std::cerr << "make_partitioned_corpus: " << status << "\n";
  return 1;
}

absl::Status WriteRocksDbSeeds(const std::string& dir,
                               const GroupedKeys& keys) {
  struct Seed {
    const char* name;
    int format_version;
    bool prefixes;
    bool whole_keys;
    bool native;
  };
  for (const Seed& seed :
       {Seed{"rocksdb_partitioned_fv5", 5, false, true, true},
        Seed{"rocksdb_partitioned_fv2", 2, false, true, true},
        Seed{"rocksdb_partitioned_prefix", 5, true, true, false},
        Seed{"rocksdb_prefix_only", 5, true, false, true}}) {
    test::RocksDbTableOptions options;
    options.filter_policy =
        seed.native ? AsRocksDbFilterPolicy(std::move(
                          *NewBloomFilterPolicy(FilterOptions::Fpp(0.01))))
                    : std::shared_ptr<const rocksdb::FilterPolicy>(
                          rocksdb::NewBloomFilterPolicy(10));
    options.format_version = seed.format_version;
    options.partition_filters = true;
    options.metadata_block_size = 64;
    options.block_size = 128;
    options.index_block_restart_interval = 2;
    options.whole_key_filtering = seed.whole_keys;
    if (seed.prefixes) {
      options.prefix_extractor.reset(
          rocksdb::NewFixedPrefixTransform(kGroupPrefixBytes));
    }
    const std::string path =
        absl::StrCat(dir, "/table_file_fuzzer/", seed.name);
    if (absl::Status s = test::WriteRocksDbTable(path, keys.keys, options);
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status WriteOwnSeeds(const std::string& dir, const GroupedKeys& keys) {
  std::unique_ptr<const FilterPolicy> policy =
      std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(0.01)));
  PartitionedFilterOptions options;
  options.keys.keys = FilterKeys::kWholeKeysAndPrefixes;
  options.keys.prefix_extractor = NewFixedPrefixExtractor(kGroupPrefixBytes);
  options.partition_bytes = 32;
  const test::AssembledTable table = test::AssemblePartitionedTable(
      *policy, options, keys.keys, kKeysPerDataBlock, /*user_keys=*/true);
  return test::WriteFileBytes(
      absl::StrCat(dir, "/table_file_fuzzer/own_partitioned_prefix"),
      table.file);
}

// The partition index of the table file `name` wrote, as a seed of the block
// fuzzer.
absl::Status WriteIndexSeed(const std::string& dir, const std::string& name) {
  const std::string path = absl::StrCat(dir, "/table_file_fuzzer/", name);
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  if (!table.ok()) return table.status();
  absl::StatusOr<std::string> bytes = test::ReadFileBytes(path);
  if (!bytes.ok()) return bytes.status();
  const BlockHandle& handle = (*table)->info().filter->handle;
  return test::WriteFileBytes(
      absl::StrCat(dir, "/table_block_fuzzer/partition_index_", name),
      bytes->substr(handle.offset, handle.size));
}

int Main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_partitioned_corpus DIR\n";
    return 2;
  }
  const GroupedKeys keys =
      MakeReadableGroupedKeys(kGroups, kKeysPerGroup, 0, /*seed=*/1);
  if (absl::Status s = WriteRocksDbSeeds(argv[1], keys); !s.ok())
    return Fail(s);
  if (absl::Status s = WriteOwnSeeds(argv[1], keys); !s.ok()) return Fail(s);
  for (const char* name :
       {"own_partitioned_prefix", "rocksdb_partitioned_fv5"}) {
    if (absl::Status s = WriteIndexSeed(argv[1], name); !s.ok()) return Fail(s);
  }
  return 0;
}

}  // namespace
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::Main(argc, argv); }
