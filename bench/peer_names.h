// How the benchmarks name the filters of other libraries they measure, so
// that no such name is ever taken for one of sstfilter's spec families.

#ifndef SSTFILTER_BENCH_PEER_NAMES_H_
#define SSTFILTER_BENCH_PEER_NAMES_H_

namespace sstfilter {
namespace bench {

// What a peer's name starts with: "lib:rocksdb.fastbloom", "lib:leveldb.bloom".
constexpr char kPeerPrefix[] = "lib:";

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_PEER_NAMES_H_
