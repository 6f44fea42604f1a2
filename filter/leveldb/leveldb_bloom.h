// A Bloom filter byte-compatible with LevelDB 1.23's built-in one
// (leveldb::NewBloomFilterPolicy, whose name is kLevelDbBloomName below).
//
// For the same keys and an integer bits/key, the filter bytes are identical to
// LevelDB's, and either side reads the other's filters. Use it to read and
// write tables of an existing LevelDB store. Large filters are less accurate
// than configured: the probe sequence, derived from one 32-bit hash, drifts
// from an ideal Bloom filter once the bit array passes about 2^18 bits
// (LevelDB 1.23 itself: 1.46% false positives at 10 bits/key and 100,000 keys,
// where the ideal is 0.84%), and 32-bit hash collisions add more at scale
// (about 3% at 10^8 keys when 1% was configured). LevelDB's per-2 KB filters
// hold far fewer keys. New stores should prefer the native policy.
//
// Format (one filter):
//   [bit array: max(64, floor(n * bits_per_key)) bits, in whole bytes]
//   [1 byte: k, the number of probes]
// Key hash: LevelDbBloomHash (util/hash.h). Probe i (0-based) sets bit
//   (h + i * delta) mod num_bits, delta = h rotated right by 17 bits,
// with h + i * delta computed in 32 bits. Bit b is bit (b mod 8) of byte b / 8.
//
// ExpectedFpp() of a reader measures the filter against 2^16 evenly spread hash
// values (the format stores no key count, and no formula captures LevelDB's
// correlated probes); it costs that many probes.
//
// Reader rules, as LevelDB's: fewer than 2 bytes matches nothing (an empty
// filter slice); k > 30 (including bytes >= 0x80) is reserved for other
// encodings and matches everything; k = 0 matches everything (no probe can
// fail).

#ifndef SSTFILTER_FILTER_LEVELDB_LEVELDB_BLOOM_H_
#define SSTFILTER_FILTER_LEVELDB_LEVELDB_BLOOM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// The name LevelDB 1.23 persists for its Bloom filter ("2": the hash changed
// once).
constexpr char kLevelDbBloomName[] = "leveldb.BuiltinBloomFilter2";

// The smallest fpp NewLevelDbBloomFilterPolicy accepts. Sized from p, the
// filter has c = -ln p / (ln 2)^2 bits/key and k = round(ln 2 * c) =
// round(log2(1/p)) probes; below 2^-30.5 (6.59e-10) that k passes 30, the most
// the format stores, and with k held at 30 the rate misses p (1.9e-12 at p =
// 1e-12). Adding bits at k = 30 would promise rates the format cannot keep: the
// 32-bit hash alone gives about n * 2^-32 false positives in a filter of n keys
// (7e-10 at three keys). At this floor, c = 44.0 bits/key and k = 30.
constexpr double kLevelDbBloomMinFpp = 6.6e-10;

// Sizing:
//  - bits_per_key = c: k = floor(0.69 * c), clamped to [1, 30], LevelDB's own
//    rule (an integer c gives LevelDB-identical bytes; a fractional one is
//    accepted and readable).
//  - fpp = p, in [kLevelDbBloomMinFpp, 1): c = -ln p / (ln 2)^2 and
//    k = round(ln 2 * c), at least 1: the standard Bloom optimum
//    (util/bloom_math.h); at k = 1, c is at least -1 / ln(1 - p), the size
//    whose one probe gives p (for p above about 0.59 the optimum's c is
//    smaller, and its rate above p: 99% at p = 0.9). Because LevelDB's probe
//    sequence does worse than that formula in filters of more than about 2^18
//    bits, a filter of 2^16 bits or more is measured against sample hashes
//    when it is built and rebuilt 1.2 times larger (at most 8 times) until it
//    meets p. LevelDB reads k and the size from the filter, so these filters
//    are still readable by LevelDB.
// Returns InvalidArgumentError for invalid options (see ValidateFilterOptions)
// and for an fpp below kLevelDbBloomMinFpp, naming the value.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewLevelDbBloomFilterPolicy(
    const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_LEVELDB_LEVELDB_BLOOM_H_
