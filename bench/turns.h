// The order in which configurations take turns within a repetition, for every
// benchmark that times several of them interleaved.
//
//   for (int rep = 0; rep < reps; ++rep)
//     for (size_t turn = 0; turn < n; ++turn) Time(dbs[TurnOf(rep, turn, n)]);

#ifndef SSTFILTER_BENCH_TURNS_H_
#define SSTFILTER_BENCH_TURNS_H_

#include <cstddef>

namespace sstfilter {
namespace bench {

// The configuration (of count) that takes turn `turn` of repetition `rep`.
// The order rotates each repetition, so that over count repetitions each
// configuration runs first once and follows each neighbour equally: a fixed
// order gives the first configuration the state the last one left (its caches,
// the page cache, the machine's speed at that moment) in every repetition.
// REQUIRES: rep >= 0, turn < count.
inline size_t TurnOf(int rep, size_t turn, size_t count) {
  return (turn + static_cast<size_t>(rep)) % count;
}

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_TURNS_H_
