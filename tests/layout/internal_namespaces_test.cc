// A namespace `<name>_internal` serves the package that defines it (after
// Abseil): a file outside that package's folder may not name it. What another
// package needs gets a public header and namespace instead (filter/bloom's
// `bloom` beside its `bloom_internal`). A namespace defined in
// `<folder>/internal` belongs to `<folder>`, and a package's subfolders are
// part of it.
//
// The uses that predate the rule are listed below, by namespace and folder;
// the test fails on any other use, and on a listed one that is gone, so that
// the list only shrinks.

#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/layout/source_tree.h"

namespace sstfilter::layout {
namespace {

// (namespace, folder): a folder that still names another package's internal
// namespace, until that package gives it a public header.
const std::set<std::pair<std::string, std::string>>& KnownUses() {
  static const auto* const known =
      new std::set<std::pair<std::string, std::string>>{
          // The hybrid filter builds and reads the compact filter's format;
          // its fuzzer pins the compact filter's query path.
          {"burr_internal", "filter/hybrid"},
          {"burr_internal", "tests/fuzz"},
          // The filter layer's shared pieces: the saved-file fields of the
          // in-memory filters (and their test helpers), the checked trailer
          // the mutable filter and the Redis engine write and verify.
          {"filter_internal", "engines/redis"},
          {"filter_internal", "inmemory/counting"},
          {"filter_internal", "inmemory/mutable"},
          {"filter_internal", "inmemory/testing"},
          // The Redis engine sizes, estimates and freezes filters as the
          // mutable filter does.
          {"mutable_internal", "engines/redis"},
          // Fuzzers of the presence files' records and of a RocksDB
          // format's query.
          {"presence_internal", "tests/fuzz"},
          {"rocksdb_internal", "tests/fuzz"},
      };
  return *known;
}

std::string FolderOf(const std::string& file) {
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? "" : file.substr(0, slash);
}

bool Contains(const std::string& package, const std::string& folder) {
  return package.empty() || folder == package ||
         absl::StartsWith(folder, absl::StrCat(package, "/"));
}

// A folder naming another package's internal namespace, with the files that
// do and the package that owns it.
struct Use {
  std::set<std::string> files;
  std::set<std::string> owners;
};
using Uses = std::map<std::pair<std::string, std::string>, Use>;

// The uses of `_internal` namespaces outside their packages in files (path ->
// text). A namespace is defined where a file opens `namespace x_internal {`
// around more than forward declarations; it is named by `x_internal::`, by
// `x_internal;` (an alias or a using-directive), and by a block that only
// forward-declares into it.
Uses ForeignUses(const std::map<std::string, std::string>& files) {
  static const std::regex kOpens(
      R"(namespace\s+(?:\w+::)*(\w+_internal)\s*\{)");
  static const std::regex kNames(R"(\b(\w+_internal)\s*(::|;))");
  std::map<std::string, std::set<std::string>> owners;
  std::vector<std::pair<std::string, std::string>> named;  // (name, path)
  for (const auto& [path, text] : files) {
    for (std::sregex_iterator it(text.begin(), text.end(), kOpens), end;
         it != end; ++it) {
      // Up to its first '}' a block of forward declarations holds no '{' and
      // no '(' (class X; enum class Y : uint8_t;).
      const size_t start = static_cast<size_t>(it->position() + it->length());
      const size_t close = text.find('}', start);
      if (text.substr(start, close - start).find_first_of("{(") ==
          std::string::npos) {
        named.emplace_back((*it)[1], path);
        continue;
      }
      std::string owner = FolderOf(path);
      if (owner == "internal" || absl::EndsWith(owner, "/internal")) {
        owner = FolderOf(owner);
      }
      owners[(*it)[1]].insert(owner);
    }
    for (std::sregex_iterator it(text.begin(), text.end(), kNames), end;
         it != end; ++it) {
      named.emplace_back((*it)[1], path);
    }
  }
  Uses uses;
  for (const auto& [name, path] : named) {
    const auto found = owners.find(name);
    if (found == owners.end()) continue;  // not one of the tree's
    const std::string folder = FolderOf(path);
    bool inside = false;
    for (const std::string& owner : found->second) {
      inside = inside || Contains(owner, folder);
    }
    if (inside) continue;
    Use& use = uses[{name, folder}];
    use.files.insert(path);
    use.owners = found->second;
  }
  return uses;
}

constexpr char kThisFile[] = "tests/layout/internal_namespaces_test.cc";

bool IsSource(const std::string& name) {
  return absl::EndsWith(name, ".h") || absl::EndsWith(name, ".cc");
}

TEST(InternalNamespacesTest, NamedOnlyInsideTheirPackage) {
  const std::filesystem::path root = SourceRoot("README.md");
  ASSERT_FALSE(root.empty());
  std::map<std::string, std::string> files;
  for (const std::string& path : SourceFiles(root, IsSource)) {
    // This file's made-up tree below would read as definitions and uses.
    if (absl::StartsWith(path, "third_party/") || path == kThisFile) continue;
    files[path] = ReadFile(root / path);
  }
  // The tree has hundreds of sources; few means the scan broke.
  ASSERT_GT(files.size(), 200u);
  const Uses uses = ForeignUses(files);
  for (const auto& [key, use] : uses) {
    if (KnownUses().count(key) > 0) continue;
    ADD_FAILURE() << key.second << "/ names " << key.first << ", internal to "
                  << absl::StrJoin(use.owners, ", ") << "/, in "
                  << absl::StrJoin(use.files, ", ")
                  << ": use (or add) that package's public header";
  }
  for (const auto& key : KnownUses()) {
    EXPECT_GT(uses.count(key), 0u)
        << key.second << "/ no longer names " << key.first
        << ": remove it from KnownUses()";
  }
}

// The scanner itself, on a made-up tree.
TEST(InternalNamespacesScannerTest, FindsUsesOutsideTheOwningFolder) {
  const std::map<std::string, std::string> files = {
      {"lib/widget/widget.h",
       "namespace sstfilter {\nnamespace widget_internal {\n"
       "inline int Bit(int x) { return x; }\n}  // namespace widget_internal\n"
       "namespace widget {\nusing widget_internal::Bit;\n}\n}\n"},
      {"lib/widget/widget_test.cc", "int y = widget_internal::Bit(1);\n"},
      {"lib/internal/shared.h",
       "namespace sstfilter::shared_internal {\nint Hash(int);\n}\n"},
      {"lib/other/other.cc", "int z = shared_internal::Hash(2);\n"},
      {"app/app.h",
       "namespace shared_internal {\nclass Reader;\n}\n"
       "// widget_internal is named in prose only\n"},
      {"app/app.cc",
       "int a = sstfilter::widget_internal::Bit(3);\n"
       "int b = widget::Bit(4);\n"},
      {"tests/fuzz/widget_fuzzer.cc",
       "namespace widget = sstfilter::widget_internal;\n"},
  };
  const Uses uses = ForeignUses(files);
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto& [key, use] : uses) keys.insert(key);
  EXPECT_EQ(keys, (std::set<std::pair<std::string, std::string>>{
                      {"shared_internal", "app"},
                      {"widget_internal", "app"},
                      {"widget_internal", "tests/fuzz"}}));
  EXPECT_EQ(uses.at({"widget_internal", "app"}).files,
            (std::set<std::string>{"app/app.cc"}));
  EXPECT_EQ(uses.at({"shared_internal", "app"}).owners,
            (std::set<std::string>{"lib"}));
}

}  // namespace
}  // namespace sstfilter::layout
