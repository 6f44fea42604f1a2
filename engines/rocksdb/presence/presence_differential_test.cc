// PresenceFilteredDB against RocksDB itself: random operation sequences
// (differential_run.h) on a real database in a fresh directory, every lookup
// compared with the base database's answer for the same key at the same
// moment, and every key after each reopening. A seed that fails names the
// operation and the ones before it; rerun it with --seed=N.

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/differential_run.h"
#include "gtest/gtest.h"
#include "table/testing/real_tables.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using presence_testing::DifferentialOptions;
using presence_testing::DifferentialRun;
using presence_testing::OperationBytes;

// Sequences run, each from its own seed, and operations in each. A longer
// search: PRESENCE_DIFFERENTIAL_SEQUENCES=400 (about 3 minutes).
constexpr int kSequences = 24;
constexpr size_t kOperations = 400;

int Sequences() {
  const char* asked = std::getenv("PRESENCE_DIFFERENTIAL_SEQUENCES");
  return asked != nullptr && std::atoi(asked) > 0 ? std::atoi(asked)
                                                  : kSequences;
}

struct Outcome {
  absl::Status status;
  DifferentialRun::Counts counts;
};

Outcome RunSequence(uint64_t seed) {
  test::TempDir dir;
  DifferentialOptions options;
  options.directory = dir.path();
  absl::StatusOr<std::unique_ptr<DifferentialRun>> run =
      DifferentialRun::Open(options);
  if (!run.ok()) return {run.status(), {}};
  test::Random rng(seed);
  // Four bytes an operation on average (an iterate operation takes about
  // thirty), and some to spare.
  const std::string bytes = rng.Bytes(kOperations * 6);
  OperationBytes operations(bytes);
  absl::Status status = (*run)->Apply(&operations, kOperations);
  if (status.ok()) status = (*run)->CheckAllKeys();
  return {status, (*run)->counts()};
}

TEST(PresenceDifferentialTest, EveryLookupAnswersAsRocksDb) {
  DifferentialRun::Counts total;
  const int sequences = Sequences();
  for (int sequence = 0; sequence < sequences; ++sequence) {
    const uint64_t seed = 1000 + sequence;
    const Outcome outcome = RunSequence(seed);
    ASSERT_TRUE(outcome.status.ok())
        << "seed " << seed << ": " << outcome.status.message();
    total.operations += outcome.counts.operations;
    total.lookups_compared += outcome.counts.lookups_compared;
    total.ruled_out += outcome.counts.ruled_out;
    total.reopenings += outcome.counts.reopenings;
    total.rebuilds_waited += outcome.counts.rebuilds_waited;
    total.seeks_compared += outcome.counts.seeks_compared;
    total.seeks_answered += outcome.counts.seeks_answered;
  }
  // The sequences reach what they exist to reach: lookups the filter rules
  // out, seeks it answers, reopenings and finished rebuilds.
  EXPECT_GT(total.ruled_out, total.lookups_compared / 20);
  EXPECT_GT(total.seeks_answered, total.seeks_compared / 20);
  EXPECT_GE(total.reopenings, static_cast<uint64_t>(sequences));
  EXPECT_GE(total.rebuilds_waited, static_cast<uint64_t>(sequences));
  std::cout << total.operations << " operations, " << total.lookups_compared
            << " lookups compared (" << total.ruled_out << " NotFound), "
            << total.reopenings << " reopenings, " << total.rebuilds_waited
            << " rebuilds waited for, " << total.seeks_compared
            << " seeks compared (" << total.seeks_answered
            << " answered by the filters)\n";
}

}  // namespace
}  // namespace sstfilter
