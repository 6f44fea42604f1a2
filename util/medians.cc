#include "util/medians.h"

#include <algorithm>
#include <utility>

namespace sstfilter {

double LowerMedian(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + (values.size() - 1) / 2;
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

double MedianOfRatios(const std::vector<double>& numerators,
                      const std::vector<double>& denominators) {
  if (numerators.empty() || numerators.size() != denominators.size()) return 0;
  std::vector<double> ratios;
  ratios.reserve(numerators.size());
  for (size_t i = 0; i < numerators.size(); ++i) {
    if (!(numerators[i] > 0) || !(denominators[i] > 0)) return 0;
    ratios.push_back(numerators[i] / denominators[i]);
  }
  return LowerMedian(std::move(ratios));
}

}  // namespace sstfilter
