// range_shapes_bench's renderer (renderers.h): per key shape and filter, the
// rate of empty ranges matched at the keys' last position, against the
// filter's proven bound for ranges of that width.

#include <sstream>
#include <string>

#include "absl/strings/str_format.h"
#include "docs/render_util.h"
#include "docs/renderers.h"

namespace sstfilter {
namespace docs {
namespace {

using nlohmann::json;

std::string Rate(double rate) {
  if (rate == 0) return "0";
  if (rate >= 0.1) return absl::StrFormat("%.0f%%", 100 * rate);
  return absl::StrFormat("%.3f%%", 100 * rate);
}

}  // namespace

std::string RangeShapesTable(const json& result) {
  std::ostringstream out;
  out << "Empty ranges of w possible keys at the keys' last position, "
      << result["keys"] << " keys, " << result["queries_per_cell"]
      << " ranges per cell: rate matched, correlated (starting just after a "
         "key) / uniform, and the filter's proven bound for w codes.\n\n"
         "| keys | filter | bits/key | w | correlated | uniform | bound |\n"
         "|---|---|---|---|---|---|---|\n";
  const json& rows = result["rows"];
  for (size_t i = 0; i + 1 < rows.size(); i += 2) {
    const json& c = rows[i];
    const json& u = rows[i + 1];
    out << absl::StrFormat(
        "| %s | `%s` | %.1f | %d | %s | %s | %s |\n",
        c["shape"].get<std::string>(), c["filter"].get<std::string>(),
        c["bits_per_key"].get<double>(), c["width"].get<uint64_t>(),
        Rate(c["fpp"].get<double>()), Rate(u["fpp"].get<double>()),
        Rate(c["bound"].get<double>()));
  }
  return out.str();
}

absl::StatusOr<std::string> RenderRangeShapes(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read) {
  if (absl::Status none = NoOptions("range_shapes", options); !none.ok()) {
    return none;
  }
  absl::StatusOr<json> result =
      ReadJsonObject(json_path, "rows", "range_shapes", read);
  if (!result.ok()) return result.status();
  return RangeShapesTable(*result);
}

}  // namespace docs
}  // namespace sstfilter
