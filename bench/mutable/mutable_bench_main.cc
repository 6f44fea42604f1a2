// mutable_bench: the mutable Bloom filter (inmemory/mutable/mutable_bloom.h)
// against the immutable native filter of the same keys and fpp: adds with one
// and two threads against the native build, and absent-key queries, single and
// batched, on fresh keys. See bench/mutable/README.md.
//
//   bazel run -c opt //bench/mutable:mutable_bench -- [--keys=1e6,1e7]
//       [--filter=mutable:fpp=0.01,...] [--queries=1048576] [--reps=3]
//       [--format=table|json]
//
// Progress goes to stderr, the table (or JSON lines) to stdout. Exit status 0;
// 1 when a filter cannot be made; 2 for a bad flag value; 3 when an added key
// does not match.

#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "bench/keys.h"
#include "bench/mutable/mutable_bench.h"
#include "bench/mutable/mutable_report.h"
#include "filter/spec_list.h"
#include "inmemory/spec/inmemory_spec.h"
#include "util/flag_check.h"

ABSL_FLAG(std::string, keys, "1e6,1e7",
          "key counts, comma-separated; each is a filter of that many keys");
ABSL_FLAG(sstfilter::SpecList, filter,
          sstfilter::SpecList{{"mutable:fpp=0.01"}},
          "comma list of the mutable filter's specs "
          "(inmemory/spec/inmemory_spec.h), each measured in turn: the mutable "
          "family, sized by fpp or bits_per_key, its keys from --keys; the "
          "native filter it is compared with, bloom, takes its size");
ABSL_FLAG(std::string, fpp, "",
          "replaced by --filter: --fpp=0.001 is --filter=bloom:fpp=0.001");
ABSL_FLAG(uint64_t, queries, 1 << 20,
          "absent keys per query figure, a multiple of 1024");
ABSL_FLAG(int, reps, 3, "repetitions; the median counts");
ABSL_FLAG(std::string, format, "table", "table or json");

namespace sstfilter {
namespace bench {
namespace {

constexpr int kErrorExit = 1;
constexpr int kUsageExit = 2;
constexpr int kFalseNegativeExit = 3;
// Present keys' indexes stay below kAbsentBase; 10^9 keys is 12 GB of filter
// pairs at 10 bits/key.
constexpr uint64_t kMaxKeys = 1'000'000'000;

int Usage(const std::string& message) {
  std::cerr << "mutable_bench: " << message << "\n";
  return kUsageExit;
}

// Accepts 1000000 and 1e6: a whole number in [1, kMaxKeys].
bool ParseKeyCount(absl::string_view text, uint64_t* out) {
  double value = 0;
  if (!absl::SimpleAtod(text, &value)) return false;
  if (!(value >= 1 && value <= kMaxKeys) || value != std::floor(value))
    return false;
  *out = static_cast<uint64_t>(value);
  return true;
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "mutable_bench [--keys=1e6,1e7] [--filter=mutable:fpp=0.01,...] "
      "[--queries=N] "
      "[--reps=N] "
      "[--format=table|json]\nThe mutable Bloom filter against the immutable "
      "native filter of the same keys.");
  if (absl::Status flags = CheckFlags(argc, argv); !flags.ok()) {
    return Usage(std::string(flags.message()));
  }
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) return Usage(std::string("stray argument ") + rest[1]);
  std::vector<uint64_t> sizes;
  for (absl::string_view item :
       absl::StrSplit(absl::GetFlag(FLAGS_keys), ',', absl::SkipEmpty())) {
    uint64_t n = 0;
    if (!ParseKeyCount(item, &n)) {
      return Usage("--keys takes whole numbers from 1 to 1e9, got '" +
                   std::string(item) + "'");
    }
    sizes.push_back(n);
  }
  if (sizes.empty()) return Usage("--keys is empty");
  MutableBenchConfig config;
  if (!absl::GetFlag(FLAGS_fpp).empty()) {
    return Usage(
        "--fpp is replaced by --filter: --fpp=P is --filter=mutable:fpp=P");
  }
  std::vector<InMemorySpec> specs;
  for (const std::string& entry : absl::GetFlag(FLAGS_filter).entries) {
    absl::StatusOr<InMemorySpec> spec = ParseInMemorySpec(entry);
    if (!spec.ok())
      return Usage("--filter: " + std::string(spec.status().message()));
    if (spec->family != kMutableFamily || spec->keys.has_value()) {
      return Usage("--filter: \"" + entry +
                   "\" is not a mutable filter's spec without keys (--keys "
                   "gives them), such as mutable:fpp=0.01");
    }
    specs.push_back(*std::move(spec));
  }
  if (specs.empty()) return Usage("--filter is empty");
  config.queries = absl::GetFlag(FLAGS_queries);
  config.reps = absl::GetFlag(FLAGS_reps);
  const std::string format = absl::GetFlag(FLAGS_format);
  if (config.queries == 0 || config.queries % KeyChunk::kCapacity != 0) {
    return Usage("--queries must be a positive multiple of 1024, got " +
                 std::to_string(config.queries));
  }
  if (config.reps < 1) return Usage("--reps must be at least 1");
  if (format != "table" && format != "json") {
    return Usage("--format must be table or json, got '" + format + "'");
  }

  std::vector<SizeResult> results;
  for (const InMemorySpec& spec : specs) {
    config.spec = spec;
    for (uint64_t n : sizes) {
      config.keys = n;
      absl::StatusOr<SizeResult> result = MeasureSize(
          config, [](const std::string& line) { std::cerr << line << "\n"; });
      if (!result.ok()) {
        std::cerr << "mutable_bench: " << result.status().message() << "\n";
        return absl::IsDataLoss(result.status()) ? kFalseNegativeExit
                                                 : kErrorExit;
      }
      results.push_back(*std::move(result));
    }
  }
  if (format == "json") {
    PrintMutableJson(results, std::cout);
  } else {
    PrintMutableTable(results, std::cout);
  }
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
