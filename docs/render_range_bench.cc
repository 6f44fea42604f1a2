// range_bench's renderer (renderers.h): the range filter's false-positive
// rates against its proven bound and a prefix Bloom filter of the same memory,
// and both filters' build and query times, from range_bench's --json object.

#include <cmath>
#include <sstream>
#include <string>

#include "absl/strings/str_format.h"
#include "docs/render_util.h"
#include "docs/renderers.h"

namespace sstfilter {
namespace docs {
namespace {

using nlohmann::json;

std::string Percent(double rate) {
  if (rate == 0) return "0";
  if (rate >= 0.1) return absl::StrFormat("%.0f%%", 100 * rate);
  if (rate >= 0.001) return absl::StrFormat("%.2f%%", 100 * rate);
  return absl::StrFormat("%.4f%%", 100 * rate);
}

}  // namespace

std::string RangeBenchTables(const json& result) {
  std::ostringstream out;
  out << "False-positive rate of empty ranges, " << result["keys"] << " keys, "
      << result["queries_per_rate"]
      << " fresh ranges per cell. Range filter measured / its proven "
         "bound (l * n / r) / a fixed-prefix Bloom filter of the same "
         "memory.\n\n";
  out << "| bits/key | length | uniform: range / bound / prefix Bloom "
         "| correlated: range / bound / prefix Bloom |\n"
         "|---|---|---|---|\n";
  const json& rows = result["rows"];
  for (size_t i = 0; i + 1 < rows.size(); i += 2) {
    const json& u = rows[i];
    const json& c = rows[i + 1];
    out << absl::StrFormat(
        "| %d | %d | %s / %s / %s | %s / %s / %s |\n",
        u["bits_per_key_budget"].get<int>(), u["length"].get<int>(),
        Percent(u["range_fpp"]), Percent(u["bound"]), Percent(u["prefix_fpp"]),
        Percent(c["range_fpp"]), Percent(c["bound"]), Percent(c["prefix_fpp"]));
  }
  // The bound is on the expected rate: how far above it the sampled counts
  // went, in standard deviations of the binomial count.
  double worst = -HUGE_VAL;
  std::string worst_cell;
  const double queries = result["queries_per_rate"].get<double>();
  for (const json& row : rows) {
    const double bound = row["bound"].get<double>();
    if (bound >= 1) continue;
    const double sigma = std::sqrt(bound * (1 - bound) / queries);
    const double z = (row["range_fpp"].get<double>() - bound) / sigma;
    if (z > worst) {
      worst = z;
      worst_cell = absl::StrFormat(
          "%d bits/key, length %d, %s", row["bits_per_key_budget"].get<int>(),
          row["length"].get<int>(), row["workload"].get<std::string>());
    }
  }
  out << absl::StrFormat(
      "\nThe furthest any measured rate of the range filter lies above its "
      "bound: %+.1f standard deviations of the sampled count (%s).\n",
      worst, worst_cell);
  out << "\nTime per key built and per range asked (uniform ranges; "
         "nanoseconds):\n\n"
         "| bits/key | length | build: range / prefix Bloom | query: "
         "range / prefix Bloom |\n|---|---|---|---|\n";
  for (size_t i = 0; i < rows.size(); i += 2) {
    const json& u = rows[i];
    out << absl::StrFormat(
        "| %d | %d | %.0f / %.0f | %.0f / %.0f |\n",
        u["bits_per_key_budget"].get<int>(), u["length"].get<int>(),
        u["range_build_ns_per_key"].get<double>(),
        u["prefix_build_ns_per_key"].get<double>(),
        u["range_query_ns"].get<double>(), u["prefix_query_ns"].get<double>());
  }
  return out.str();
}

absl::StatusOr<std::string> RenderRangeBench(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  if (absl::Status none = NoOptions("range_bench", options); !none.ok()) {
    return none;
  }
  absl::StatusOr<json> result =
      ReadJsonObject(json_path, "rows", "range_bench", read);
  if (!result.ok()) return result.status();
  return RangeBenchTables(*result);
}

}  // namespace docs
}  // namespace sstfilter
