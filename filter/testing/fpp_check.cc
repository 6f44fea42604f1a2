// Measuring a filter policy's false-positive rate (see fpp_check.h).

#include "filter/testing/fpp_check.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {

double FppMeasurement::Measured() const {
  return static_cast<double>(false_positives) / static_cast<double>(queries);
}

double FppMeasurement::Sigma(double p) const {
  return std::sqrt(p / static_cast<double>(queries));
}

FppMeasurement MeasureFpp(const FilterPolicy& policy, uint64_t keys,
                          uint64_t filters, uint64_t queries) {
  FppMeasurement m;
  m.keys = keys;
  m.filters = filters;
  const uint64_t queries_per_filter = queries / filters;
  for (uint64_t f = 0; f < filters; ++f) {
    const std::unique_ptr<FilterBuilder> builder = policy.NewBuilder();
    for (uint64_t i = 0; i < keys; ++i) builder->AddKey(Key16(2 * f, i));
    std::string filter;
    builder->Finish(&filter);
    m.bits_per_key += 8.0 * static_cast<double>(filter.size()) /
                      static_cast<double>(keys) / static_cast<double>(filters);
    const std::unique_ptr<FilterReader> reader = policy.NewReader(filter);
    const uint64_t matched = CountMatches(*reader, 2 * f, 0, keys);
    EXPECT_EQ(matched, keys) << "false negatives in filter " << f << " of "
                             << filters << " (" << keys << " keys)";
    m.expected += reader->ExpectedFpp() / static_cast<double>(filters);
    m.false_positives +=
        CountMatches(*reader, 2 * f + 1, 0, queries_per_filter);
    m.queries += queries_per_filter;
  }
  return m;
}

void ExpectFppWithinPromise(const FppMeasurement& m, double fpp,
                            double factor) {
  const double measured = m.Measured();
  testing::Test::RecordProperty("measured_over_requested",
                                std::to_string(measured / fpp));
  std::printf(
      "fpp=%g n=%llu filters=%llu bits/key=%.3f measured=%.5g%% "
      "ratio=%.4f\n",
      fpp, static_cast<unsigned long long>(m.keys),
      static_cast<unsigned long long>(m.filters), m.bits_per_key,
      100 * measured, measured / fpp);
  EXPECT_LE(measured, factor * fpp) << "fpp " << fpp << ", " << m.keys
                                    << " keys, " << m.queries << " absent keys";
}

namespace {

// LevelDB's bloom_test.cc schedule of filter lengths.
int NextLength(int length) {
  if (length < 10) return length + 1;
  if (length < 100) return length + 10;
  if (length < 1000) return length + 100;
  return length + 1000;
}

}  // namespace

void ExpectLevelDbVaryingLengths(const FilterPolicy& policy) {
  int mediocre = 0;
  int good = 0;
  for (int length = 1; length <= 10000; length = NextLength(length)) {
    std::vector<std::string> keys;
    for (int i = 0; i < length; ++i) keys.push_back(Fixed32Key(i));
    const std::string filter = BuildFilter(policy, keys);
    EXPECT_LE(filter.size(), static_cast<size_t>(length * 10 / 8 + 40))
        << length;

    const std::unique_ptr<FilterReader> reader = policy.NewReader(filter);
    for (const std::string& key : keys) {
      ASSERT_TRUE(reader->MayMatch(key)) << "length " << length;
    }
    int false_positives = 0;
    for (int i = 0; i < 10000; ++i) {
      false_positives += reader->MayMatch(Fixed32Key(i + 1000000000));
    }
    const double rate = false_positives / 10000.0;
    EXPECT_LE(rate, 0.02) << "length " << length << ", " << filter.size()
                          << " bytes";
    if (rate > 0.0125) {
      ++mediocre;
    } else {
      ++good;
    }
  }
  EXPECT_LE(mediocre, good / 5) << "mediocre " << mediocre << ", good " << good;
}

}  // namespace test
}  // namespace sstfilter
