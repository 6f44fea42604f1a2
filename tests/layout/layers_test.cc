// The tree's folders are its layers: every Bazel package belongs to the layer
// of its top-level folder, and its BUILD file may name targets of its own
// layer and the layers below it, never one above. The layers and the packages
// are listed once, in docs/development.md; this test reads them from there,
// so the map a newcomer reads is the rule the build keeps, and a package
// missing from the map fails here.

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "tests/layout/source_tree.h"

namespace sstfilter::layout {
namespace {

constexpr char kMap[] = "docs/development.md";

struct Layer {
  int rank;
  std::string name;
};

// The map's two tables: layers (rank, name, folders) and packages.
struct TreeMap {
  std::map<std::string, Layer> folder_layer;  // "util", "" for the root
  std::set<std::string> packages;             // "filter/bloom", "" for root
};

// The backquoted words of a table cell.
std::vector<std::string> Quoted(absl::string_view cell) {
  std::vector<std::string> words;
  std::vector<absl::string_view> parts = absl::StrSplit(cell, '`');
  for (size_t i = 1; i < parts.size(); i += 2) {
    words.emplace_back(parts[i]);
  }
  return words;
}

// "//" is the root package; "util/" the folder util.
std::string FolderOf(absl::string_view word) {
  if (word == "//") return "";
  return std::string(absl::StripSuffix(word, "/"));
}

TreeMap ReadMap(const std::string& text) {
  TreeMap map;
  std::string section;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, "## ")) {
      section = std::string(line.substr(3));
      continue;
    }
    if (!absl::StartsWith(line, "| ") || absl::StartsWith(line, "|--") ||
        absl::StartsWith(line, "|---")) {
      continue;
    }
    std::vector<absl::string_view> cells = absl::StrSplit(line, '|');
    if (cells.size() < 4) continue;
    if (section == "Layers") {
      int rank = 0;
      if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(cells[1]), &rank)) {
        continue;  // the header row
      }
      const std::string name(absl::StripAsciiWhitespace(cells[2]));
      for (const std::string& word : Quoted(cells[3])) {
        map.folder_layer[FolderOf(word)] = Layer{rank, name};
      }
    } else if (section == "Packages") {
      std::vector<std::string> words = Quoted(cells[1]);
      if (!words.empty()) map.packages.insert(FolderOf(words[0]));
    }
  }
  return map;
}

// The layer of a package: that of the longest listed folder containing it.
// The root ("//") holds only the root package, so that a new top-level folder
// is in no layer until the map gives it one.
const Layer* LayerOf(const TreeMap& map, const std::string& package) {
  const Layer* found = nullptr;
  size_t longest = 0;
  for (const auto& [folder, layer] : map.folder_layer) {
    const bool contains =
        folder.empty()
            ? package.empty()
            : package == folder ||
                  absl::StartsWith(package, absl::StrCat(folder, "/"));
    if (contains && (found == nullptr || folder.size() > longest)) {
      found = &layer;
      longest = folder.size();
    }
  }
  return found;
}

bool IsBuildFile(const std::string& name) {
  return name == "BUILD.bazel" || name == "BUILD" ||
         absl::EndsWith(name, ".bzl");
}

std::string PackageOf(const std::string& file) {
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? "" : file.substr(0, slash);
}

