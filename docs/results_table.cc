// The results blocks' markers, and the dispatch of each block to the renderer
// of its kind.

#include "docs/results_table.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace sstfilter {
namespace docs {
namespace {

constexpr char kBeginMarker[] = "<!-- results:begin";
constexpr char kEndMarker[] = "<!-- results:end -->";

struct Kind {
  const char* name;
  absl::StatusOr<std::string> (*render)(const std::string&,
                                        const std::vector<std::string>&,
                                        const FileReader&);
};
constexpr Kind kKinds[] = {{"filter_bench", RenderFilterBench},
                           {"redis_bench", RenderRedisBench},
                           {"range_bench", RenderRangeBench},
                           {"range_shapes", RenderRangeShapes},
                           {"range_db", RenderRangeDb},
                           {"presence", RenderPresence},
                           {"db_point", RenderDbPoint},
                           {"db_partitioned", RenderDbPartitioned},
                           {"db_levels", RenderDbLevels},
                           {"db_prefix", RenderDbPrefix},
                           {"mutable_bench", RenderMutableBench},
                           {"google_benchmark", RenderGoogleBenchmark}};

// A block's text: its begin marker, its lines, its end marker.
struct Block {
  std::string begin;
  std::vector<std::string> lines;
};

// The blocks of markdown, in order.
absl::StatusOr<std::vector<Block>> Blocks(absl::string_view markdown) {
  std::vector<Block> blocks;
  std::optional<Block> open;
  for (absl::string_view line : absl::StrSplit(markdown, '\n')) {
    if (absl::StartsWith(line, kBeginMarker)) {
      if (open.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("a results block opens inside another: ", line));
      }
      open = Block{std::string(line), {}};
    } else if (open.has_value() && line == kEndMarker) {
      blocks.push_back(*std::move(open));
      open.reset();
    } else if (open.has_value()) {
      open->lines.emplace_back(line);
    }
  }
  if (open.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("a results block has no end: ", open->begin));
  }
  return blocks;
}

// The markdown of the block opened by `begin`:
// "<!-- results:begin KIND RUN [OPTION...] -->".
absl::StatusOr<std::string> RenderBlock(const std::string& begin,
                                        const FileReader& read_file) {
  absl::string_view spec = begin;
  absl::ConsumePrefix(&spec, kBeginMarker);
  absl::ConsumeSuffix(&spec, "-->");
  const std::vector<std::string> words =
      absl::StrSplit(spec, ' ', absl::SkipWhitespace());
  if (words.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("a results block names no kind and run: ", begin));
  }
  absl::StatusOr<std::string> text = Render(
      words[0], RunJsonPath(words[1]),
      std::vector<std::string>(words.begin() + 2, words.end()), read_file);
  if (!text.ok()) {
    return absl::Status(text.status().code(),
                        absl::StrCat(begin, ": ", text.status().message()));
  }
  return text;
}

}  // namespace

std::string RunJsonPath(absl::string_view run) {
  return absl::StrCat("docs/results/", run, ".json");
}

absl::StatusOr<std::string> Render(absl::string_view kind,
                                   const std::string& json_path,
                                   const std::vector<std::string>& options,
                                   const FileReader& read_file) {
  for (const Kind& known : kKinds) {
    if (kind == known.name) return known.render(json_path, options, read_file);
  }
  std::vector<std::string> names;
  for (const Kind& known : kKinds) names.emplace_back(known.name);
  return absl::InvalidArgumentError(absl::StrCat(
      "no renderer of kind '", kind, "' (", absl::StrJoin(names, ", "), ")"));
}

bool HasBlocks(absl::string_view markdown) {
  for (absl::string_view line : absl::StrSplit(markdown, '\n')) {
    if (absl::StartsWith(line, kBeginMarker)) return true;
  }
  return false;
}

std::vector<std::string> PagesWithBlocks(const std::string& root,
                                         const FileReader& read_file) {
  namespace fs = std::filesystem;
  std::set<std::string> ignored;
  if (absl::StatusOr<std::string> list = read_file(".bazelignore"); list.ok()) {
    for (absl::string_view line : absl::StrSplit(*list, '\n')) {
      line = absl::StripAsciiWhitespace(line);
      if (!line.empty()) ignored.emplace(line);
    }
  }
  const fs::path top = root.empty() ? fs::path(".") : fs::path(root);
  std::vector<std::string> pages;
  for (auto it = fs::recursive_directory_iterator(top);
       it != fs::recursive_directory_iterator(); ++it) {
    const std::string page = it->path().lexically_relative(top).string();
    const std::string name = it->path().filename().string();
    if (it->is_symlink() || it->is_directory()) {
      if (it->is_symlink() || absl::StartsWith(name, ".") ||
          absl::StartsWith(name, "bazel-") || ignored.count(page) > 0) {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (!absl::EndsWith(name, ".md")) continue;
    absl::StatusOr<std::string> text = read_file(page);
    if (text.ok() && HasBlocks(*text)) pages.push_back(page);
  }
  std::sort(pages.begin(), pages.end());
  return pages;
}

absl::StatusOr<std::string> RegenerateBlocks(absl::string_view markdown,
                                             const FileReader& read_file) {
  // Blocks() checks the markers; the loop below need not.
  if (absl::Status markers = Blocks(markdown).status(); !markers.ok()) {
    return markers;
  }
  std::vector<std::string> out;
  bool in_block = false;
  for (absl::string_view line : absl::StrSplit(markdown, '\n')) {
    if (absl::StartsWith(line, kBeginMarker)) {
      in_block = true;
      out.emplace_back(line);
      absl::StatusOr<std::string> text = RenderBlock(out.back(), read_file);
      if (!text.ok()) return text.status();
      absl::string_view lines = *text;
      absl::ConsumeSuffix(&lines, "\n");
      for (absl::string_view text_line : absl::StrSplit(lines, '\n')) {
        out.emplace_back(text_line);
      }
      continue;
    }
    if (in_block && line == kEndMarker) in_block = false;
    if (in_block) continue;  // the old text: regenerated above
    out.emplace_back(line);
  }
  return absl::StrJoin(out, "\n");
}

std::string FirstStaleBlock(absl::string_view markdown,
                            absl::string_view regenerated) {
  absl::StatusOr<std::vector<Block>> before = Blocks(markdown);
  absl::StatusOr<std::vector<Block>> after = Blocks(regenerated);
  if (!before.ok() || !after.ok()) return "";
  for (size_t i = 0; i < before->size() && i < after->size(); ++i) {
    if ((*before)[i].lines != (*after)[i].lines) return (*before)[i].begin;
  }
  return "";
}

}  // namespace docs
}  // namespace sstfilter
