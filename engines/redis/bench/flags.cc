// redis_bench's flags. --filter names sstfilter's filter by spec, as the other
// tools do; only bloom:fpp=P fits, since the textbook filter is sized by the
// same rate.

#include "engines/redis/bench/flags.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "filter/filter_spec.h"
#include "filter/spec_list.h"
#include "util/flag_check.h"

ABSL_FLAG(std::string, keys, "1e6,1e7",
          "key counts, comma-separated: each loads every implementation with "
          "that many keys");
ABSL_FLAG(sstfilter::SpecList, filter, sstfilter::SpecList{{"bloom:fpp=0.01"}},
          "sstfilter's filter, by spec (filter/filter_spec.h): one spec of "
          "the bloom family sized by fpp, at which the k-command filter is "
          "sized too");
ABSL_FLAG(std::string, fpp, "",
          "replaced by --filter: --fpp=0.001 is --filter=bloom:fpp=0.001");
ABSL_FLAG(uint64_t, single_ops, 10000,
          "operations per single-mode figure and client");
ABSL_FLAG(uint64_t, pipelined_ops, 100000,
          "operations per pipelined figure and client");
ABSL_FLAG(int, rounds, 3, "rounds of each figure; the median counts");
ABSL_FLAG(std::string, json, "", "also write the results to this file");
ABSL_FLAG(std::string, table_from, "",
          "replaced by bazel run //docs:results_table -- "
          "--render=redis_bench FILE");
ABSL_FLAG(bool, readme, false,
          "replaced by bazel run //docs:results_table -- "
          "--render=redis_bench --options=readme FILE");

namespace sstfilter {
namespace bench {
namespace {

constexpr uint64_t kMaxKeys = 100'000'000;

}  // namespace

absl::Status ParseFlags(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "redis_bench [--keys=1e6,1e7] [--filter=bloom:fpp=0.01] [--single_ops=N] "
      "[--pipelined_ops=N] [--rounds=N] [--json=FILE]\nA Bloom filter shared "
      "through Redis: sstfilter's RedisBloomFilter against a Redis set and "
      "the k-command Redis Bloom filter, on a redis-server it starts.");
  absl::FlagsUsageConfig usage;
  // --help lists the flags of this file (Abseil's default looks for main's
  // file).
  usage.contains_help_flags = [](absl::string_view path) {
    return absl::EndsWith(path, "engines/redis/bench/flags.cc");
  };
  usage.contains_helpshort_flags = usage.contains_help_flags;
  absl::SetFlagsUsageConfig(usage);
  if (absl::Status flags = CheckFlags(argc, argv); !flags.ok()) return flags;
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat("stray argument ", rest[1]));
  }
  return absl::OkStatus();
}

Output ReadOutput() {
  Output output;
  output.json = absl::GetFlag(FLAGS_json);
  return output;
}

absl::StatusOr<Settings> ReadSettings() {
  Settings settings;
  for (absl::string_view item :
       absl::StrSplit(absl::GetFlag(FLAGS_keys), ',', absl::SkipEmpty())) {
    double value = 0;
    if (!absl::SimpleAtod(item, &value) || !(value >= 1 && value <= kMaxKeys) ||
        value != std::floor(value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--keys takes whole numbers from 1 to 1e8, got '", item, "'"));
    }
    settings.sizes.push_back(static_cast<uint64_t>(value));
  }
  if (!absl::GetFlag(FLAGS_table_from).empty() || absl::GetFlag(FLAGS_readme)) {
    return absl::InvalidArgumentError(
        "--table_from and --readme are replaced by bazel run "
        "//docs:results_table (--render=redis_bench [--options=readme] FILE)");
  }
  if (!absl::GetFlag(FLAGS_fpp).empty()) {
    return absl::InvalidArgumentError(
        "--fpp is replaced by --filter: --fpp=P is --filter=bloom:fpp=P");
  }
  const std::vector<std::string> filter = absl::GetFlag(FLAGS_filter).entries;
  if (filter.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--filter takes one spec, bloom:fpp=P (both Redis filters are sized "
        "by one fpp), got ",
        filter.size()));
  }
  absl::StatusOr<PolicySpec> spec = ParsePolicySpec(filter[0]);
  if (!spec.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--filter: ", spec.status().message()));
  }
  if (spec->family != "bloom" || !spec->options.fpp.has_value() ||
      !spec->params.empty() || spec->options.self_checksum.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--filter: \"", filter[0],
        "\" is not bloom:fpp=P, which both Redis filters are sized by"));
  }
  settings.fpp = *spec->options.fpp;
  settings.single_ops = absl::GetFlag(FLAGS_single_ops);
  settings.pipelined_ops = absl::GetFlag(FLAGS_pipelined_ops);
  settings.rounds = absl::GetFlag(FLAGS_rounds);
  if (settings.sizes.empty() || !(settings.fpp > 0 && settings.fpp < 1) ||
      settings.single_ops == 0 || settings.pipelined_ops == 0 ||
      settings.rounds < 1) {
    return absl::InvalidArgumentError(
        "need --keys, an fpp in (0, 1), positive --single_ops, "
        "--pipelined_ops and --rounds");
  }
  return settings;
}

}  // namespace bench
}  // namespace sstfilter
