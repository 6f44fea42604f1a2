#include "docs/render_util.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace sstfilter {
namespace docs {

absl::StatusOr<nlohmann::json> ReadJsonObject(const std::string& path,
                                              const char* needs,
                                              const char* tool,
                                              const FileReader& read) {
  absl::StatusOr<std::string> text = read(path);
  if (!text.ok()) return text.status();
  nlohmann::json value = nlohmann::json::parse(*text, nullptr,
                                               /*allow_exceptions=*/false);
  if (value.is_discarded() || !value.is_object() || !value.contains(needs)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is not a ", tool, " --json file"));
  }
  return value;
}

absl::Status NoOptions(const char* kind,
                       const std::vector<std::string>& options) {
  if (options.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(kind, " takes no option '", options.front(), "'"));
}

}  // namespace docs
}  // namespace sstfilter
