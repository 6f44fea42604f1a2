// redis_bench's renderer (renderers.h): its own tables, one per key count,
// and engines/redis/README.md's shorter one, from the JSON object of its
// measurements or of a saved --json file. Both read it leniently (a missing
// figure or implementation prints as "–"), so that an older or partial file
// prints. Rows name sstfilter's filter by its spec family and the others as
// lib: peers.

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "docs/redis_bench_names.h"
#include "docs/render_util.h"
#include "docs/renderers.h"

namespace sstfilter {
namespace docs {
namespace {

using redis_bench::ImplId;
using redis_bench::kBitmap;
using redis_bench::kBitmapOneTrip;
using redis_bench::kImplCount;
using redis_bench::kImplNames;
using redis_bench::kSet;
using redis_bench::kSstfilter;

// The name each implementation's rows print, by ImplId: sstfilter's filter by
// its spec family, the others as peers (Redis's set, and the textbook filter
// of k SETBIT and GETBIT commands, one round trip per command or per key).
constexpr const char* kRowNames[kImplCount] = {
    "bloom", "lib:redis.set", "lib:redis.setbit", "lib:redis.setbit.one_trip"};

// value[name], or null when absent (operator[] of a const json asserts).
const nlohmann::json& Field(const nlohmann::json& value, const char* name) {
  static const nlohmann::json kNull;
  if (!value.is_object()) return kNull;
  auto it = value.find(name);
  return it == value.end() ? kNull : *it;
}

// Operations per second as "123k" or "1.23M".
std::string Rate(const nlohmann::json& value) {
  if (!value.is_number()) return "–";
  const double r = value.get<double>();
  if (r >= 1e6) return absl::StrFormat("%.2fM", r / 1e6);
  return absl::StrFormat("%.0fk", r / 1e3);
}

// run's figure `field` of impl as a number; 0 when run lacks either.
double Figure(const nlohmann::json& run, ImplId impl, const char* field) {
  const nlohmann::json& value = Field(Field(run, kImplNames[impl]), field);
  return value.is_number() ? value.get<double>() : 0;
}

// Calls row(row name, figures) for each implementation run holds, in the
// tables' order.
template <typename RowFunction>
void ForEachRow(const nlohmann::json& run, RowFunction row) {
  for (int impl = 0; impl < kImplCount; ++impl) {
    if (!run.contains(kImplNames[impl])) continue;
    row(kRowNames[impl], Field(run, kImplNames[impl]));
  }
}

// The cells both tables give an implementation loaded with n keys: server
// memory, bytes per key, false-positive rate.
std::string MemoryCells(const nlohmann::json& r, double n) {
  const double memory = r.value("memory_bytes", 0.0);
  return absl::StrFormat("%.1f MB | %.2f | %.2f%%", memory / 1e6, memory / n,
                         100 * r.value("fpp", 0.0));
}

// n keys as "10^6".
std::string PowerOfTen(double n) {
  return absl::StrFormat("10^%d", static_cast<int>(std::lround(std::log10(n))));
}

}  // namespace

std::string RedisBenchTable(const nlohmann::json& out) {
  std::string text = absl::StrFormat(
      "Redis %s on loopback; 16-byte keys; Bloom filters at fpp %g; pipelines "
      "of %d keys; medians of %d interleaved rounds; operations per second.\n",
      out.value("redis_version", "?"), out.value("fpp", 0.0),
      out.value("pipeline_keys", 0), out.value("rounds", 0));
  for (const nlohmann::json& run : Field(out, "runs")) {
    const double n = run.value("keys", 1.0);
    absl::StrAppendFormat(
        &text,
        "\n**%s keys** (k-command: %s bits, k = %d)\n\n"
        "| | server memory | bytes/key | FP rate | query 1 client | "
        "query 8 clients | query pipelined 1 | query pipelined 8 | add 1 "
        "client | add 8 clients | add pipelined 1 | add pipelined 8 | "
        "commands per add / query | round trips per key |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        absl::StrCat(run.value("keys", uint64_t{0})),
        absl::StrCat(run.value("k_command_bits", uint64_t{0})),
        run.value("k_command_k", 0));
    ForEachRow(run, [&](const char* row, const nlohmann::json& r) {
      absl::StrAppendFormat(
          &text,
          "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %g "
          "|\n",
          row, MemoryCells(r, n), Rate(Field(r, "query_single_1")),
          Rate(Field(r, "query_single_8")), Rate(Field(r, "query_pipelined_1")),
          Rate(Field(r, "query_pipelined_8")), Rate(Field(r, "add_single_1")),
          Rate(Field(r, "add_single_8")), Rate(Field(r, "add_pipelined_1")),
          Rate(Field(r, "load_adds_per_s")), r.value("add_commands", "?"),
          r.value("query_commands", "?"), r.value("round_trips_single", 0.0));
    });
    const nlohmann::json& sstfilter = Field(run, kImplNames[kSstfilter]);
    auto ratio = [&](ImplId other, const char* field) {
      const nlohmann::json& a = Field(sstfilter, field);
      const nlohmann::json& b = Field(Field(run, kImplNames[other]), field);
      if (!a.is_number() || !b.is_number() || b.get<double>() == 0) {
        return std::string("–");
      }
      return absl::StrFormat("%.1f×", a.get<double>() / b.get<double>());
    };
    absl::StrAppendFormat(
        &text,
        "\nsstfilter against the set: %s less memory. Queries per second "
        "against the k-command filter, 1 client single / 8 single / "
        "pipelined 1 / pipelined 8: %s / %s / %s / %s (one round trip per "
        "key for both: %s / %s / %s / %s).\n",
        ratio(kSet, "memory_bytes") == "–"
            ? "–"
            : absl::StrFormat("%.0f×",
                              Figure(run, kSet, "memory_bytes") /
                                  Figure(run, kSstfilter, "memory_bytes")),
        ratio(kBitmap, "query_single_1"), ratio(kBitmap, "query_single_8"),
        ratio(kBitmap, "query_pipelined_1"),
        ratio(kBitmap, "query_pipelined_8"),
        ratio(kBitmapOneTrip, "query_single_1"),
        ratio(kBitmapOneTrip, "query_single_8"),
        ratio(kBitmapOneTrip, "query_pipelined_1"),
        ratio(kBitmapOneTrip, "query_pipelined_8"));
  }
  return text;
}

std::string RedisReadmeTable(const nlohmann::json& out) {
  std::string text = absl::StrFormat(
      "Redis %s on loopback, the server and the clients on the same 2 cores; "
      "16-byte keys; Bloom filters at fpp %g; operations per second, medians "
      "of %d interleaved rounds; pipelined: %d keys per round trip.\n\n"
      "| keys | | server memory | bytes/key | FP rate | query, 1 client | "
      "query, 8 clients | query, pipelined | add, 1 client | add, pipelined "
      "| round trips per query |\n"
      "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
      out.value("redis_version", "?"), out.value("fpp", 0.0),
      out.value("rounds", 0), out.value("pipeline_keys", 0));
  std::string ratios;
  for (const nlohmann::json& run : Field(out, "runs")) {
    const double n = run.value("keys", 1.0);
    ForEachRow(run, [&](const char* row, const nlohmann::json& r) {
      absl::StrAppendFormat(
          &text, "| %s | %s | %s | %s | %s | %s | %s | %s | %g |\n",
          PowerOfTen(n), row, MemoryCells(r, n),
          Rate(Field(r, "query_single_1")), Rate(Field(r, "query_single_8")),
          Rate(Field(r, "query_pipelined_1")), Rate(Field(r, "add_single_1")),
          Rate(Field(r, "add_pipelined_1")),
          r.value("round_trips_single", 0.0));
    });
    auto ratio = [&](ImplId other, const char* field, bool inverse) {
      const double a = Figure(run, kSstfilter, field);
      const double b = Figure(run, other, field);
      if (a <= 0 || b <= 0) return std::string("–");
      return absl::StrFormat("%.1f×", inverse ? b / a : a / b);
    };
    absl::StrAppendFormat(
        &ratios,
        "- %s keys: %s less server memory than the set; queries per second "
        "%s (1 client) and %s (pipelined) the k-command filter's, %s and %s "
        "that of its one-round-trip form.\n",
        PowerOfTen(n), ratio(kSet, "memory_bytes", true),
        ratio(kBitmap, "query_single_1", false),
        ratio(kBitmap, "query_pipelined_1", false),
        ratio(kBitmapOneTrip, "query_single_1", false),
        ratio(kBitmapOneTrip, "query_pipelined_1", false));
  }
  return text + "\n" + ratios;
}

absl::StatusOr<std::string> RenderRedisBench(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  bool readme = false;
  for (const std::string& option : options) {
    if (option != "readme") return NoOptions("redis_bench", {option});
    readme = true;
  }
  absl::StatusOr<nlohmann::json> out =
      ReadJsonObject(json_path, "runs", "redis_bench", read);
  if (!out.ok()) return out.status();
  return readme ? RedisReadmeTable(*out) : RedisBenchTable(*out);
}

}  // namespace docs
}  // namespace sstfilter
