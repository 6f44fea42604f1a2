// What the renderers of renderers.h share: reading a file of one JSON object
// and refusing options a kind does not take.

#ifndef SSTFILTER_DOCS_RENDER_UTIL_H_
#define SSTFILTER_DOCS_RENDER_UTIL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "docs/renderers.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace docs {

// The JSON object of the file at path, which must have the field `needs`:
// else InvalidArgumentError naming the file and `tool`, whose --json wrote it.
absl::StatusOr<nlohmann::json> ReadJsonObject(const std::string& path,
                                              const char* needs,
                                              const char* tool,
                                              const FileReader& read);

// InvalidArgumentError naming the first option that `kind` does not take.
absl::Status NoOptions(const char* kind,
                       const std::vector<std::string>& options);

}  // namespace docs
}  // namespace sstfilter

#endif  // SSTFILTER_DOCS_RENDER_UTIL_H_
