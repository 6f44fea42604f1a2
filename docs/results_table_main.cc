// results_table: regenerates the results blocks of markdown pages from the
// benchmarks' committed JSON (docs/results_table.h describes the blocks), or
// prints one JSON file's markdown.
//
//   bazel run //docs:results_table -- [--check] [FILE.md...]
//   bazel run //docs:results_table -- --render=KIND [--options='A B'] FILE.json
//
// The first form rewrites each page (every .md file of the workspace that
// holds a block when none is named; without `bazel run`, only from the
// workspace root, which holds WORKSPACE) with every block between
// "<!-- results:begin KIND RUN ... -->" and "<!-- results:end -->" made afresh
// from docs/results/RUN.json. With --check it changes nothing and exits 1
// naming the first block of a page that is not up to date. Pages are relative
// to the workspace root. The second form prints the markdown the renderer of
// KIND (renderers.h lists them) makes of FILE.json with the options a block
// would give it, relative to the working directory.
// Exit status: 0 done, 1 a page out of date or unreadable, a bad block or
// JSON, 2 a command line it refuses (one line, as every tool's).

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
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "docs/results_table.h"
#include "util/flag_check.h"

ABSL_FLAG(bool, check, false,
          "change nothing; exit 1 naming the first block that is not what its "
          "JSON gives");
ABSL_FLAG(std::string, render, "",
          "print the markdown of one JSON file by the renderer of this kind "
          "(an unknown kind is refused with the list of kinds)");
ABSL_FLAG(std::string, options, "",
          "with --render: the block's options, separated by spaces");

namespace sstfilter {
namespace docs {
namespace {

constexpr int kUsageExit = 2;

// The directory `bazel run` names in `variable` (with a slash), else the
// working directory.
std::string BazelDirectory(const char* variable) {
  const char* dir = std::getenv(variable);
  return dir != nullptr ? absl::StrCat(dir, "/") : "";
}

// A reader of files relative to `base` (absolute paths as they are).
FileReader ReaderFrom(std::string base) {
  return [base](const std::string& path) -> absl::StatusOr<std::string> {
    std::ifstream in(absl::StartsWith(path, "/") ? path : base + path,
                     std::ios::binary);
    if (!in.good()) {
      return absl::NotFoundError(absl::StrCat("cannot read ", path));
    }
    std::ostringstream contents;
    contents << in.rdbuf();
    return contents.str();
  };
}

int Regenerate(std::vector<std::string> pages, bool check) {
  const std::string root = BazelDirectory("BUILD_WORKSPACE_DIRECTORY");
  const FileReader read = ReaderFrom(root);
  if (pages.empty()) {
    // Walking any directory for pages would rewrite whatever markdown lies
    // under it (other checkouts included), so the walk starts only at a
    // workspace root.
    if (!read("WORKSPACE").ok()) {
      std::cerr << "results_table: no pages named and no WORKSPACE here; run "
                   "bazel run //docs:results_table, or name the pages\n";
      return kUsageExit;
    }
    pages = PagesWithBlocks(root, read);
  }
  int status = 0;
  for (const std::string& page : pages) {
    absl::StatusOr<std::string> before = read(page);
    absl::StatusOr<std::string> after =
        before.ok() ? RegenerateBlocks(*before, read) : before.status();
    if (!after.ok()) {
      // A page that cannot be read is named by the reader's message.
      std::cerr << "results_table: " << (before.ok() ? page + ": " : "")
                << after.status().message() << "\n";
      status = 1;
      continue;
    }
    if (*after == *before) continue;
    if (check) {
      std::cerr << "results_table: " << page << ": "
                << FirstStaleBlock(*before, *after)
                << " differs from its JSON; run bazel run "
                   "//docs:results_table\n";
      status = 1;
      continue;
    }
    std::ofstream out(root + page, std::ios::binary | std::ios::trunc);
    out << *after;
    if (!out.good()) {
      std::cerr << "cannot write " << page << "\n";
      status = 1;
      continue;
    }
    std::cout << "updated " << page << "\n";
  }
  return status;
}

int PrintOne(const std::string& kind, const std::vector<std::string>& files) {
  if (files.size() != 1) {
    std::cerr << "results_table: --render takes one JSON file\n";
    return kUsageExit;
  }
  const std::vector<std::string> options =
      absl::StrSplit(absl::GetFlag(FLAGS_options), ' ', absl::SkipWhitespace());
  absl::StatusOr<std::string> text =
      Render(kind, files[0], options,
             ReaderFrom(BazelDirectory("BUILD_WORKING_DIRECTORY")));
  if (!text.ok()) {
    std::cerr << "results_table: " << text.status().message() << "\n";
    return 1;
  }
  std::cout << *text;
  return 0;
}

}  // namespace
}  // namespace docs
}  // namespace sstfilter

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "regenerates the results blocks of markdown pages from the benchmarks' "
      "JSON: results_table [--check] [FILE.md...], or prints one file's: "
      "results_table --render=KIND [--options='A B'] FILE.json");
  if (absl::Status flags =
          sstfilter::CheckFlags(argc, argv, /*positional_arguments=*/true);
      !flags.ok()) {
    std::cerr << "results_table: " << flags.message() << "\n";
    return sstfilter::docs::kUsageExit;
  }
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  std::vector<std::string> files(args.begin() + 1, args.end());
  const std::string kind = absl::GetFlag(FLAGS_render);
  if (!kind.empty()) return sstfilter::docs::PrintOne(kind, files);
  return sstfilter::docs::Regenerate(files, absl::GetFlag(FLAGS_check));
}
