#include "bench/db/db_report.h"

#include <cmath>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/db/lookups.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace bench {
namespace {

const DbResult* Find(const std::vector<DbResult>& results,
                     const std::string& config, const std::string& tree) {
  for (const DbResult& r : results) {
    if (r.config == config && r.tree == tree) return &r;
  }
  return nullptr;
}

// "what, tree: a / b = ratio" lines for the comparisons the targets are
// stated in, when both configurations ran in that tree.
void PrintRatio(const std::vector<DbResult>& results, const char* what,
                const std::string& numerator, const std::string& denominator,
                double (*figure)(const DbResult&), std::ostream& out) {
  for (const char* tree : {kSettledTree, kRecentFlushesTree}) {
    const DbResult* a = Find(results, numerator, tree);
    const DbResult* b = Find(results, denominator, tree);
    if (a == nullptr || b == nullptr || figure(*b) == 0) continue;
    out << absl::StrFormat("%s, %s: %s / %s = %.3f\n", what, tree, numerator,
                           denominator, figure(*a) / figure(*b));
  }
}

double AbsentRate(const DbResult& r) { return r.absent.lookups_per_second; }
double AbsentReads(const DbResult& r) { return r.absent.data_reads_per_lookup; }

}  // namespace

void PrintTable(const DbShape& shape, const std::vector<DbResult>& results,
                std::ostream& out) {
  if (results.empty()) return;
  out << absl::StrFormat(
      "%d keys of 16 bytes, %d-byte values; %d lookups of each kind per "
      "repetition, median of %d repetitions\n\n",
      shape.keys, shape.value_bytes, shape.lookups, shape.reps);
  out << absl::StrFormat(
      "%-8s %-24s %-15s %8s %10s %-16s %8s %12s %12s %12s %12s\n", "store",
      "config", "tree", "bits/key", "filter MiB", "files by level", "build s",
      "absent/s", "absent reads", "present/s", "present reads");
  for (const DbResult& r : results) {
    out << absl::StrFormat(
        "%-8s %-24s %-15s %8.2f %10.1f %-16s %8.0f %12.0f %12.4f %12.0f "
        "%12.4f\n",
        r.store, r.config, r.tree, r.bits_per_key,
        static_cast<double>(r.filter_bytes) / (1 << 20),
        FormatLevels(r.files_per_level), r.build_seconds,
        r.absent.lookups_per_second, r.absent.data_reads_per_lookup,
        r.present.lookups_per_second, r.present.data_reads_per_lookup);
  }
  out << "\n";
  for (const DbResult& r : results) {
    if (r.tree == kSettledTree) {
      out << absl::StrFormat("%-24s %s\n", r.config, r.filter);
    }
  }
  out << "\n";
  for (const DbResult& r : results) {
    if (!r.bits_per_key_per_level.empty()) {
      std::vector<std::string> levels;
      for (size_t i = 0; i < r.bits_per_key_per_level.size(); ++i) {
        if (r.entries_per_level[i] == 0) continue;
        levels.push_back(absl::StrFormat(
            "L%d %.1f (%.1f%% of keys)", i, r.bits_per_key_per_level[i],
            100.0 * r.entries_per_level[i] / static_cast<double>(r.keys)));
      }
      out << absl::StrFormat("%-24s %-15s bits/key by level: %s\n", r.config,
                             r.tree, absl::StrJoin(levels, ", "));
    }
  }
  out << "\n";
  PrintRatio(results, "absent lookups/s", "sstfilter.native", "rocksdb.bloom",
             AbsentRate, out);
  PrintRatio(results, "absent lookups/s", "sstfilter.native", "rocksdb.ribbon",
             AbsentRate, out);
  PrintRatio(results, "data reads per absent lookup", "sstfilter.per_level",
             "sstfilter.native", AbsentReads, out);
  PrintRatio(results, "absent lookups/s", "leveldb+sstfilter.native",
             "leveldb.bloom", AbsentRate, out);
  out << "\n";
}

void PrintJson(const DbShape& shape, const std::vector<DbResult>& results,
               std::ostream& out) {
  for (const DbResult& r : results) {
    nlohmann::ordered_json row;
    row["section"] = kPointSection;
    row["store"] = r.store;
    row["config"] = r.config;
    row["tree"] = r.tree;
    row["filter"] = r.filter;
    row["keys"] = r.keys;
    row["value_bytes"] = shape.value_bytes;
    row["lookups_per_rep"] = shape.lookups;
    row["reps"] = shape.reps;
    row["build_seconds"] = r.build_seconds;
    row["filter_bytes"] = r.filter_bytes;
    row["bits_per_key"] = r.bits_per_key;
    row["files_per_level"] = r.files_per_level;
    row["entries_per_level"] = r.entries_per_level;
    row["bits_per_key_per_level"] = r.bits_per_key_per_level;
    for (const auto& [name, figures] :
         {std::make_pair("absent", &r.absent),
          std::make_pair("present", &r.present)}) {
      row[name] = {{"lookups_per_second", figures->lookups_per_second},
                   {"data_reads_per_lookup", figures->data_reads_per_lookup},
                   {"found", figures->found},
                   {"lookups", figures->lookups}};
    }
    out << row.dump() << "\n";
  }
}

}  // namespace bench
}  // namespace sstfilter
