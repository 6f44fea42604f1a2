// The four implementations redis_bench measures, in the order of its tables,
// by the key each one's figures have in the --json file.

#ifndef SSTFILTER_ENGINES_REDIS_BENCH_IMPL_NAMES_H_
#define SSTFILTER_ENGINES_REDIS_BENCH_IMPL_NAMES_H_

namespace sstfilter {
namespace bench {

enum ImplId {
  kSstfilter,      // RedisBloomFilter
  kSet,            // a Redis set
  kBitmap,         // k SETBIT / GETBIT commands, one round trip each
  kBitmapOneTrip,  // the same commands, one round trip per key
  kImplCount,
};

// The JSON keys, which saved files keep (the rows print
// docs/render_redis_bench.cc's names).
inline constexpr const char* kImplNames[kImplCount] = {
    "sstfilter", "set", "k-command", "k-command, 1 trip"};

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_BENCH_IMPL_NAMES_H_
