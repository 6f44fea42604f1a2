// sst_probe: asks a LevelDB or RocksDB table file's filter whether keys may be
// in the table, reading only the file's tail, and describes the filter; with
// --range, whether any key in [LO, HI] may be, from the table's range filter.
//
//   sst_probe [--stats] [--format=text|json] [--hex] [--index_keys=...]
//   [--prefix] [--prefix_extractor=NAME] [--filter=SPEC,...] FILE [KEY...]
//   sst_probe [--range | --range_before] [...] FILE [LO HI]...
//
// Exit status: 0 when every answer came from a sound filter (or the table has
// none), 1 when the file could not be read as a table, its filter is corrupt
// (then every key or range is reported as "may match", the safe answer), or
// --filter named families none of which wrote the table's filter, 2
// for a usage error, an unknown flag or a value a flag refuses included. A
// table without a (range) filter answers "may match" with status 0.
// table/table_format.md describes the output.

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "filter/filter_spec.h"
#include "filter/format_registry.h"
#include "filter/prefix_extractor.h"
#include "filter/spec_list.h"
#include "nlohmann/json.hpp"
#include "table/filter_summary.h"
#include "table/table_filter.h"
#include "util/flag_check.h"

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
ABSL_FLAG(bool, prefix, false,
          "each KEY is a prefix: may any key with it be in the table? (a "
          "table whose filter holds prefixes cut the same way can say no)");
ABSL_FLAG(bool, range, false,
          "the arguments after FILE are pairs LO HI: may any key k with LO <= "
          "k <= HI be in the table? (asks the table's range filter)");
ABSL_FLAG(bool, range_before, false,
          "as --range, for LO <= k < HI (RocksDB's iterate_lower_bound and "
          "iterate_upper_bound)");
ABSL_FLAG(std::string, prefix_extractor, "",
          "the extractor that cut the --prefix KEYs, by RocksDB's name (e.g. "
          "rocksdb.FixedPrefix.8); empty: the table's own");
ABSL_FLAG(sstfilter::SpecList, filter, {},
          "comma list of filter specs (filter/filter_spec.h; their size may "
          "be left out): the families the table's filter must come from; a "
          "table whose filter none of them writes exits with status 1");
ABSL_FLAG(uint64_t, tail_prefetch_bytes, 256 * 1024,
          "bytes read from the end of the file in the first read");

