// results_table: regenerates the results tables of markdown files from
// filter_bench's JSON (docs/results_table.h describes the blocks).
//
//   bazel run //docs:results_table -- [--check] [FILE.md...]
//
// Rewrites each file (README.md and docs/results.md when none is named) with
// every block between "<!-- results:begin RUN -->" and "<!-- results:end -->"
// made afresh from docs/results/RUN.json and RUN.run.json. With --check,
// changes nothing and exits 1 if a file is not up to date. Paths are relative
// to the workspace root. Exit status: 0 done, 1 a file out of date or
// unreadable or a bad block, 2 bad flags.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "docs/results_table.h"

ABSL_FLAG(bool, check, false,
          "change nothing; exit 1 if a file's tables are not what the JSON "
          "gives");

namespace sstfilter {
namespace docs {
namespace {

// The workspace root under `bazel run`, else the working directory.
std::string Root() {
  const char* dir = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  return dir != nullptr ? absl::StrCat(dir, "/") : "";
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(Root() + path, std::ios::binary);
  if (!in.good())
    return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

int Run(const std::vector<std::string>& files, bool check) {
  int status = 0;
  for (const std::string& file : files) {
    absl::StatusOr<std::string> before = ReadFile(file);
    absl::StatusOr<std::string> after =
        before.ok() ? RegenerateBlocks(*before, ReadFile) : before.status();
    if (!after.ok()) {
      std::cerr << file << ": " << after.status().message() << "\n";
      status = 1;
      continue;
    }
    if (*after == *before) continue;
    if (check) {
      std::cerr << file << ": its results tables differ from the JSON; run "
                << "bazel run //docs:results_table\n";
      status = 1;
      continue;
    }
    std::ofstream out(Root() + file, std::ios::binary | std::ios::trunc);
    out << *after;
    if (!out.good()) {
      std::cerr << "cannot write " << file << "\n";
      status = 1;
      continue;
    }
    std::cout << "updated " << file << "\n";
  }
  return status;
}

}  // namespace
}  // namespace docs
}  // namespace sstfilter

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "regenerates the results tables of markdown files from filter_bench's "
      "JSON: results_table [--check] [FILE.md...]");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  std::vector<std::string> files(args.begin() + 1, args.end());
  if (files.empty()) files = {"README.md", "docs/results.md"};
  return sstfilter::docs::Run(files, absl::GetFlag(FLAGS_check));
}
