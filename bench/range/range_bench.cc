// range_bench: the range filter (filter/range) against the proven bound and
// against a prefix Bloom filter of the same memory, the way RocksDB filters
// range scans today (a fixed-prefix extractor, whose prefixes go into a
// FastLocalBloom filter; a scan asks for each prefix it covers).
//
// For each budget (bits per key) and range length it measures the
// false-positive rate of empty ranges on two workloads:
//   uniform     ranges starting anywhere in the 64-bit code space;
//   correlated  ranges starting just after a present key (each key once,
//               then one code further), the case that defeats filters whose
//               accuracy depends on where queries fall.
// Every query is a fresh random range (no small repeated set), checked empty
// against the sorted keys. Then build time per key and query time per range
// for both filters, interleaved in one run.
//
//   bazel run -c opt //bench/range:range_bench --
//       --json=$PWD/docs/results/range_bench.json
//
// It prints the tables of docs/range_filter.md, whose copy there
// bazel run //docs:results_table prints from the committed JSON.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "docs/renderers.h"
#include "filter/filter_spec.h"
#include "filter/range/range_filter.h"
#include "filter/rocksdb/rocksdb_bloom.h"
#include "filter/spec_list.h"
#include "nlohmann/json.hpp"
#include "util/coding.h"
#include "util/flag_check.h"

ABSL_FLAG(uint64_t, keys, 1000000, "keys in the filter");
ABSL_FLAG(uint64_t, queries, 1000000,
          "empty ranges per rate (per budget, length, workload and filter)");
ABSL_FLAG(
    sstfilter::SpecList, filter,
    (sstfilter::SpecList{
        {"grafite:8", "grafite:12", "grafite:16", "grafite:20"}}),
    "comma list of range filter specs (filter/filter_spec.h), each "
    "giving bits_per_key: the budgets, each also a prefix Bloom filter's");
ABSL_FLAG(std::string, bits, "",
          "replaced by --filter: --bits=8,16 is --filter=grafite:8,grafite:16");
ABSL_FLAG(std::string, lengths, "1,2,16,64,1024", "range lengths in codes");
ABSL_FLAG(uint64_t, seed, 42, "seed of the keys and queries");
ABSL_FLAG(std::string, json, "", "also write the results to this file");
ABSL_FLAG(std::string, table_from, "",
          "replaced by bazel run //docs:results_table -- "
          "--render=range_bench FILE");

namespace sstfilter {
namespace bench {
namespace {

using nlohmann::json;
constexpr int kUsageExit = 2;

// splitmix64: keys and queries.
struct Rng {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

std::string CodeKey(uint64_t code, int bytes = 8) {
  std::string key;
  PutBigEndian(&key, code >> (64 - 8 * bytes), bytes);
  return key;
}

bool AnyIn(const std::vector<uint64_t>& sorted, uint64_t lo, uint64_t hi) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), lo);
  return it != sorted.end() && *it <= hi;
}

// The fixed prefix RocksDB would be configured with for ranges of `length`
// codes: the longest whose granule (2^(64 - 8p) codes) is at least the
// length, so a range covers at most two prefixes.
uint64_t Granule(int prefix_bytes) {
  return prefix_bytes == 8 ? 1 : uint64_t{1} << (64 - 8 * prefix_bytes);
}

int PrefixBytesFor(uint64_t length) {
  int bytes = 8;
  while (bytes > 1 && Granule(bytes) < length) --bytes;
  return bytes;
}

struct PrefixBloom {
  int prefix_bytes;
  std::string filter;
  std::unique_ptr<FilterReader> reader;
  double bits_per_key;

