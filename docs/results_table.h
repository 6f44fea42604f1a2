// The results blocks of markdown pages: tables printed from the benchmarks'
// committed JSON by the renderers of renderers.h, so that no results table in
// the documentation is typed by hand. A page holds each block between two
// marker lines naming the renderer's kind and the run (docs/results/RUN.json),
// then the kind's options:
//
//   <!-- results:begin filter_bench headline impls=bloom,burr -->
//   <!-- results:end -->
//
// Kinds, options and the tables' layout: renderers.h and docs/results.md.

#ifndef SSTFILTER_DOCS_RESULTS_TABLE_H_
#define SSTFILTER_DOCS_RESULTS_TABLE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "docs/renderers.h"

namespace sstfilter {
namespace docs {

// Where a run's JSON lives, relative to the workspace root:
// docs/results/RUN.json.
std::string RunJsonPath(absl::string_view run);

// The markdown of the JSON file at json_path by the renderer of `kind`, with
// its options. InvalidArgumentError for a kind without a renderer, and the
// renderer's errors.
absl::StatusOr<std::string> Render(absl::string_view kind,
                                   const std::string& json_path,
                                   const std::vector<std::string>& options,
                                   const FileReader& read_file);

// Whether markdown holds a results block.
bool HasBlocks(absl::string_view markdown);

// The pages below the folder `root` that hold a results block: .md files, as
// paths relative to root (read through read_file, which takes such paths),
// sorted. Skips hidden folders, Bazel's bazel-* output links, symbolic links
// and the folders root/.bazelignore lists (CMake build trees among them).
std::vector<std::string> PagesWithBlocks(const std::string& root,
                                         const FileReader& read_file);

// markdown with every results block regenerated from the files read through
// read_file; text outside the blocks, and the marker lines, unchanged. An
// error names the first block that fails: InvalidArgumentError for a begin
// marker without its end, a nested begin, a block without a kind and a run,
// and Render's errors.
absl::StatusOr<std::string> RegenerateBlocks(absl::string_view markdown,
                                             const FileReader& read_file);

// The begin marker of the first block whose text differs between markdown and
// regenerated (RegenerateBlocks' output), or "" when none does.
std::string FirstStaleBlock(absl::string_view markdown,
                            absl::string_view regenerated);

}  // namespace docs
}  // namespace sstfilter

#endif  // SSTFILTER_DOCS_RESULTS_TABLE_H_
