// The four implementations redis_bench measures, in the order of its tables,
// by the key each one's figures have in its --json file: redis_bench
// (engines/redis/bench) writes these keys and its renderer
// (render_redis_bench.cc) reads them, and saved files keep them.

#ifndef SSTFILTER_DOCS_REDIS_BENCH_NAMES_H_
#define SSTFILTER_DOCS_REDIS_BENCH_NAMES_H_

namespace sstfilter {
namespace docs {
namespace redis_bench {

enum ImplId {
  kSstfilter,      // RedisBloomFilter
  kSet,            // a Redis set
  kBitmap,         // k SETBIT / GETBIT commands, one round trip each
  kBitmapOneTrip,  // the same commands, one round trip per key
  kImplCount,
};

// The JSON keys (the rows print render_redis_bench.cc's names).
inline constexpr const char* kImplNames[kImplCount] = {
    "sstfilter", "set", "k-command", "k-command, 1 trip"};

}  // namespace redis_bench
}  // namespace docs
}  // namespace sstfilter

#endif  // SSTFILTER_DOCS_REDIS_BENCH_NAMES_H_
