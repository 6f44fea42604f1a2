// RocksDB's Ribbon filter is configured by the Bloom bits/key whose
// false-positive rate it should match, and stores about 30% fewer bits than
// that. db_bench compares filters at the same memory, so it searches for the
// setting that makes a Ribbon filter as large as a Bloom filter.

#ifndef SSTFILTER_BENCH_DB_RIBBON_SIZING_H_
#define SSTFILTER_BENCH_DB_RIBBON_SIZING_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace sstfilter {
namespace bench {

// The largest Bloom-equivalent bits/key X, to a thousandth of a bit (RocksDB
// keeps millibits), at which rocksdb::NewRibbonFilterPolicy(X) builds a
// filter of keys_per_table keys no larger than
// rocksdb::NewBloomFilterPolicy(bloom_bits_per_key) does. Filters are built
// through the policies' own builders, from random 16-byte keys. Cost: about
// 15 filters of keys_per_table keys. REQUIRES: keys_per_table >= 1.
absl::StatusOr<double> RibbonBitsForBloomMemory(double bloom_bits_per_key,
                                                uint64_t keys_per_table);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_RIBBON_SIZING_H_
