// The presence renderer (renderers.h): the tables of
// docs/presence_filtered_db.md from db_bench's presence rows,
// PresenceFilteredDB against the same database opened by RocksDB alone, so that
// the page's figures are the JSON's and never typed.

#include <cstdint>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "docs/render_util.h"
#include "docs/renderers.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace docs {
namespace {

using Json = nlohmann::ordered_json;

constexpr double kMiB = 1 << 20;

// The queries of a row's "buffered" and "direct", by their JSON keys, in the
// tables' order.
struct Query {
  const char* name;
  const char* title;
};
constexpr Query kQueries[] = {{"get_absent", "Get, absent keys"},
                              {"get_present", "Get, present keys"},
                              {"multiget_absent", "MultiGet, absent keys"},
                              {"multiget_present", "MultiGet, present keys"}};

// One table line of a query's figures, from a row's "buffered" or "direct".
std::string MarkdownQueryLine(RowReader& row, const std::string& config,
                              const char* reads, const char* mode,
                              const Query& query) {
  const char* name = query.name;
  return absl::StrFormat("| %s | %s | %s | %d | %.0f | %.0f | %.3f× |\n",
                         config, reads, query.title,
                         row.Count({mode, name, "keys_per_round"}),
                         row.Number({mode, name, "plain", "per_second"}),
                         row.Number({mode, name, "wrapped", "per_second"}),
                         row.Number({mode, name, "ratio"}));
}

// The mixed sweep's table, of the rows that have one (none when no row has:
// rows written before the sweep existed).
absl::Status PrintMarkdownMixed(std::vector<RowReader>& readers,
                                std::ostream& out) {
  bool headed = false;
  for (RowReader& row : readers) {
    if (!row.Has({"mixed_get"})) continue;
    const std::string config = row.String({"config"});
    const Json& mixes = row.Get({"mixed_get"});
    if (!mixes.is_array() || mixes.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(config, ": mixed_get is not a list of mixes"));
    }
    for (const Json& mix : mixes) {
      RowReader figures(mix);
      if (!headed) {
        out << absl::StrFormat(
            "\nGet of present and absent keys mixed, with the data in the page "
            "cache: %d keys of each mix per round, each present or absent by "
            "a hash of its draw, asked of both handles as above.\n\n"
            "| config | %% present | RocksDB alone Get/s | wrapper Get/s | "
            "wrapper / RocksDB |\n|---|---|---|---|---|\n",
            figures.Count({"keys_per_round"}));
        headed = true;
      }
      out << absl::StrFormat("| %s | %d%% | %.0f | %.0f | %.3f× |\n", config,
                             figures.Count({"present_percent"}),
                             figures.Number({"plain", "per_second"}),
                             figures.Number({"wrapped", "per_second"}),
                             figures.Number({"ratio"}));
      if (!figures.missing().empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(config, ": a mix lacks ", figures.missing()));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status PrintMarkdownGroup(const std::vector<Json>& rows,
                                std::ostream& out) {
  std::vector<RowReader> readers;
  for (const Json& row : rows) readers.emplace_back(row);
  RowReader& first = readers.front();
  const uint64_t keys = first.Count({"keys"});
  out << absl::StrFormat(
      "**%d keys** of 16 bytes with %d-byte values; the wrapper's filter at "
      "fpp %g sized for %d keys. %d rounds, each asking RocksDB alone and the "
      "wrapper, open at once on the same table files, %d keys of each query "
      "in alternating blocks of %d (with direct reads %d of present keys); "
      "MultiGet in batches of %d. "
      "Measured on %s (%s), RocksDB %s; load averages (1, 5, 15 minutes) %s "
      "at the first round, %s after the last.\n\n",
      keys, first.Count({"value_bytes"}), first.Number({"presence_fpp"}),
      first.Count({"expected_keys"}), first.Count({"reps"}),
      first.Count({"lookups_per_rep"}), first.Count({"block_keys"}),
      first.Count({"direct_present_keys"}), first.Count({"multiget_batch"}),
      first.String({"machine"}), first.String({"cpu"}),
      first.String({"rocksdb_version"}),
      first.String({"load_averages", "first_round"}),
      first.String({"load_averages", "after_last_round"}));
  out << "| config | reads | query | keys per round | RocksDB alone /s | "
         "through the wrapper /s | wrapper / RocksDB |\n"
         "|---|---|---|---|---|---|---|\n";
  for (RowReader& row : readers) {
    const std::string config = row.String({"config"});
    for (const Query& query : kQueries) {
      out << MarkdownQueryLine(row, config, "page cache", "buffered", query);
    }
    if (!row.Get({"direct"}).is_null()) {
      const char* reads = row.Get({"direct", "direct"}).is_boolean() &&
                                  row.Get({"direct", "direct"}).get<bool>()
                              ? "direct"
                              : "direct refused: buffered";
      for (const Query& query : kQueries) {
        out << MarkdownQueryLine(row, config, reads, "direct", query);
      }
    }
  }
  absl::Status mixed = PrintMarkdownMixed(readers, out);
  if (!mixed.ok()) return mixed;
  out << absl::StrFormat(
      "\nFills: %d turns of each kind a round, in rotating order; each figure "
      "is the median of every round's turns, each ratio the median of their "
      "pairs.\n",
      first.Count({"fill", "turns_per_round"}));
  out << "\n| config | fill keys | RocksDB alone keys/s | wrapper keys/s | "
         "wrapper / RocksDB | wrapper saving only at close keys/s | "
         "its ratio | write stalls s: RocksDB alone / wrapper | wrapper's "
         "saves during its fill: count / s |\n"
         "|---|---|---|---|---|---|---|---|---|\n";
  for (RowReader& row : readers) {
    out << absl::StrFormat(
        "| %s | %d | %.0f | %.0f | %.3f× | %.0f | %.3f× | %.2f / %.2f | "
        "%.0f / %.2f |\n",
        row.String({"config"}), row.Count({"fill", "keys_per_turn"}),
        row.Number({"fill", "plain", "keys_per_second"}),
        row.Number({"fill", "wrapped", "keys_per_second"}),
        row.Number({"fill", "ratio"}),
        row.Number({"fill", "wrapped_saving_at_close", "keys_per_second"}),
        row.Number({"fill", "wrapped_saving_at_close", "ratio"}),
        row.Number({"fill", "stall_seconds", "plain", "seconds"}),
        row.Number({"fill", "stall_seconds", "wrapped", "seconds"}),
        row.Number({"fill", "wrapper_saves", "saves", "median"}),
        row.Number({"fill", "wrapper_saves", "seconds"}));
  }
  out << "\n| config | open s: RocksDB alone | wrapper, saved filter | "
         "difference | rebuild s | CloseAndSave s | filter memory | "
         "bytes/key | filter sized for keys |\n"
         "|---|---|---|---|---|---|---|---|---|\n";
  for (RowReader& row : readers) {
    out << absl::StrFormat(
        "| %s | %.3f | %.3f | %+.3f | %.3f | %.3f | %.2f MiB | %.3f | %d |\n",
        row.String({"config"}), row.Number({"open", "plain", "seconds"}),
        row.Number({"open", "wrapped", "seconds"}),
        row.Number({"open", "extra_seconds"}),
        row.Number({"rebuild", "seconds"}),
        row.Number({"close_and_save", "seconds"}),
        row.Number({"memory", "bytes"}) / kMiB,
        row.Number({"memory", "bytes_per_key"}),
        row.Count({"memory", "sized_for_keys"}));
  }
  out << "\n| config | target | figure | |\n|---|---|---|---|\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json& targets = readers[i].Get({"targets"});
    const std::string config = readers[i].String({"config"});
    for (const Json& target : targets) {
      RowReader check(target);
      const std::string what = check.String({"target"});
      const double figure = check.Number({"figure"});
      const double bound = check.Number({"bound"});
      const bool at_least = check.Get({"at_least"}).is_boolean() &&
                            check.Get({"at_least"}).get<bool>();
      std::string verdict =
          check.Get({"met"}).is_boolean() && check.Get({"met"}).get<bool>()
              ? "met"
              : "missed";
      if (!check.Get({"stated_at_keys"}).is_null()) {
        absl::StrAppend(&verdict, " (the target is stated at ",
                        check.Count({"stated_at_keys"}), " keys)");
      }
      if (!check.missing().empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(config, ": a target lacks ", check.missing()));
      }
      out << absl::StrFormat("| %s | %s %s | %s | %s |\n", config, what,
                             at_least ? absl::StrFormat(">= %g×", bound)
                                      : absl::StrFormat("<= %+g s", bound),
                             at_least ? absl::StrFormat("%.4g×", figure)
                                      : absl::StrFormat("%+.3f s", figure),
                             verdict);
    }
  }
  out << "\n";
  for (const RowReader& row : readers) {
    if (!row.missing().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("a presence row lacks ", row.missing()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> RenderPresence(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  absl::StatusOr<std::vector<Json>> rows =
      ReadSectionRows("presence", "presence", json_path, options, read);
  if (!rows.ok()) return rows.status();
  // Rows in groups of one key count, in the order they come.
  std::vector<std::vector<Json>> groups;
  for (Json& row : *rows) {
    if (!groups.empty() && groups.back().front()["keys"] == row["keys"]) {
      groups.back().push_back(std::move(row));
    } else {
      groups.push_back({std::move(row)});
    }
  }
  std::ostringstream out;
  for (const std::vector<Json>& group : groups) {
    absl::Status status = PrintMarkdownGroup(group, out);
    if (!status.ok()) return status;
  }
  return out.str();
}

}  // namespace docs
}  // namespace sstfilter
