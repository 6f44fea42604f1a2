// The legacy Bloom rate table (LegacyBloomModelFpp, rocksdb_sizing.cc) against
// filters built by RocksDB 7.8.3 itself (format_version 4) and queried by its
// own reader: the table was measured by a simulation of the format, and this
// checks that simulation against the real builder, hash and probes included.
//
// The sample, and the tolerance it justifies. Each bits/key 1..100 gets
// kFilters filters of random 16-byte keys, key counts uniform in
// [10^4, 2 * 10^5] as in the table's own measurement, each queried with
// kQueries absent keys. A filter's measured rate varies for two reasons:
// counting (binomial, variance r(1 - r) / kQueries, computed from the counts)
// and its line count (the rate depends on it: about 5% either way between
// filters, rocksdb_sizing.h; kFilterSpread). The table entry is itself a mean
// of 12 filters of 2^20 queries, with the same two errors. The difference of
// the two means, divided by its standard deviation, is then about normal; each
// setting must be within kMaxSigmas of it (4.5: a true table passes all 100
// settings with probability above 99.9%), and the mean relative difference
// over each range of 25 settings within kMaxSigmas of its own deviation
// (about 0.7%), which catches a bias of a few percent that no single setting
// shows.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "filter/rocksdb/rocksdb_oracle.h"
#include "filter/rocksdb/rocksdb_sizing.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace rocksdb_internal {
namespace {

constexpr int kFilters = 6;
constexpr uint64_t kQueries = 1 << 18;
constexpr double kFilterSpread = 0.05;  // relative sd between filters
constexpr int kTableFilters = 12;       // of the table's measurement
constexpr double kTableQueries = 1 << 20;
constexpr double kMaxSigmas = 4.5;

std::string Key16(test::Random* rng) {
  std::string key(16, '\0');
  const uint64_t halves[2] = {rng->Next64(), rng->Next64()};
  std::memcpy(&key[0], halves, sizeof(halves));
  return key;
}

struct Measured {
  double rate = 0;      // mean over the filters
  double variance = 0;  // of that mean, counting and line counts
};

// The rate of RocksDB-built legacy filters at a whole bits/key.
Measured MeasureRocksDb(int bits, test::Random* rng) {
  double sum = 0;
  for (int f = 0; f < kFilters; ++f) {
    const uint64_t n = 10000 + rng->Uniform(190001);
    std::vector<std::string> keys;
    keys.reserve(n);
    for (uint64_t i = 0; i < n; ++i) keys.push_back(Key16(rng));
    const std::string filter = test::RocksDbBuildFilter(
        test::RocksDbBuilderKind::kLegacyBloom, bits, keys);
    // A legacy filter: the trailer's first byte is k, 1..127.
    EXPECT_GE(static_cast<int8_t>(filter[filter.size() - 5]), 1);
    const test::RocksDbOracleReader reader(filter);
    for (size_t i = 0; i < 100; ++i) {
      EXPECT_TRUE(reader.MayMatch(keys[rng->Uniform(n)])) << "a false negative";
    }
    uint64_t matches = 0;
    for (uint64_t q = 0; q < kQueries; ++q)
      matches += reader.MayMatch(Key16(rng));
    sum += static_cast<double>(matches) / kQueries;
  }
  Measured m;
  m.rate = sum / kFilters;
  const double counting = m.rate * (1 - m.rate) / kQueries;
  const double spread = kFilterSpread * kFilterSpread * m.rate * m.rate;
  m.variance = (counting + spread) / kFilters;
  return m;
}

// The settings in four ranges of 25, so that shards share the work.
class LegacyBloomRatesTest : public testing::TestWithParam<int> {};

TEST_P(LegacyBloomRatesTest, TableMatchesRocksDbBuiltFilters) {
  constexpr int kSettings = 25;
  const int first = 1 + kSettings * GetParam();
  const uint64_t seed = 0x1e6ac9 + GetParam();
  SCOPED_TRACE(testing::Message() << "random seed " << seed);
  test::Random rng(seed);
  double sum_relative = 0, sum_relative_variance = 0;
  double worst_sigmas = 0;
  int worst_bits = 0;
  for (int bits = first; bits < first + kSettings; ++bits) {
    const double table = LegacyBloomModelFpp(bits);
    const Measured m = MeasureRocksDb(bits, &rng);
    const double table_variance =
        (table * (1 - table) / kTableQueries +
         kFilterSpread * kFilterSpread * table * table) /
        kTableFilters;
    const double sd = std::sqrt(m.variance + table_variance);
    const double sigmas = (m.rate - table) / sd;
    EXPECT_LE(std::abs(sigmas), kMaxSigmas)
        << bits << " bits/key: RocksDB's filters measure " << m.rate
        << ", the table says " << table << " (sd " << sd << ")";
    if (std::abs(sigmas) > std::abs(worst_sigmas)) {
      worst_sigmas = sigmas;
      worst_bits = bits;
    }
    sum_relative += m.rate / table - 1;
    sum_relative_variance += (sd / table) * (sd / table);
  }
  const double mean_relative = sum_relative / kSettings;
  const double mean_relative_sd = std::sqrt(sum_relative_variance) / kSettings;
  EXPECT_LE(std::abs(mean_relative), kMaxSigmas * mean_relative_sd)
      << "RocksDB's filters differ from the table by " << 100 * mean_relative
      << "% on average (sd " << 100 * mean_relative_sd << "%)";
  std::cout << first << ".." << first + kSettings - 1
            << " bits/key: worst setting " << worst_bits << " at "
            << worst_sigmas << " sd; mean difference " << 100 * mean_relative
            << "% (sd " << 100 * mean_relative_sd << "%)\n";
}

INSTANTIATE_TEST_SUITE_P(BitsPerKey1To100, LegacyBloomRatesTest,
                         testing::Range(0, 4));

}  // namespace
}  // namespace rocksdb_internal
}  // namespace sstfilter
