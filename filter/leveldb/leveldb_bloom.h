// A Bloom filter byte-compatible with LevelDB's built-in one
// (leveldb::NewBloomFilterPolicy, whose name is kLevelDbBloomName below): for
// the same keys and an integer bits/key the filter bytes are LevelDB's, and
// either side reads the other's filters. Use it to read and write tables of
// an existing LevelDB store; new stores should prefer the native policy, as
// large filters of this format are less accurate than configured.
// filter/leveldb/README.md defines the format and its reader's rules.
//
// Readers are total, as LevelDB's; ExpectedFpp() measures the filter against
// 2^16 sample hash values, and costs that many probes.

#ifndef SSTFILTER_FILTER_LEVELDB_LEVELDB_BLOOM_H_
#define SSTFILTER_FILTER_LEVELDB_LEVELDB_BLOOM_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// The name LevelDB 1.23 persists for its Bloom filter ("2": the hash changed
// once).
constexpr char kLevelDbBloomName[] = "leveldb.BuiltinBloomFilter2";

// The smallest fpp NewLevelDbFilterPolicy accepts. Sized from p, the
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
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewLevelDbFilterPolicy(
    const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_LEVELDB_LEVELDB_BLOOM_H_
