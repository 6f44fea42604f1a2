// How RocksDB sizes its built-in Blooms from a configured bits/key (kept in
// thousandths, clamped to [1, 100]), and how sstfilter maps a target
// false-positive rate onto those settings: the smallest setting whose
// modelled rate reaches the target, as a RocksDB user would pick from a
// table of rates. Targets below the lowest rate any setting reaches are
// refused. filter/rocksdb/README.md ("Sizing from an fpp") has the rules,
// the models and the RocksDB sources.

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_SIZING_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_SIZING_H_

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace rocksdb_internal {

// FilterOptions' range of bits/key (filter_policy.h), in RocksDB's thousandths.
constexpr int kMinMillibitsPerKey = static_cast<int>(kMinBitsPerKey * 1000);
constexpr int kMaxMillibitsPerKey = static_cast<int>(kMaxBitsPerKey * 1000);

// RocksDB's rounding of a bits/key setting. REQUIRES: bits_per_key in [1, 100].
int RocksDbMillibitsPerKey(double bits_per_key);
int RocksDbWholeBitsPerKey(int millibits_per_key);

// The modelled (FastLocalBloom) and measured (legacy) false-positive rates at
// a setting; see the file comment.
double FastLocalBloomModelFpp(int millibits_per_key);
double LegacyBloomModelFpp(int whole_bits_per_key);

// The smallest setting whose modelled rate is at most fpp, or
// InvalidArgumentError naming fpp when even 100 bits/key do not reach it.
// REQUIRES: fpp in (0, 1).
absl::StatusOr<int> FastLocalBloomMillibitsForFpp(double fpp);
absl::StatusOr<int> LegacyBloomWholeBitsForFpp(double fpp);

}  // namespace rocksdb_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_SIZING_H_