  bool RangeMayMatch(uint64_t lo, uint64_t hi) const {
    const uint64_t granule = Granule(prefix_bytes);
    for (uint64_t start = lo / granule; start <= hi / granule; ++start) {
      if (reader->MayMatch(CodeKey(start * granule, prefix_bytes))) return true;
      if (start == hi / granule) break;
    }
    return false;
  }
};

// A prefix Bloom filter of budget bits per key of the keys: the same memory
// spread over the distinct prefixes.
PrefixBloom BuildPrefixBloom(const std::vector<uint64_t>& codes, int prefix,
                             double budget) {
  PrefixBloom bloom;
  bloom.prefix_bytes = prefix;
  std::vector<std::string> prefixes;
  for (uint64_t code : codes) {
    std::string key = CodeKey(code, prefix);
    if (prefixes.empty() || prefixes.back() != key) prefixes.push_back(key);
  }
  const double per_prefix = budget * static_cast<double>(codes.size()) /
                            static_cast<double>(prefixes.size());
  const auto policy = NewRocksDbFastBloomFilterPolicy(
      FilterOptions::BitsPerKey(std::min(per_prefix, kMaxBitsPerKey)));
  if (!policy.ok()) {
    std::cerr << "range_bench: " << policy.status() << "\n";
    std::exit(1);
  }
  std::unique_ptr<FilterBuilder> builder = (*policy)->NewBuilder();
  for (const std::string& key : prefixes) builder->AddKey(key);
  builder->Finish(&bloom.filter);
  bloom.reader = (*policy)->NewReader(bloom.filter);
  bloom.bits_per_key = 8.0 * static_cast<double>(bloom.filter.size()) /
                       static_cast<double>(codes.size());
  return bloom;
}

struct Workload {
  const char* name;
  bool correlated;
};
constexpr Workload kWorkloads[] = {{"uniform", false}, {"correlated", true}};

// Fresh empty ranges of `length` codes. Correlated ones start just after a
// present key: the keys in a random order, each once, then again one code
// further on (so no range is asked twice).
std::vector<uint64_t> EmptyRangeStarts(const std::vector<uint64_t>& codes,
                                       bool correlated, uint64_t length,
                                       uint64_t count, Rng* rng) {
  std::vector<uint64_t> order(codes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[rng->Next() % i]);
  }
  std::vector<uint64_t> starts;
  starts.reserve(count);
  for (uint64_t i = 0; starts.size() < count; ++i) {
    const uint64_t lo =
        correlated ? codes[order[i % order.size()]] + 1 + i / order.size()
                   : rng->Next();
    const uint64_t hi = lo + length - 1;
    if (hi < lo || AnyIn(codes, lo, hi)) continue;
    starts.push_back(lo);
  }
  return starts;
}

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

std::vector<uint64_t> ParseList(const std::string& text) {
  std::vector<uint64_t> values;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    double value;
    if (!absl::SimpleAtod(part, &value) || value <= 0) {
      std::cerr << "range_bench: bad list value " << part << "\n";
      std::exit(kUsageExit);
    }
    values.push_back(static_cast<uint64_t>(value));
  }
  return values;
}

// The range filter specs of --filter, each with its bits per key; exits with
// one line for a malformed spec, another family or a spec sized by fpp.
std::vector<PolicySpec> RangeFilterSpecs(const SpecList& list) {
  std::vector<PolicySpec> specs;
  for (const std::string& text : list.entries) {
    absl::StatusOr<PolicySpec> spec = ParsePolicySpec(text);
    std::string fault;
    if (!spec.ok()) {
      fault = std::string(spec.status().message());
    } else if (spec->family != "grafite" ||
               !spec->options.bits_per_key.has_value() ||
               *spec->options.bits_per_key !=
                   std::floor(*spec->options.bits_per_key)) {
      fault = absl::StrCat("\"", text,
                           "\" is not a range filter sized in whole bits per "
                           "key (grafite:B)");
    } else if (auto codes = spec->params.find("codes");
               codes != spec->params.end() && codes->second != "first8") {
      fault = absl::StrCat(
          "\"", text,
          "\": range_bench asks ranges of 8-byte key codes (range_key.h), "
          "which the keyed format (codes=table) does not read");
    }
    if (!fault.empty()) {
      std::cerr << "range_bench: --filter: " << fault << "\n";
      std::exit(kUsageExit);
    }
    specs.push_back(*std::move(spec));
  }
  return specs;
}

