// The small tables RocksDB 9.7.4 wrote into tests/integration/testdata/
// rocksdb-9.7.4/ (write_rocksdb_golden_tables.cc) and what each holds, shared
// by the program that writes them and the test that reads them
// (rocksdb_golden_tables_test.cc), so that the default build, which links
// Debian's RocksDB 7.8.3, proves it reads what 9.7.4 writes.

#ifndef SSTFILTER_TESTS_INTEGRATION_ROCKSDB_GOLDEN_TABLES_H_
#define SSTFILTER_TESTS_INTEGRATION_ROCKSDB_GOLDEN_TABLES_H_

#include <cstddef>
#include <string>
#include <vector>

namespace sstfilter {
namespace golden {

enum class Checksum { kCrc32c, kXxHash, kXxHash64, kXxh3 };
enum class Partitioning { kFull, kPartitioned, kPartitionedDecoupled };
enum class GoldenFilter { kRocksDbBloom, kSstfilterNative };

// One table. Each holds the same keys (GoldenKeys) and differs in the
// options that change the bytes around the filter: format_version 5 or 6 (6
// mixes each block's offset into its checksum and checksums the footer), the
// block checksum type, full or partitioned filters (partitions cut with the
// index's or, with decouple_partitioned_filters, on their own), a prefix
// extractor (RocksDB 9 adds key and prefix through AddKeyAndAlt), and whose
// filter: RocksDB's own Bloom filter or sstfilter's native one through
// AsRocksDbFilterPolicy.
struct GoldenTable {
  const char* file;  // under testdata/rocksdb-9.7.4/
  int format_version;
  Checksum checksum;
  Partitioning partitioning;
  bool prefix_extractor;  // fixed prefix of kGoldenPrefixBytes, whole keys too
  GoldenFilter filter;
};

// Keys share their first kGoldenPrefixBytes bytes in groups of
// kGoldenKeysPerPrefix.
constexpr size_t kGoldenKeys = 1000;
constexpr size_t kGoldenKeysPerPrefix = 10;
constexpr size_t kGoldenPrefixBytes = 6;
// Small blocks, so that a table of kGoldenKeys has many data blocks and, when
// partitioned, many filter partitions.
constexpr size_t kGoldenBlockBytes = 512;
constexpr size_t kGoldenPartitionBytes = 256;
constexpr double kGoldenBitsPerKey = 10;

// Key i: "p%04d-" of i / kGoldenKeysPerPrefix, then "k%04d" of i; sorted.
std::string GoldenKey(size_t i);
std::vector<std::string> GoldenKeys();
// Keys in no table: same shape, numbered from kGoldenKeys on.
std::vector<std::string> AbsentGoldenKeys(size_t n);

const std::vector<GoldenTable>& GoldenTables();

}  // namespace golden
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_INTEGRATION_ROCKSDB_GOLDEN_TABLES_H_
