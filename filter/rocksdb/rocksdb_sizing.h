// How RocksDB 7.8.3 sizes its built-in Blooms from a configured bits/key, and
// how sstfilter maps a target false-positive rate onto those settings.
//
// RocksDB takes only bits/key (NewBloomFilterPolicy(double)). It keeps it in
// thousandths (BloomLikeFilterPolicy's constructor, table/block_based/
// filter_policy.cc at v7.8.3):
//   millibits = floor(bits * 1000 + 0.500001)   FastLocalBloom uses these
//   whole bits = (millibits + 500) / 1000       legacy Bloom uses these
// after clamping bits to [1, 100] (FilterOptions allows only that range).
//
// From an fpp, the policies choose the setting a RocksDB user would pick from
// a table of rates: the smallest one whose modelled rate reaches the target.
// The models:
//   FastLocalBloom: the exact rate of a cache-local Bloom with independent
//     probes, 512-bit lines and Poisson keys per line (util/bloom_math.h
//     LocalBloomFpp) at k = RocksDB's choice for the millibits. RocksDB's
//     golden-ratio probes measure within 0.5% of it, and the 64-byte rounding
//     of the body only adds bits.
//   Legacy Bloom: rates measured by simulation, one per whole bits/key
//     (rocksdb_sizing.cc has the table, rocksdb_sizing_test.cc measures it
//     again). No formula of the fill fits: the probes form an arithmetic
//     progression modulo 512 whose step is 0 for 1 hash in 512 (k probes of
//     one bit), has period 2 for another 1 in 512, and so on, and keys with
//     related steps cover each other's probes. So the rate stops falling near
//     20 bits/key (about 0.26%) and is never below about 0.0965%. The 32-bit
//     hash adds n / 2^32 for n keys, which no setting removes (RocksDB warns
//     from 3 million keys).
// Targets below the lowest rate any setting reaches are refused.

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
