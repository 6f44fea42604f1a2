#include "engines/rocksdb/presence/bench/presence_report.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/db/rocksdb_store.h"
#include "bench/machine.h"
#include "nlohmann/json.hpp"
#include "util/medians.h"

namespace sstfilter {
namespace bench {
namespace {

using Json = nlohmann::ordered_json;

constexpr double kMiB = 1 << 20;

constexpr std::array<PresenceQuery, kPresenceQueries> kQueries = {
    PresenceQuery::kGetAbsent, PresenceQuery::kGetPresent,
    PresenceQuery::kMultiGetAbsent, PresenceQuery::kMultiGetPresent};

// The query as the tables name it.
const char* QueryTitle(PresenceQuery query) {
  switch (query) {
    case PresenceQuery::kGetAbsent:
      return "Get, absent keys";
    case PresenceQuery::kGetPresent:
      return "Get, present keys";
    case PresenceQuery::kMultiGetAbsent:
      return "MultiGet, absent keys";
    case PresenceQuery::kMultiGetPresent:
      return "MultiGet, present keys";
  }
  return "?";
}

// A mix of the mixed sweep as the text table names it.
std::string MixTitle(int percent) {
  return absl::StrFormat("Get, %d%% present", percent);
}

double BytesPerKey(uint64_t bytes, uint64_t keys) {
  return keys == 0 ? 0 : static_cast<double>(bytes) / static_cast<double>(keys);
}

// A target's figure and bound as the text table prints them (the markdown's:
// docs/render_presence.cc).
std::string TargetFigure(const PresenceTargetCheck& check) {
  return check.at_least ? absl::StrFormat("%.4gx", check.figure)
                        : absl::StrFormat("%+.3f s", check.figure);
}

std::string TargetBound(const PresenceTargetCheck& check) {
  return check.at_least ? absl::StrFormat(">= %gx", check.bound)
                        : absl::StrFormat("<= %+g s", check.bound);
}

std::string TargetVerdict(bool met, std::optional<uint64_t> stated_at_keys) {
  std::string verdict = met ? "met" : "missed";
  if (stated_at_keys.has_value()) {
    absl::StrAppend(&verdict, " (the target is stated at ", *stated_at_keys,
                    " keys)");
  }
  return verdict;
}

Json PairJson(const PresencePair& pair, const char* figure) {
  Json json;
  json["plain"] = {{figure, pair.PlainMedian()}, {"rounds", pair.plain}};
  json["wrapped"] = {{figure, pair.WrappedMedian()}, {"rounds", pair.wrapped}};
  return json;
}

Json LookupsJson(const PresenceLookups& lookups) {
  Json json;
  for (const PresenceQuery query : kQueries) {
    const size_t q = static_cast<size_t>(query);
    Json figures = PairJson(lookups.per_second[q], "per_second");
    figures["keys_per_round"] = lookups.keys_per_round[q];
    figures["plain"]["found"] = lookups.found_plain[q];
    figures["wrapped"]["found"] = lookups.found_wrapped[q];
    figures["ratio"] = lookups.per_second[q].MedianRatio();
    json[PresenceQueryName(query)] = std::move(figures);
  }
  return json;
}

// One object per mix, in kPresenceMixPercents' order.
Json MixedJson(const PresenceMixedGets& mixed) {
  Json json = Json::array();
  for (size_t m = 0; m < kPresenceMixes; ++m) {
    const Json pair = PairJson(mixed.per_second[m], "per_second");
    Json figures = {{"present_percent", kPresenceMixPercents[m]},
                    {"keys_per_round", mixed.keys_per_round},
                    {"plain", pair["plain"]},
                    {"wrapped", pair["wrapped"]}};
    figures["plain"]["found"] = mixed.found_plain[m];
    figures["wrapped"]["found"] = mixed.found_wrapped[m];
    figures["ratio"] = mixed.per_second[m].MedianRatio();
    json.push_back(std::move(figures));
  }
  return json;
}

Json SecondsJson(const std::vector<double>& rounds) {
  return {{"seconds", LowerMedian(rounds)}, {"rounds", rounds}};
}

}  // namespace

std::vector<PresenceTargetCheck> CheckPresenceTargets(
    const PresenceResult& result) {
  std::vector<PresenceTargetCheck> checks;
  const auto at_least = [&](std::string target, double figure, double bound) {
    PresenceTargetCheck check;
    check.target = std::move(target);
    check.figure = figure;
    check.bound = bound;
    check.at_least = true;
    check.met = figure >= bound;
    checks.push_back(std::move(check));
  };
  const auto& rates = result.buffered.per_second;
  at_least("absent Get/s with the data in the page cache, wrapper / RocksDB",
           rates[static_cast<size_t>(PresenceQuery::kGetAbsent)].MedianRatio(),
           kAbsentGetTarget);
  at_least("present Get/s with the data in the page cache, wrapper / RocksDB",
           rates[static_cast<size_t>(PresenceQuery::kGetPresent)].MedianRatio(),
           kPresentGetTarget);
  for (size_t m = 0; m < kPresenceMixes; ++m) {
    at_least(absl::StrFormat("mixed Get/s at %d%% present, wrapper / RocksDB",
                             kPresenceMixPercents[m]),
             result.mixed.per_second[m].MedianRatio(), kMixedGetTarget);
  }
  at_least("fill keys/s, wrapper / RocksDB",
           result.fill_keys_per_second.MedianRatio(), kFillTarget);
  PresenceTargetCheck reopen;
  reopen.target =
      "reopen of a cleanly closed database, wrapper's Open + WaitUntilServing "
      "- RocksDB's open";
  reopen.figure = result.open_seconds.MedianDifference();
  reopen.bound = kReopenExtraSecondsTarget;
  reopen.at_least = false;
  reopen.met = reopen.figure <= reopen.bound;
  if (result.built.keys != kReopenTargetKeys) {
    reopen.stated_at_keys = kReopenTargetKeys;
  }
  checks.push_back(std::move(reopen));
  return checks;
}

void PrintPresenceTable(const DbShape& shape,
                        const std::vector<PresenceResult>& results,
                        std::ostream& out) {
  if (results.empty()) return;
  const PresenceResult& first = results.front();
  out << absl::StrFormat(
      "PresenceFilteredDB in front of RocksDB %s: %d keys of 16 bytes, "
      "%d-byte values; the wrapper's filter at fpp %g sized for %d keys. Each "
      "round opens every database through the wrapper and a checkpoint of it "
      "(the same table files) by RocksDB alone, both at once, and asks both "
      "the same fresh keys in alternating blocks of %d (%d rounds): %d keys of "
      "each query per round (with direct reads %d of present keys); MultiGet "
      "in batches of %d; with the data in the page cache, %d Gets of each mix "
      "of present and absent keys per round, each key's kind a hash of its "
      "draw. Fills, of fresh databases, alternate whole turns. Figures are "
      "medians of the rounds, ratios the median of each round's wrapper / "
      "RocksDB.\n",
      RocksDbVersion(), first.built.keys, shape.value_bytes, kPresenceFilterFpp,
      first.expected_keys, kPresenceBlockKeys, shape.reps, shape.lookups,
      std::min(shape.lookups, kPresenceDirectPresentLookups),
      kPresenceMultiGetBatch, first.mixed.keys_per_round);
  out << absl::StrFormat(
      "machine: %s (%s); load averages %s at the first round, %s after the "
      "last\n\n",
      MachineDescription(), CpuGeneration(), first.load_at_start,
      first.load_at_end);
  out << absl::StrFormat("%-26s %-9s %-24s %12s %12s %8s\n", "config", "reads",
                         "query", "RocksDB/s", "wrapper/s", "ratio");
  for (const PresenceResult& r : results) {
    const auto line = [&](const char* reads, const std::string& query,
                          const PresencePair& pair) {
      out << absl::StrFormat("%-26s %-9s %-24s %12.0f %12.0f %8.3f\n",
                             r.built.config, reads, query, pair.PlainMedian(),
                             pair.WrappedMedian(), pair.MedianRatio());
    };
    const auto lines = [&](const char* reads, const PresenceLookups& lookups) {
      for (const PresenceQuery query : kQueries) {
        line(reads, QueryTitle(query),
             lookups.per_second[static_cast<size_t>(query)]);
      }
    };
    lines("cache", r.buffered);
    for (size_t m = 0; m < kPresenceMixes; ++m) {
      line("cache", MixTitle(kPresenceMixPercents[m]), r.mixed.per_second[m]);
    }
    if (r.direct.has_value()) {
      lines(r.direct->direct ? "direct" : "buffered*", r.direct->lookups);
    }
  }
  for (const PresenceResult& r : results) {
    if (r.direct.has_value() && !r.direct->direct) {
      out << absl::StrFormat(
          "*%s: the file system refused O_DIRECT (%s): buffered reads\n",
          r.built.config, r.direct->refused);
    }
  }
  out << "\n"
      << absl::StrFormat(
             "%-26s %9s %12s %12s %7s %9s %8s %6s %7s %9s %9s %8s %9s %8s "
             "%9s %7s %10s\n",
             "config", "fill keys", "fill RDB/s", "wrapper/s", "ratio",
             "stall RDB", "stall wr", "saves", "saves s", "open RDB", "wrapper",
             "+s", "rebuild s", "save s", "mem MiB", "B/key", "sized for");
  for (const PresenceResult& r : results) {
    out << absl::StrFormat(
        "%-26s %9d %12.0f %12.0f %7.3f %9.2f %8.2f %6.0f %7.2f %9.3f %9.3f "
        "%+8.3f %9.3f %8.3f %9.2f %7.3f %10d\n",
        r.built.config, r.fill_keys, r.fill_keys_per_second.PlainMedian(),
        r.fill_keys_per_second.WrappedMedian(),
        r.fill_keys_per_second.MedianRatio(),
        r.fill_stall_seconds.PlainMedian(),
        r.fill_stall_seconds.WrappedMedian(), LowerMedian(r.fill_saves),
        LowerMedian(r.fill_save_seconds), r.open_seconds.PlainMedian(),
        r.open_seconds.WrappedMedian(), r.open_seconds.MedianDifference(),
        LowerMedian(r.rebuild_seconds), LowerMedian(r.close_and_save_seconds),
        static_cast<double>(r.memory_bytes) / kMiB,
        BytesPerKey(r.memory_bytes, r.built.keys), r.sized_for_keys);
  }
  out << "\n";
  for (const PresenceResult& r : results) {
    out << absl::StrFormat("%-26s %s; %s files by level\n", r.built.config,
                           r.built.filter,
                           FormatLevels(r.built.files_per_level));
    out << absl::StrFormat(
        "%-26s fill through the wrapper saving only at close "
        "(save_after_background_work = false): %.0f keys/s, %.3f x RocksDB's\n",
        r.built.config, r.fill_without_saves.WrappedMedian(),
        r.fill_without_saves.MedianRatio());
    if (!r.unrestored.empty()) {
      out << absl::StrFormat(
          "%-26s %d opens with a saved filter rebuilt it instead: %s\n",
          r.built.config, r.unrestored.size(),
          absl::StrJoin(r.unrestored, ", "));
    }
  }
  out << "\n";
  for (const PresenceResult& r : results) {
    for (const PresenceTargetCheck& check : CheckPresenceTargets(r)) {
      out << absl::StrFormat("target, %s: %s %s: %s, %s\n", r.built.config,
                             check.target, TargetBound(check),
                             TargetFigure(check),
                             TargetVerdict(check.met, check.stated_at_keys));
    }
  }
  out << "\n";
}

void PrintPresenceJson(const DbShape& shape,
                       const std::vector<PresenceResult>& results,
                       std::ostream& out) {
  for (const PresenceResult& r : results) {
    Json row;
    row["section"] = kPresenceSection;
    row["store"] = r.built.store;
    row["config"] = r.built.config;
    row["table_filter"] = r.table_filter;
    row["filter"] = r.built.filter;
    row["keys"] = r.built.keys;
    row["value_bytes"] = shape.value_bytes;
    row["lookups_per_rep"] = shape.lookups;
    row["direct_present_keys"] =
        std::min(shape.lookups, kPresenceDirectPresentLookups);
    row["reps"] = shape.reps;
    row["multiget_batch"] = kPresenceMultiGetBatch;
    row["block_keys"] = kPresenceBlockKeys;
    row["presence_fpp"] = kPresenceFilterFpp;
    row["expected_keys"] = r.expected_keys;
    row["machine"] = MachineDescription();
    row["cpu"] = CpuGeneration();
    row["rocksdb_version"] = RocksDbVersion();
    row["load_averages"] = {{"first_round", r.load_at_start},
                            {"after_last_round", r.load_at_end}};
    row["build_seconds"] = r.built.build_seconds;
    row["filter_bytes"] = r.built.filter_bytes;
    row["bits_per_key"] = r.built.bits_per_key;
    row["files_per_level"] = r.built.files_per_level;
    row["buffered"] = LookupsJson(r.buffered);
    row["mixed_get"] = MixedJson(r.mixed);  // the data in the page cache
    if (r.direct.has_value()) {
      Json direct = LookupsJson(r.direct->lookups);
      direct["direct"] = r.direct->direct;
      direct["refused"] = r.direct->refused;
      direct["block_cache_bytes"] = r.direct->block_cache_bytes;
      row["direct"] = std::move(direct);
    } else {
      row["direct"] = nullptr;
    }
    Json fill = PairJson(r.fill_keys_per_second, "keys_per_second");
    fill["keys_per_turn"] = r.fill_keys;
    fill["turns_per_round"] = kPresenceFillTurns;
    fill["ratio"] = r.fill_keys_per_second.MedianRatio();
    fill["stall_seconds"] = PairJson(r.fill_stall_seconds, "seconds");
    fill["wrapped_saving_at_close"] = {
        {"keys_per_second", r.fill_without_saves.WrappedMedian()},
        {"rounds", r.fill_without_saves.wrapped},
        {"ratio", r.fill_without_saves.MedianRatio()}};
    fill["wrapper_saves"] = SecondsJson(r.fill_save_seconds);
    fill["wrapper_saves"]["saves"] = {{"median", LowerMedian(r.fill_saves)},
                                      {"rounds", r.fill_saves}};
    row["fill"] = std::move(fill);
    Json open = PairJson(r.open_seconds, "seconds");
    open["extra_seconds"] = r.open_seconds.MedianDifference();
    open["restored_opens"] = r.restored_opens;
    open["unrestored_opens"] = r.unrestored;
    row["open"] = std::move(open);
    row["rebuild"] = SecondsJson(r.rebuild_seconds);
    row["close_and_save"] = SecondsJson(r.close_and_save_seconds);
    row["memory"] = {
        {"bytes", r.memory_bytes},
        {"bytes_per_key", BytesPerKey(r.memory_bytes, r.built.keys)},
        {"sized_for_keys", r.sized_for_keys},
        {"approximate_keys", r.approximate_keys},
        {"expected_fpp", r.expected_fpp}};
    Json targets = Json::array();
    for (const PresenceTargetCheck& check : CheckPresenceTargets(r)) {
      targets.push_back({{"target", check.target},
                         {"figure", check.figure},
                         {"bound", check.bound},
                         {"at_least", check.at_least},
                         {"met", check.met},
                         {"stated_at_keys", check.stated_at_keys.has_value()
                                                ? Json(*check.stated_at_keys)
                                                : Json(nullptr)}});
    }
    row["targets"] = std::move(targets);
    out << row.dump() << "\n";
  }
}

}  // namespace bench
}  // namespace sstfilter
