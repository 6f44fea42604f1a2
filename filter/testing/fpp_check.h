// Measuring a filter policy's false-positive rate, for the tests that hold a
// family to its own promise ("measured <= 1.05 p"), to its formula or to its
// ExpectedFpp: filters built from fresh keys, asked about keys none of them
// holds. The generic promise every policy keeps (ExpectedFpp near the measured
// rate, within a wide margin) is in policy_contract_test.cc.

#ifndef SSTFILTER_FILTER_TESTING_FPP_CHECK_H_
#define SSTFILTER_FILTER_TESTING_FPP_CHECK_H_

#include <cstdint>

#include "filter/filter_policy.h"

namespace sstfilter {
namespace test {

// What MeasureFpp found over some filters of one policy.
struct FppMeasurement {
  uint64_t keys = 0;     // per filter
  uint64_t filters = 0;  // built
  uint64_t queries = 0;  // absent keys asked, over all filters
  uint64_t false_positives = 0;
  double expected = 0;      // ExpectedFpp(), averaged over the filters
  double bits_per_key = 0;  // filter bytes (trailer included) * 8 / keys,
                            // averaged over the filters

  // false_positives / queries.
  double Measured() const;

  // One standard deviation of Measured() were the rate p: sqrt(p / queries),
  // the binomial's for small p.
  double Sigma(double p) const;
};

// Builds `filters` filters of `keys` keys each with policy, filter f from the
// keys Key16(2f, 0..keys-1) (filter_test_util.h) added one at a time, so that
// 10^8 keys need no vector of them; adds a test failure unless each filter
// matches all of its keys; and asks filter f about queries / filters keys of
// set 2f + 1, which no filter holds. REQUIRES: keys >= 1, 1 <= filters <=
// queries.
FppMeasurement MeasureFpp(const FilterPolicy& policy, uint64_t keys,
                          uint64_t filters, uint64_t queries);

// The promise of a policy made with FilterOptions::Fpp(fpp): m.Measured() is
// at most factor * fpp. Prints the measurement (the figures the families'
// READMEs quote) and records the ratio as the test property
// "measured_over_requested".
void ExpectFppWithinPromise(const FppMeasurement& m, double fpp, double factor);

// LevelDB's own accuracy criteria (its bloom_test.cc, VaryingLengths), which a
// policy at 10 bits/key meets where it stands in for LevelDB's: for filters of
// 1 to 10,000 keys (LevelDB's schedule of lengths) of the 4-byte keys
// Fixed32Key(0..length-1), each filter is at most length * 10 / 8 + 40 bytes,
// matches all its keys, and matches at most 2% of 10,000 absent keys; and the
// "mediocre" filters (above 1.25%) are at most a fifth as many as the good
// ones.
void ExpectLevelDbVaryingLengths(const FilterPolicy& policy);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_TESTING_FPP_CHECK_H_