namespace sstfilter {
namespace {

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

using Json = nlohmann::ordered_json;

struct Answer {
  std::string key;  // as given on the command line; a range's LO
  bool may_match;
  std::optional<size_t> partition;  // partitioned filters: where it was asked
  std::optional<std::string> hi;    // ranges only: HI as given
  bool hi_inclusive = true;         // ranges only: --range, not _before
};

// "KEY", or "[LO, HI]" / "[LO, HI)".
std::string QuestionText(const Answer& a) {
  if (!a.hi.has_value()) return a.key;
  return absl::StrCat("[", a.key, ", ", *a.hi, a.hi_inclusive ? "]" : ")");
}

std::string Percent(double p) { return absl::StrFormat("%.4g%%", 100 * p); }

// A partitioned filter's rate is known from the partitions read.
bool FppKnown(const FilterSummary& s) {
  return s.layout != "partitioned" || s.partitions_described > 0;
}

// The range filter, when the table has one or a range was asked.
void PrintRangeText(const std::optional<RangeFilterInfo>& r, bool asked) {
  if (!r.has_value()) {
    if (asked) std::cout << "range:   none (every range may match)\n";
    return;
  }
  std::cout << absl::StrFormat("range:   %s (%s): %d bytes", r->format_name,
                               RangeFilterSourceName(r->source),
                               r->filter_bytes);
  if (!r->note.empty()) {
    std::cout << "\n         every range may match: " << r->note << "\n";
    return;
  }
  std::cout << absl::StrFormat(
      ", %d codes, %.2f bits/code\n         false-positive bound %s per "
      "code of a range, ranges of up to %d codes\n",
      r->num_codes, r->bits_per_key, Percent(r->fpp_bound_per_code),
      r->max_range_length);
}

Json RangeJson(const RangeFilterInfo& r) {
  Json j = {{"format", r.format_name},
            {"source", RangeFilterSourceName(r.source)},
            {"bytes", r.filter_bytes}};
  if (!r.note.empty()) {
    j["note"] = r.note;
    return j;
  }
  j["num_codes"] = r.num_codes;
  j["bits_per_code"] = r.bits_per_key;
  j["fpp_bound_per_code"] = r.fpp_bound_per_code;
  j["max_range_length"] = r.max_range_length;
  return j;
}

void PrintText(const std::string& path, const std::vector<Answer>& answers,
               const FilterSummary& s, const std::vector<std::string>& families,
               const std::optional<RangeFilterInfo>& r, bool ranges_asked,
               const IoStats& io, uint64_t file_bytes) {
  for (const Answer& a : answers) {
    std::cout << (a.may_match ? "may match  " : "ruled out  ")
              << QuestionText(a);
    if (a.partition.has_value()) {
      std::cout << "  (partition " << *a.partition << ")";
    }
    std::cout << "\n";
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
    std::cout << "family:  "
              << (families.empty() ? "none linked in"
                                   : absl::StrJoin(families, ", "))
              << "\n";
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
        FppKnown(s) ? Percent(s.expected_fpp) : "unknown");
    if (s.checksummed_filters > 0) {
      std::cout << absl::StrFormat(
          "         CRC32C in each filter: %s\n",
          s.checksum_mismatches == 0
              ? absl::StrCat("all ", s.checksummed_filters, " match")
              : absl::StrCat(s.checksum_mismatches, " of ",
                             s.checksummed_filters,
                             " do not match (those may match every key)"));
    }
    if (s.layout == "partitioned") {
      std::cout << absl::StrFormat(
          "         partitions of %d..%d bytes, index %d bytes, %d read\n",
          s.min_partition_bytes, s.max_partition_bytes, s.partition_index_bytes,
          s.partitions_described);
    }
    std::cout << "holds:   " << (s.whole_keys ? "whole keys" : "")
              << (s.whole_keys && !s.prefix_extractor.empty() ? " and " : "")
              << (s.prefix_extractor.empty()
                      ? ""
                      : absl::StrCat("prefixes (", s.prefix_extractor, ")"))
              << "\n";
  }
  if (!s.note.empty()) std::cout << "note:    " << s.note << "\n";
  PrintRangeText(r, ranges_asked);
  std::cout << absl::StrFormat("read:    %d read%s, %d bytes of %d\n", io.reads,
                               io.reads == 1 ? "" : "s", io.bytes, file_bytes);
}

void PrintJson(const std::string& path, const std::vector<Answer>& answers,
               const FilterSummary& s, const std::vector<std::string>& families,
               const std::optional<RangeFilterInfo>& r, const IoStats& io,
               uint64_t file_bytes) {
  const auto dump = [](const Json& j) {
    std::cout << j.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  };
  for (const Answer& a : answers) {
    Json line = a.hi.has_value() ? Json{{"lo", a.key},
                                        {"hi", *a.hi},
                                        {"hi_inclusive", a.hi_inclusive}}
                                 : Json{{"key", a.key}};
    line["may_match"] = a.may_match;
    if (a.partition.has_value()) line["partition"] = *a.partition;
    dump(line);
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
    summary["filter_families"] = families;
    summary["num_filters"] = s.num_filters;
    summary["filter_bytes"] = s.filter_bytes;
    summary["num_keys"] = s.num_keys.has_value() ? Json(*s.num_keys) : Json();
    summary["num_keys_estimated"] = s.keys_estimated;
    summary["bits_per_key"] =
        s.bits_per_key.has_value() ? Json(*s.bits_per_key) : Json();
    summary["num_probes"] = s.num_probes > 0 ? Json(s.num_probes) : Json();
    summary["expected_fpp"] = FppKnown(s) ? Json(s.expected_fpp) : Json();
    if (s.checksummed_filters > 0) {
      summary["checksummed_filters"] = s.checksummed_filters;
      summary["checksum_mismatches"] = s.checksum_mismatches;
    }
    summary["whole_keys"] = s.whole_keys;
    summary["prefix_extractor"] =
        s.prefix_extractor.empty() ? Json() : Json(s.prefix_extractor);
    if (s.layout == "partitioned") {
      summary["partition_index_bytes"] = s.partition_index_bytes;
      summary["min_partition_bytes"] = s.min_partition_bytes;
      summary["max_partition_bytes"] = s.max_partition_bytes;
      summary["partitions_described"] = s.partitions_described;
    }
  }
  if (!s.note.empty()) summary["note"] = s.note;
  summary["has_range_filter"] = r.has_value();
  if (r.has_value()) summary["range_filter"] = RangeJson(*r);
  summary["reads"] = io.reads;
  summary["bytes_read"] = io.bytes;
  dump(summary);
}

enum class Question {
  kKey,          // may KEY be in the table?
  kPrefix,       // --prefix: may a key with the prefix KEY?
  kRange,        // --range: may a key in [LO, HI]?
  kRangeBefore,  // --range_before: may a key in [LO, HI)?
};

// The question the flags ask; nullopt, after a message, when they ask more
// than one.
std::optional<Question> ChosenQuestion() {
  const bool prefix = absl::GetFlag(FLAGS_prefix);
  const bool range = absl::GetFlag(FLAGS_range);
  const bool range_before = absl::GetFlag(FLAGS_range_before);
  if (prefix + range + range_before > 1) {
    std::cerr << "sst_probe: --prefix, --range and --range_before ask "
                 "different questions: give one\n";
    return std::nullopt;
  }
  if (prefix) return Question::kPrefix;
  if (range) return Question::kRange;
  if (range_before) return Question::kRangeBefore;
  return Question::kKey;
}

// Checks that range arguments (as bytes, and as given) are pairs LO HI with
// LO <= HI; prints why not.
bool ValidRanges(const std::vector<std::string>& bounds,
                 const std::vector<char*>& given) {
  if (bounds.size() % 2 != 0) {
    std::cerr << "sst_probe: --range: the arguments after FILE are pairs LO "
                 "HI, got "
              << bounds.size() << "\n";
    return false;
  }
  for (size_t i = 0; i < bounds.size(); i += 2) {
    if (bounds[i + 1] < bounds[i]) {
      std::cerr << "sst_probe: --range: LO '" << given[i] << "' is after HI '"
                << given[i + 1] << "'\n";
      return false;
    }
  }
  return true;
}

// Asks table each question; given: the arguments as on the command line.
std::vector<Answer> Ask(const TableFilter& table, Question question,
                        const std::vector<std::string>& args,
                        const std::vector<char*>& given) {
  std::vector<Answer> answers;
  if (question == Question::kRange || question == Question::kRangeBefore) {
    const bool inclusive = question == Question::kRange;
    for (size_t i = 0; i < args.size(); i += 2) {
      const bool may_match =
          inclusive ? table.RangeMayMatch(args[i], args[i + 1])
                    : table.RangeMayMatchBefore(args[i], args[i + 1]);
      answers.push_back(
          {given[i], may_match, std::nullopt, given[i + 1], inclusive});
    }
    return answers;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const bool may_match = question == Question::kPrefix
                               ? table.PrefixMayMatch(args[i])
                               : table.KeyMayMatch(args[i]);
    answers.push_back(
        {given[i], may_match, table.PartitionOf(args[i]), std::nullopt, true});
  }
  return answers;
}

// The families --filter names, each spec parsed (its size may be left out);
// the parser's one line for a malformed one.
absl::StatusOr<std::vector<std::string>> ExpectedFamilies(
    const SpecList& list) {
  std::vector<std::string> families;
  for (const std::string& spec : list.entries) {
    absl::StatusOr<PolicySpec> parsed =
        ParsePolicySpec(spec, SpecSize::kOptional);
    if (!parsed.ok()) return parsed.status();
    families.push_back(parsed->family);
  }
  return families;
}

bool WrittenByOneOf(const std::vector<std::string>& writers,
                    const std::vector<std::string>& expected) {
  for (const std::string& family : expected) {
    if (std::find(writers.begin(), writers.end(), family) != writers.end()) {
      return true;
    }
  }
  return false;
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "sst_probe [--stats] [--format=text|json] [--hex] [--prefix] FILE "
      "[KEY...]\n"
      "sst_probe [--range | --range_before] [...] FILE [LO HI]...\n"
      "Asks a LevelDB or RocksDB table's filter whether each KEY (or, with "
      "--prefix, any key with the prefix KEY; with --range, any key in "
      "[LO, HI]) may be in the table.");
  if (absl::Status flags =
          CheckFlags(argc, argv, /*positional_arguments=*/true);
      !flags.ok()) {
    std::cerr << "sst_probe: " << flags.message() << "\n";
    return kExitUsage;
  }
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
  const std::string extractor_name = absl::GetFlag(FLAGS_prefix_extractor);
  if (!extractor_name.empty()) {
    absl::StatusOr<std::unique_ptr<const PrefixExtractor>> extractor =
        PrefixExtractorFromName(extractor_name);
    if (!extractor.ok()) {
      std::cerr << "sst_probe: --prefix_extractor: "
                << extractor.status().message() << "\n";
      return kExitUsage;
    }
    options.prefix_extractor = std::move(*extractor);
  }
  const absl::StatusOr<std::vector<std::string>> expected =
      ExpectedFamilies(absl::GetFlag(FLAGS_filter));
  if (!expected.ok()) {
    std::cerr << "sst_probe: --filter: " << expected.status().message() << "\n";
    return kExitUsage;
  }
  const std::optional<Question> question = ChosenQuestion();
  if (!question.has_value()) return kExitUsage;
  const bool stats_only = absl::GetFlag(FLAGS_stats);
  if (args.size() < 2 || (args.size() < 3 && !stats_only)) {
    std::cerr << "usage: sst_probe [--stats] [--format=text|json] [--hex] "
                 "[--prefix | --range | --range_before] FILE KEY... (--help "
                 "for more)\n";
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
  const std::vector<char*> given(args.begin() + 2, args.end());
  const bool ranges =
      question == Question::kRange || question == Question::kRangeBefore;
  if (ranges && !stats_only && !ValidRanges(keys, given)) return kExitUsage;

  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, options);
  if (!table.ok()) {
    std::cerr << "sst_probe: " << table.status().message() << "\n";
    return kExitBadInput;
  }
  std::vector<Answer> answers;
  if (!stats_only) {
    answers = Ask(**table, *question, keys, given);
  } else {
    // The summary describes the whole filter: read every partition.
    (*table)->LoadAllPartitions().IgnoreError();
  }
  const FilterSummary summary = SummarizeFilter(**table);
  const uint64_t file_bytes = (*table)->info().file_bytes;
  const std::optional<RangeFilterInfo>& range = (*table)->info().range_filter;
  const std::vector<std::string> families =
      FamiliesWritingFormat((*table)->format());
  if (format == "json") {
    PrintJson(path, answers, summary, families, range, (*table)->io(),
              file_bytes);
  } else {
    PrintText(path, answers, summary, families, range, ranges, (*table)->io(),
              file_bytes);
  }
  if (!(*table)->corruption().ok()) {
    std::cerr << "sst_probe: " << path << ": "
              << (*table)->corruption().message()
              << " (the keys or ranges it covers are reported as may "
                 "match)\n";
    return kExitBadInput;
  }
  if (!expected->empty() && !WrittenByOneOf(families, *expected)) {
    std::cerr << "sst_probe: " << path << ": the filter ("
              << (summary.has_filter ? summary.format : "none")
              << ") is written by none of --filter's families ("
              << absl::StrJoin(*expected, ", ") << ")\n";
    return kExitBadInput;
  }
  return 0;
}

}  // namespace
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::Main(argc, argv); }