// The packages a BUILD or .bzl file depends on: every label it names, except
// in visibility lists (which grant access upwards, as a lower layer's library
// does to its tests) and Bazel's own pseudo-packages.
std::set<std::string> NamedPackages(std::string text) {
  static const std::regex kVisibility(
      R"(visibility\s*=\s*(\[[^\]]*\]|"[^"]*"))");
  text = std::regex_replace(text, kVisibility, "");
  static const std::regex kLabel(R"re("//([A-Za-z0-9_./-]*)(:[^"]*)?")re");
  std::set<std::string> packages;
  for (std::sregex_iterator it(text.begin(), text.end(), kLabel), end;
       it != end; ++it) {
    const std::string package = (*it)[1];
    if (package == "visibility" || package == "conditions") continue;
    packages.insert(package);
  }
  return packages;
}

class LayersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = SourceRoot(kMap);
    ASSERT_FALSE(root_.empty());
    map_ = ReadMap(ReadFile(root_ / kMap));
    ASSERT_GE(map_.folder_layer.size(), 5u)
        << kMap << " has no '## Layers' table of rank | layer | folders";
    ASSERT_GE(map_.packages.size(), 10u)
        << kMap << " has no '## Packages' table";
    build_files_ = SourceFiles(root_, IsBuildFile);
    ASSERT_FALSE(build_files_.empty());
  }

  std::filesystem::path root_;
  TreeMap map_;
  std::vector<std::string> build_files_;
};

TEST_F(LayersTest, EveryPackageIsInTheMap) {
  std::set<std::string> found;
  for (const std::string& file : build_files_) {
    if (absl::EndsWith(file, ".bzl")) continue;
    const std::string package = PackageOf(file);
    found.insert(package);
    EXPECT_TRUE(map_.packages.count(package) > 0)
        << "package //" << package << " is missing from the Packages table of "
        << kMap;
    EXPECT_NE(LayerOf(map_, package), nullptr)
        << "package //" << package << " is in no layer of " << kMap;
  }
  for (const std::string& package : map_.packages) {
    EXPECT_TRUE(found.count(package) > 0)
        << kMap << " lists //" << package << ", which has no BUILD file";
  }
}

TEST_F(LayersTest, NoDependencyPointsUp) {
  int checked = 0;
  for (const std::string& file : build_files_) {
    const std::string package = PackageOf(file);
    const Layer* own = LayerOf(map_, package);
    if (own == nullptr) continue;  // reported by EveryPackageIsInTheMap
    for (const std::string& named : NamedPackages(ReadFile(root_ / file))) {
      ++checked;
      const Layer* theirs = LayerOf(map_, named);
      ASSERT_NE(theirs, nullptr) << file << " names //" << named
                                 << ", a package in no layer of " << kMap;
      EXPECT_LE(theirs->rank, own->rank)
          << file << " (layer " << own->rank << ", " << own->name
          << ") depends on //" << named << " (layer " << theirs->rank << ", "
          << theirs->name << "): a dependency must point down";
    }
  }
  // The tree's BUILD files name hundreds of labels; none means the scan broke.
  EXPECT_GT(checked, 100);
}

// The parser itself, on a made-up map and BUILD file.
TEST(LayersParserTest, ReadsTheMapAndSkipsVisibility) {
  const TreeMap map = ReadMap(
      "## Layers\n| rank | layer | folders | what |\n|---|---|---|---|\n"
      "| 0 | build | `//`, `third_party/` | glue |\n"
      "| 1 | foundation | `util/` | hashes |\n"
      "| 2 | filters | `filter/` | formats |\n"
      "## Packages\n| package | what |\n|---|---|\n"
      "| `util` | hashes |\n| `filter/bloom` | native |\n");
  EXPECT_EQ(map.packages, (std::set<std::string>{"util", "filter/bloom"}));
  ASSERT_NE(LayerOf(map, "filter/bloom"), nullptr);
  EXPECT_EQ(LayerOf(map, "filter/bloom")->rank, 2);
  EXPECT_EQ(LayerOf(map, "")->rank, 0);
  // Folders the map does not list are in no layer, the root's neither.
  EXPECT_EQ(LayerOf(map, "utility"), nullptr);
  EXPECT_EQ(LayerOf(map, "newfolder/sub"), nullptr);
  EXPECT_EQ(NamedPackages("deps = [\"//filter/bloom\", \"//util:hash\"],\n"
                          "visibility = [\"//bench:__pkg__\"],\n"
                          "x = select({\"//conditions:default\": []})"),
            (std::set<std::string>{"filter/bloom", "util"}));
}

}  // namespace
}  // namespace sstfilter::layout