json Measure() {
  const uint64_t n = absl::GetFlag(FLAGS_keys);
  const uint64_t queries = absl::GetFlag(FLAGS_queries);
  Rng rng{absl::GetFlag(FLAGS_seed)};
  std::vector<uint64_t> codes(n);
  for (uint64_t& code : codes) code = rng.Next();
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  std::vector<std::string> keys;
  for (uint64_t code : codes) keys.push_back(CodeKey(code));

  json result;
  result["command"] =
      "bazel run -c opt //bench/range:range_bench -- "
      "--json=$PWD/docs/results/range_bench.json";
  result["keys"] = codes.size();
  result["queries_per_rate"] = queries;
  json rows = json::array();
  for (const PolicySpec& spec : RangeFilterSpecs(absl::GetFlag(FLAGS_filter))) {
    const auto budget = static_cast<uint64_t>(*spec.options.bits_per_key);
    const auto policy = NewFilterPolicyFromSpec(spec);
    if (!policy.ok()) {
      std::cerr << "range_bench: " << policy.status() << "\n";
      std::exit(kUsageExit);
    }
    // Build time: the range filter from the keys in order.
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<FilterBuilder> builder = (*policy)->NewBuilder();
    for (const std::string& key : keys) builder->AddKey(key);
    std::string filter;
    builder->Finish(&filter);
    const double build_ns = 1e9 * Seconds(start) / codes.size();
    const std::unique_ptr<RangeFilterReader> reader =
        NewRangeFilterReader(filter);
    const double bits_per_key =
        8.0 * static_cast<double>(filter.size()) / codes.size();
    for (uint64_t length : ParseList(absl::GetFlag(FLAGS_lengths))) {
      const int prefix = PrefixBytesFor(length);
      start = std::chrono::steady_clock::now();
      const PrefixBloom bloom = BuildPrefixBloom(codes, prefix, bits_per_key);
      const double bloom_build_ns = 1e9 * Seconds(start) / codes.size();
      for (const Workload& workload : kWorkloads) {
        const std::vector<uint64_t> starts =
            EmptyRangeStarts(codes, workload.correlated, length, queries, &rng);
        // Interleaved: the two filters in alternating halves, twice.
        uint64_t range_matches = 0, bloom_matches = 0;
        double range_seconds = 0, bloom_seconds = 0;
        const size_t half = starts.size() / 2;
        for (int pass = 0; pass < 2; ++pass) {
          for (int which = 0; which < 2; ++which) {
            const bool range_first = (pass + which) % 2 == 0;
            const size_t begin = which == 0 ? 0 : half;
            const size_t end = which == 0 ? half : starts.size();
            auto t = std::chrono::steady_clock::now();
            uint64_t matches = 0;
            for (size_t i = begin; i < end; ++i) {
              matches += range_first ? reader->CodeRangeMayMatch(
                                           starts[i], starts[i] + length - 1)
                                     : bloom.RangeMayMatch(
                                           starts[i], starts[i] + length - 1);
            }
            (range_first ? range_seconds : bloom_seconds) += Seconds(t);
            (range_first ? range_matches : bloom_matches) += matches;
          }
        }
        // Each filter answered every start once.
        json row;
        row["filter"] = spec.ToString();
        row["bits_per_key_budget"] = budget;
        row["length"] = length;
        row["workload"] = workload.name;
        row["range_bits_per_key"] = bits_per_key;
        row["range_fpp"] = static_cast<double>(range_matches) / starts.size();
        row["bound"] = reader->RangeFppBound(length);
        row["nominal_bound"] = std::min(
            1.0, length / std::ldexp(1.0, static_cast<int>(budget) - 2));
        row["prefix_bytes"] = prefix;
        row["prefix_bits_per_key"] = bloom.bits_per_key;
        row["prefix_fpp"] = static_cast<double>(bloom_matches) / starts.size();
        row["range_query_ns"] = 1e9 * range_seconds / starts.size();
        row["prefix_query_ns"] = 1e9 * bloom_seconds / starts.size();
        row["range_build_ns_per_key"] = build_ns;
        row["prefix_build_ns_per_key"] = bloom_build_ns;
        rows.push_back(row);
        std::cerr << absl::StrFormat(
            "%2d bits, length %5d, %-10s: range %.5f%% (bound %.5f%%), "
            "prefix-%d Bloom %.5f%%\n",
            budget, length, workload.name, 100 * row["range_fpp"].get<double>(),
            100 * row["bound"].get<double>(), prefix,
            100 * row["prefix_fpp"].get<double>());
      }
    }
  }
  result["rows"] = rows;
  return result;
}

int Main(int argc, char** argv) {
  if (absl::Status flags = CheckFlags(argc, argv); !flags.ok()) {
    std::cerr << "range_bench: " << flags.message() << "\n";
    return kUsageExit;
  }
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (!absl::GetFlag(FLAGS_bits).empty()) {
    std::cerr << "range_bench: --bits is replaced by --filter (--bits=8,16 is "
                 "--filter=grafite:8,grafite:16)\n";
    return kUsageExit;
  }
  if (!absl::GetFlag(FLAGS_table_from).empty()) {
    std::cerr << "range_bench: --table_from is replaced by bazel run "
                 "//docs:results_table (--render=range_bench FILE)\n";
    return kUsageExit;
  }
  if (rest.size() > 1) {
    std::cerr << "range_bench: stray argument " << rest[1] << "\n";
    return kUsageExit;
  }
  const json result = Measure();
  if (!absl::GetFlag(FLAGS_json).empty()) {
    std::ofstream out(absl::GetFlag(FLAGS_json));
    out << result.dump(2) << "\n";
  }
  std::cout << docs::RangeBenchTables(result);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
