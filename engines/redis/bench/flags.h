// redis_bench's command line: its flags, and their reading into what to
// measure (measure.h's Settings) and where the results go. A bad flag or value
// is a one-line InvalidArgumentError; the program prints it and exits with
// status 2.

#ifndef SSTFILTER_ENGINES_REDIS_BENCH_FLAGS_H_
#define SSTFILTER_ENGINES_REDIS_BENCH_FLAGS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/redis/bench/measure.h"

namespace sstfilter {
namespace bench {

// Where the results go.
struct Output {
  std::string json;  // --json: also write the results to this file
};

// Parses argv into the flags (--help prints them and exits): an error for an
// unknown flag, a value its type refuses, or an argument that is not a flag.
absl::Status ParseFlags(int argc, char** argv);

// REQUIRES: ParseFlags succeeded (so for both below).
Output ReadOutput();

// The flags of the measurement; an error names a bad value, or a flag that
// was replaced: --fpp by --filter=bloom:fpp=P, --table_from and --readme by
// bazel run //docs:results_table.
absl::StatusOr<Settings> ReadSettings();

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_BENCH_FLAGS_H_
