// Key count and false-positive rate from a filter's fill (see
// fill_estimates.h).

#include "inmemory/mutable/fill_estimates.h"

#include <cmath>

namespace sstfilter {
namespace mutable_internal {

using bloom::kBlockBits;

uint64_t FillHistogram::NumBlocks() const {
  uint64_t total = 0;
  for (uint64_t count : blocks) total += count;
  return total;
}

uint64_t FillHistogram::BitsSet() const {
  uint64_t total = 0;
  for (uint64_t x = 0; x <= kBlockBits; ++x) total += x * blocks[x];
  return total;
}

double EstimateKeys(uint64_t bits_set, uint64_t num_blocks, int k) {
  const double m = static_cast<double>(num_blocks) * kBlockBits;
  double set = static_cast<double>(bits_set);
  if (set >= m) set = m - 0.5;  // saturated: ln(0) would be infinite
  // q = 1 - (1 - 1/512)^k; log1p and expm1 keep both small quantities exact.
  const double q =
      -std::expm1(k * std::log1p(-1.0 / static_cast<double>(kBlockBits)));
  return -static_cast<double>(num_blocks) * std::log1p(-set / m) / q;
}

double FppFromFill(const FillHistogram& fill, int k) {
  double sum = 0.0;
  for (uint64_t x = 1; x <= kBlockBits; ++x) {
    if (fill.blocks[x] == 0) continue;
    sum += static_cast<double>(fill.blocks[x]) *
           std::pow(static_cast<double>(x) / kBlockBits, k);
  }
  return sum / static_cast<double>(fill.NumBlocks());
}

}  // namespace mutable_internal
}  // namespace sstfilter
