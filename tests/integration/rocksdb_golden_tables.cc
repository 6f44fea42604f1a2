#include "tests/integration/rocksdb_golden_tables.h"

#include "absl/strings/str_format.h"

namespace sstfilter {
namespace golden {

std::string GoldenKey(size_t i) {
  return absl::StrFormat("p%04d-k%04d", i / kGoldenKeysPerPrefix, i);
}

std::vector<std::string> GoldenKeys() {
  std::vector<std::string> keys;
  for (size_t i = 0; i < kGoldenKeys; ++i) keys.push_back(GoldenKey(i));
  return keys;
}

std::vector<std::string> AbsentGoldenKeys(size_t n) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) keys.push_back(GoldenKey(kGoldenKeys + i));
  return keys;
}

const std::vector<GoldenTable>& GoldenTables() {
  using C = Checksum;
  using P = Partitioning;
  using F = GoldenFilter;
  static const std::vector<GoldenTable>* tables = new std::vector<GoldenTable>{
      // Every checksum type at format_version 6, and XXH3 (the default) at 5.
      {"fv6_full_bloom_crc32c.sst", 6, C::kCrc32c, P::kFull, false,
       F::kRocksDbBloom},
      {"fv6_full_bloom_xxhash.sst", 6, C::kXxHash, P::kFull, false,
       F::kRocksDbBloom},
      {"fv6_full_bloom_xxhash64.sst", 6, C::kXxHash64, P::kFull, false,
       F::kRocksDbBloom},
      {"fv6_full_bloom_xxh3.sst", 6, C::kXxh3, P::kFull, false,
       F::kRocksDbBloom},
      {"fv5_full_bloom_xxh3.sst", 5, C::kXxh3, P::kFull, false,
       F::kRocksDbBloom},
      // Partitioned, coupled to the index and not, with and without prefixes.
      {"fv6_partitioned_bloom.sst", 6, C::kXxh3, P::kPartitioned, false,
       F::kRocksDbBloom},
      {"fv6_decoupled_bloom.sst", 6, C::kCrc32c, P::kPartitionedDecoupled,
       false, F::kRocksDbBloom},
      {"fv5_partitioned_bloom.sst", 5, C::kXxh3, P::kPartitioned, false,
       F::kRocksDbBloom},
      {"fv6_full_bloom_prefix.sst", 6, C::kXxh3, P::kFull, true,
       F::kRocksDbBloom},
      {"fv6_decoupled_bloom_prefix.sst", 6, C::kXxh3, P::kPartitionedDecoupled,
       true, F::kRocksDbBloom},
      // sstfilter's filter written by RocksDB 9.7.4 through the adapter.
      {"fv6_full_native.sst", 6, C::kXxh3, P::kFull, false,
       F::kSstfilterNative},
      {"fv6_full_native_prefix.sst", 6, C::kXxh3, P::kFull, true,
       F::kSstfilterNative},
      {"fv6_partitioned_native_prefix.sst", 6, C::kXxh3, P::kPartitioned, true,
       F::kSstfilterNative},
  };
  return *tables;
}

}  // namespace golden
}  // namespace sstfilter
