// Elias-Fano coding of a sorted set of distinct integers in [0, r), with the
// one query a range filter asks: is any value in [lo, hi]? n values take
// about n * (2 + log2(r/n)) bits; a select index sampling every
// kSelectSample-th zero bounds a query's scan to about 2 * kSelectSample
// bits, then the few values of its bucket. filter/range/README.md ("Layout of
// one filter") draws the words.
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
