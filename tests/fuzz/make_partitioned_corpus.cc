// Writes seeds for the table fuzzers: small tables with partitioned filters
// and prefixes, written by RocksDB 7.8.3 (SstFileWriter) and by our own
// partitioned builder, so that mutations start from valid partition indexes,
// partitions and prefix properties. Usage: make_partitioned_corpus DIR
// (writes DIR/table_file_fuzzer/* and DIR/table_block_fuzzer/*).

#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "filter/adapters/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/prefix_extractor.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "table/meta_blocks.h"
#include "table/partitioned_filter_block.h"
#include "tests/testing/grouped_keys.h"
#include "tests/testing/real_tables.h"
#include "tests/testing/table_assembler.h"

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
                               const test::GroupedKeys& keys) {
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
          rocksdb::NewFixedPrefixTransform(test::kGroupPrefixBytes));
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

absl::Status WriteOwnSeeds(const std::string& dir,
                           const test::GroupedKeys& keys) {
  std::unique_ptr<const FilterPolicy> policy =
      std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(0.01)));
  PartitionedFilterOptions options;
  options.keys.keys = FilterKeys::kWholeKeysAndPrefixes;
  options.keys.prefix_extractor =
      NewFixedPrefixExtractor(test::kGroupPrefixBytes);
  options.partition_bytes = 32;
  absl::StatusOr<std::unique_ptr<PartitionedFilterBlockBuilder>> builder =
      PartitionedFilterBlockBuilder::New(*policy, options);
  if (!builder.ok()) return builder.status();
  for (size_t start = 0; start < keys.keys.size(); start += kKeysPerDataBlock) {
    const size_t end = std::min(keys.keys.size(), start + kKeysPerDataBlock);
    for (size_t i = start; i < end; ++i) (*builder)->AddKey(keys.keys[i]);
    std::optional<absl::string_view> next;
    if (end < keys.keys.size()) next = keys.keys[end];
    (*builder)->EndDataBlock(keys.keys[end - 1], next);
  }
  test::TableAssembler table;
  absl::StatusOr<std::string> index = (*builder)->Finish(
      [&](absl::string_view partition) { return table.AddBlock(partition); });
  if (!index.ok()) return index.status();
  if (absl::Status s = test::WriteFileBytes(
          absl::StrCat(dir, "/table_block_fuzzer/partition_index"), *index);
      !s.ok()) {
    return s;
  }
  table.AddMetaBlock(absl::StrCat(kPartitionedFilterPrefix, policy->Name()),
                     table.AddBlock(*index));
  for (const auto& [name, value] : FilterKeysProperties(options.keys)) {
    table.AddProperty(name, value);
  }
  table.AddVarintProperty("rocksdb.index.key.is.user.key", 1);
  return test::WriteFileBytes(
      absl::StrCat(dir, "/table_file_fuzzer/own_partitioned_prefix"),
      table.Finish());
}

int Main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_partitioned_corpus DIR\n";
    return 2;
  }
  const test::GroupedKeys keys =
      test::MakeGroupedKeys(kGroups, kKeysPerGroup, 0, /*seed=*/1);
  if (absl::Status s = WriteRocksDbSeeds(argv[1], keys); !s.ok())
    return Fail(s);
  if (absl::Status s = WriteOwnSeeds(argv[1], keys); !s.ok()) return Fail(s);
  return 0;
}

}  // namespace
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::Main(argc, argv); }
