// sst_probe: asks a LevelDB or RocksDB table file's filter whether keys may be
// in the table, reading only the file's tail, and describes the filter.
//
//   sst_probe [--stats] [--format=text|json] [--hex] [--index_keys=...] FILE
//   [KEY...]
//
// Exit status: 0 when every answer came from a sound filter (or the table has
// none), 1 when the file could not be read as a table or its filter is corrupt
// (then every key is reported as "may match", the safe answer), 2 for a
// usage error found here. Abseil's parser exits 1 for a flag it refuses.
// table/README.md describes the output.

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "table/filter_summary.h"
#include "table/table_filter.h"

ABSL_FLAG(bool, stats, false,
          "print only the filter's summary (no keys needed)");
ABSL_FLAG(std::string, format, "text",
          "text: a line per key, then the summary; json: one JSON object per "
          "line for each key, then one for the summary");
ABSL_FLAG(bool, hex, false, "keys are given in hexadecimal");
ABSL_FLAG(std::string, index_keys, "internal",
          "LevelDB per-2 KB filters only: 'internal' for the tables of a "
          "LevelDB database, 'user' for tables written by "
          "leveldb::TableBuilder directly");
ABSL_FLAG(uint64_t, tail_prefetch_bytes, 256 * 1024,
          "bytes read from the end of the file in the first read");

namespace sstfilter {
namespace {

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

using Json = nlohmann::ordered_json;

struct Answer {
  std::string key;  // as given on the command line
  bool may_match;
};

std::string Percent(double p) { return absl::StrFormat("%.4g%%", 100 * p); }

void PrintText(const std::string& path, const std::vector<Answer>& answers,
               const FilterSummary& s, const IoStats& io, uint64_t file_bytes) {
  for (const Answer& a : answers) {
    std::cout << (a.may_match ? "may match  " : "ruled out  ") << a.key << "\n";
  }
  std::cout << absl::StrFormat(
      "table:   %s (%s, format_version %d, %d bytes)\n", path, s.table_format,
      s.format_version, file_bytes);
  if (!s.has_filter) {
    std::cout << "filter:  none (every key may match)\n";
  } else {
    std::cout << absl::StrFormat(
        "filter:  %s (%s layout, %s): %d filter%s, %d bytes\n", s.policy_name,
        s.layout, s.format, s.num_filters, s.num_filters == 1 ? "" : "s",
        s.filter_bytes);
    std::string keys = "unknown";
    if (s.num_keys.has_value()) {
      keys = absl::StrFormat("%s%.0f keys", s.keys_estimated ? "~" : "",
                             *s.num_keys);
    }
    std::string bits = "unknown";
    if (s.bits_per_key.has_value()) {
      bits = absl::StrFormat("%s%.2f", s.keys_estimated ? "~" : "",
                             *s.bits_per_key);
    }
    std::cout << absl::StrFormat(
        "         bits/key %s (%s), k = %s, expected FP rate %s\n", bits, keys,
        s.num_probes > 0 ? absl::StrCat(s.num_probes) : "unknown",
        Percent(s.expected_fpp));
  }
  if (!s.note.empty()) std::cout << "note:    " << s.note << "\n";
  std::cout << absl::StrFormat("read:    %d read%s, %d bytes of %d\n", io.reads,
                               io.reads == 1 ? "" : "s", io.bytes, file_bytes);
}

void PrintJson(const std::string& path, const std::vector<Answer>& answers,
               const FilterSummary& s, const IoStats& io, uint64_t file_bytes) {
  const auto dump = [](const Json& j) {
    std::cout << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  };
  for (const Answer& a : answers) {
    dump(Json{{"key", a.key}, {"may_match", a.may_match}});
  }
  Json summary = {{"file", path},
                  {"file_bytes", file_bytes},
                  {"table_format", s.table_format},
                  {"format_version", s.format_version},
                  {"has_filter", s.has_filter}};
  if (s.has_filter) {
    summary["filter_name"] = s.policy_name;
    summary["layout"] = s.layout;
    summary["filter_format"] = s.format;
    summary["num_filters"] = s.num_filters;
    summary["filter_bytes"] = s.filter_bytes;
    summary["num_keys"] = s.num_keys.has_value() ? Json(*s.num_keys) : Json();
    summary["num_keys_estimated"] = s.keys_estimated;
    summary["bits_per_key"] =
        s.bits_per_key.has_value() ? Json(*s.bits_per_key) : Json();
    summary["num_probes"] = s.num_probes > 0 ? Json(s.num_probes) : Json();
    summary["expected_fpp"] = s.expected_fpp;
  }
  if (!s.note.empty()) summary["note"] = s.note;
  summary["reads"] = io.reads;
  summary["bytes_read"] = io.bytes;
  dump(summary);
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "sst_probe [--stats] [--format=text|json] [--hex] FILE [KEY...]\n"
      "Asks a LevelDB or RocksDB table's filter whether each KEY may be in "
      "the table.");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  const std::string format = absl::GetFlag(FLAGS_format);
  if (format != "text" && format != "json") {
    std::cerr << "sst_probe: --format must be text or json, got '" << format
              << "'\n";
    return kExitUsage;
  }
  TableFilterOptions options;
  options.tail_prefetch_bytes = absl::GetFlag(FLAGS_tail_prefetch_bytes);
  const std::string index_keys = absl::GetFlag(FLAGS_index_keys);
  if (index_keys == "user") {
    options.index_keys = IndexKeys::kUser;
  } else if (index_keys != "internal") {
    std::cerr << "sst_probe: --index_keys must be internal or user, got '"
              << index_keys << "'\n";
    return kExitUsage;
  }
  const bool stats_only = absl::GetFlag(FLAGS_stats);
  if (args.size() < 2 || (args.size() < 3 && !stats_only)) {
    std::cerr << "usage: sst_probe [--stats] [--format=text|json] [--hex] "
                 "FILE KEY... (--help for more)\n";
    return kExitUsage;
  }
  const std::string path = args[1];

  std::vector<std::string> keys;
  for (size_t i = 2; i < args.size(); ++i) {
    std::string key = args[i];
    if (absl::GetFlag(FLAGS_hex)) {
      if (key.size() % 2 != 0 ||
          key.find_first_not_of("0123456789abcdefABCDEF") !=
              std::string::npos) {
        std::cerr << "sst_probe: --hex: '" << args[i]
                  << "' is not an even number of hex digits\n";
        return kExitUsage;
      }
      key = absl::HexStringToBytes(key);
    }
    keys.push_back(std::move(key));
  }

  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, options);
  if (!table.ok()) {
    std::cerr << "sst_probe: " << table.status().message() << "\n";
    return kExitBadInput;
  }
  std::vector<Answer> answers;
  if (!stats_only) {
    for (size_t i = 0; i < keys.size(); ++i) {
      answers.push_back({args[i + 2], (*table)->KeyMayMatch(keys[i])});
    }
  }
  const FilterSummary summary = SummarizeFilter(**table);
  const uint64_t file_bytes = (*table)->info().file_bytes;
  if (format == "json") {
    PrintJson(path, answers, summary, (*table)->io(), file_bytes);
  } else {
    PrintText(path, answers, summary, (*table)->io(), file_bytes);
  }
  if (!(*table)->corruption().ok()) {
    std::cerr << "sst_probe: " << path << ": "
              << (*table)->corruption().message()
              << " (every key reported as may match)\n";
    return kExitBadInput;
  }
  return 0;
}

}  // namespace
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::Main(argc, argv); }
