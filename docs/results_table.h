// Markdown tables of filter_bench results, made from its --format=json output
// (one JSON object per line, one line per implementation and case), so that no
// results table in the documentation is typed by hand. A markdown file holds
// each table between two marker lines naming its run (rows in
// docs/results/RUN.json, command and machine in RUN.run.json); the options
// after the name and the table's layout: docs/results.md.
//
//   <!-- results:begin headline -->
//   <!-- results:end -->

#ifndef SSTFILTER_DOCS_RESULTS_TABLE_H_
#define SSTFILTER_DOCS_RESULTS_TABLE_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {
namespace docs {

// Where a run's files live, relative to the workspace root.
std::string RunJsonPath(absl::string_view run);   // docs/results/RUN.json
std::string RunAboutPath(absl::string_view run);  // docs/results/RUN.run.json

struct TableOptions {
  bool about_only = false;         // print the command and the machine only
  std::vector<std::string> impls;  // rows to print; empty: every row
};

// The markdown for one run: a line naming the command and the machine, then
// the table. rows_json is filter_bench's --format=json output; about_json the
// run's .run.json. InvalidArgumentError for a line that is not a JSON object,
// a row without "impl", "workload" or "keys", no rows, or an about without
// "command" and "machine".
absl::StatusOr<std::string> ResultsTable(absl::string_view rows_json,
                                         absl::string_view about_json,
                                         const TableOptions& options);

// Reads a workspace file: its contents, or NotFoundError naming it.
using FileReader =
    std::function<absl::StatusOr<std::string>(const std::string& path)>;

// markdown with every results block regenerated from the files read through
// read_file. InvalidArgumentError for a begin marker without its end, a
// nested begin, or a block without a run name.
absl::StatusOr<std::string> RegenerateBlocks(absl::string_view markdown,
                                             const FileReader& read_file);

}  // namespace docs
}  // namespace sstfilter

#endif  // SSTFILTER_DOCS_RESULTS_TABLE_H_
