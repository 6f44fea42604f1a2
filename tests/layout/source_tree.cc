#include "tests/layout/source_tree.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"

namespace sstfilter::layout {
namespace fs = std::filesystem;

fs::path SourceRoot(const std::string& marker) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) {
    ADD_FAILURE()
        << "not run by bazel test: TEST_SRCDIR or TEST_WORKSPACE unset";
    return {};
  }
  std::error_code error;
  const fs::path real =
      fs::canonical(fs::path(srcdir) / workspace / marker, error);
  if (error) {
    ADD_FAILURE() << "cannot resolve runfile " << marker << ": "
                  << error.message();
    return {};
  }
  fs::path root = real;
  for (const auto& part : fs::path(marker)) {
    (void)part;
    root = root.parent_path();
  }
  if (!fs::exists(root / "WORKSPACE")) {
    ADD_FAILURE() << "no WORKSPACE in " << root << ", found from " << real;
    return {};
  }
  return root;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> SourceFiles(const fs::path& root,
                                     bool (*wanted)(const std::string& name)) {
  std::set<std::string> ignored = {".git"};
  for (absl::string_view line :
       absl::StrSplit(ReadFile(root / ".bazelignore"), '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty()) ignored.insert(std::string(line));
  }
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root);
       it != fs::recursive_directory_iterator(); ++it) {
    const std::string relative = fs::relative(it->path(), root).string();
    const std::string name = it->path().filename().string();
    if (it->is_directory() || it->is_symlink()) {
      if (ignored.count(relative) > 0 || name.rfind("bazel-", 0) == 0 ||
          it->is_symlink()) {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (wanted(name)) files.push_back(relative);
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace sstfilter::layout
