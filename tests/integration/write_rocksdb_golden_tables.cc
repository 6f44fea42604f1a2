// Writes the tables of rocksdb_golden_tables.h with the RocksDB this program
// is built against, which must be 9.7.4:
//
//   ./setup.sh --rocksdb9
//   bazel run --config=rocksdb9 //tests/integration:write_rocksdb_golden_tables
//       -- "$PWD/tests/integration/testdata/rocksdb-9.7.4"
//
// (one command line).
//
// Each table is written by rocksdb::SstFileWriter, as a flush would write it.
// A format_version 6 file mixes a random per-file value into its checksums,
// so two runs write different bytes that read the same.

#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/filter_policy.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/version.h"
#include "tests/integration/rocksdb_golden_tables.h"

namespace sstfilter {
namespace golden {
namespace {

rocksdb::ChecksumType RocksDbChecksum(Checksum checksum) {
  switch (checksum) {
    case Checksum::kCrc32c:
      return rocksdb::kCRC32c;
    case Checksum::kXxHash:
      return rocksdb::kxxHash;
    case Checksum::kXxHash64:
      return rocksdb::kxxHash64;
    case Checksum::kXxh3:
      return rocksdb::kXXH3;
  }
  return rocksdb::kXXH3;
}

absl::Status WriteTable(const GoldenTable& table, const std::string& dir) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.format_version = table.format_version;
  table_options.checksum = RocksDbChecksum(table.checksum);
  table_options.block_size = kGoldenBlockBytes;
  table_options.whole_key_filtering = true;
  if (table.filter == GoldenFilter::kRocksDbBloom) {
    table_options.filter_policy.reset(
        rocksdb::NewBloomFilterPolicy(kGoldenBitsPerKey));
  } else {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewBloomFilterPolicy(FilterOptions::BitsPerKey(kGoldenBitsPerKey));
    if (!policy.ok()) return policy.status();
    table_options.filter_policy = AsRocksDbFilterPolicy(std::move(*policy));
  }
  if (table.partitioning != Partitioning::kFull) {
    table_options.partition_filters = true;
    table_options.index_type =
        rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    table_options.metadata_block_size = kGoldenPartitionBytes;
#if ROCKSDB_MAJOR >= 9  // the option came with 9.6; main() refuses others
    table_options.decouple_partitioned_filters =
        table.partitioning == Partitioning::kPartitionedDecoupled;
#endif
  }
  rocksdb::Options options;
  options.compression = rocksdb::kNoCompression;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  if (table.prefix_extractor) {
    options.prefix_extractor.reset(
        rocksdb::NewFixedPrefixTransform(kGoldenPrefixBytes));
  }
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  const std::string path = absl::StrCat(dir, "/", table.file);
  rocksdb::Status s = writer.Open(path);
  for (size_t i = 0; s.ok() && i < kGoldenKeys; ++i) {
    s = writer.Put(GoldenKey(i), absl::StrCat("value", i));
  }
  if (s.ok()) s = writer.Finish();
  if (!s.ok()) {
    return absl::InternalError(absl::StrCat(path, ": ", s.ToString()));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace golden
}  // namespace sstfilter

int main(int argc, char** argv) {
  constexpr int kExitUsage = 2;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIRECTORY\n", argv[0]);
    return kExitUsage;
  }
  if (ROCKSDB_MAJOR != 9 || ROCKSDB_MINOR != 7 || ROCKSDB_PATCH != 4) {
    std::fprintf(stderr,
                 "%s: built against RocksDB %d.%d.%d; the golden tables are "
                 "RocksDB 9.7.4's (build with --config=rocksdb9)\n",
                 argv[0], ROCKSDB_MAJOR, ROCKSDB_MINOR, ROCKSDB_PATCH);
    return kExitUsage;
  }
  for (const sstfilter::golden::GoldenTable& table :
       sstfilter::golden::GoldenTables()) {
    const absl::Status s = sstfilter::golden::WriteTable(table, argv[1]);
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      return 1;
    }
    std::printf("wrote %s\n", table.file);
  }
  return 0;
}
