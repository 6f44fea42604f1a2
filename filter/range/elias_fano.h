// Elias-Fano coding of a sorted set of distinct integers in [0, r) (Elias
// 1974, Fano 1971), with the one query a range filter asks: is any value in
// [lo, hi]? Value v is split into its low l bits, stored packed, and its high
// part v >> l, stored in unary: value i sets bit (v_i >> l) + i of the high
// vector, so the zero bits close the buckets of values sharing a high part.
// n values then take n * (l + 1) + (r >> l) + 1 bits, about n * (2 + log2(r/n))
// bits when l = floor(log2(r / n)).
//
// A select index samples every kSelectSample-th zero: the number of one bits
// before it. A query jumps to the sample below its bucket and scans at most
// about 2 * kSelectSample bits, then the few values of its bucket.
//
// Internal to the range filter family.

#ifndef SSTFILTER_FILTER_RANGE_ELIAS_FANO_H_
#define SSTFILTER_FILTER_RANGE_ELIAS_FANO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "filter/range/grafite_format.h"

namespace sstfilter {
namespace grafite_internal {

// Appends the low words, high words and select samples of values (sorted,
// distinct, each below universe) as ShapeOf(universe, values.size(),
// low_bits) lays them out.
void AppendEliasFano(const std::vector<uint64_t>& values, uint64_t universe,
                     int low_bits, std::string* dst);

// Queries over a parsed filter (verdict kProbe). Reads only inside the views
// ParseGrafite checked, whatever the bits hold.
class EliasFanoView {
 public:
  explicit EliasFanoView(const ParsedGrafite& parsed) : p_(parsed) {}

  // True if some value v has lo <= v <= hi. REQUIRES: lo <= hi.
  bool AnyInRange(uint64_t lo, uint64_t hi) const;

 private:
  uint64_t LowBitsOf(uint64_t index) const;
  uint64_t HighWord(uint64_t word) const;
  // The position just after the zero that closes bucket `bucket`, i.e. where
  // bucket + 1 begins; or the vector's size if the bits hold fewer zeros.
  uint64_t BucketEnd(uint64_t bucket) const;

  const ParsedGrafite& p_;
};

}  // namespace grafite_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_ELIAS_FANO_H_
