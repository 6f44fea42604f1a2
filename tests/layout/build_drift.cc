#include "tests/layout/build_drift.h"

#include <map>
#include <regex>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace sstfilter::layout {
namespace {

// The Bazel repositories of third_party/repositories.bzl, and the targets the
// same libraries' CMake packages (or cmake/sstfilter_dependencies.cmake)
// define.
constexpr std::pair<const char*, const char*> kExternalTargets[] = {
    {"@com_google_absl//absl/base:core_headers", "absl::core_headers"},
    {"@com_google_absl//absl/container:inlined_vector", "absl::inlined_vector"},
    {"@com_google_absl//absl/flags:flag", "absl::flags"},
    {"@com_google_absl//absl/flags:parse", "absl::flags_parse"},
    {"@com_google_absl//absl/flags:reflection", "absl::flags_reflection"},
    {"@com_google_absl//absl/flags:usage", "absl::flags_usage"},
    {"@com_google_absl//absl/status:status", "absl::status"},
    {"@com_google_absl//absl/status:statusor", "absl::statusor"},
    {"@com_google_absl//absl/strings:str_format", "absl::str_format"},
    {"@com_google_absl//absl/strings:strings", "absl::strings"},
    {"@com_google_absl//absl/synchronization:synchronization",
     "absl::synchronization"},
    {"@com_google_absl//absl/time:time", "absl::time"},
    {"@com_google_absl//absl/types:span", "absl::span"},
    {"@com_google_googletest//:gmock", "GTest::gmock"},
    {"@com_google_googletest//:gtest", "GTest::gtest"},
    {"@com_google_googletest//:gtest_main", "GTest::gtest_main"},
    {"@com_github_facebook_rocksdb//:rocksdb", "RocksDB::rocksdb-shared"},
    {"@com_github_google_benchmark//:benchmark", "benchmark::benchmark"},
    {"@com_github_google_leveldb//:leveldb", "leveldb::leveldb"},
    {"@com_github_google_snappy//:snappy", "Snappy::snappy"},
    {"@com_github_nlohmann_json//:json", "nlohmann_json::nlohmann_json"},
    {"@com_github_redis_hiredis//:hiredis", "hiredis::hiredis"},
    {"@xxhash//:xxhash", "xxHash::xxhash"},
};

// Bazel targets whose CMake name is not their own (see the header).
constexpr std::pair<const char*, const char*> kRenamed[] = {
    {"//engines/rocksdb:rocksdb", "rocksdb_adapter"},
    {"//engines/leveldb:leveldb", "leveldb_adapter"},
};

// The fuzz targets' libFuzzer-or-replay main, which the CMake rule
// sstfilter_fuzz_test adds itself, as tests/fuzz/fuzz.bzl does.
constexpr char kReplayMain[] = "//tests/fuzz:replay_main";

struct QueryRule {
  std::string kind;
  std::string package;
  std::string name;
  std::map<std::string, std::string> attrs;  // attribute -> its printed value
  bool from_fuzz_macro = false;
};

std::vector<std::string> Strings(absl::string_view value) {
  static const std::regex* const kString = new std::regex("\"([^\"]*)\"");
  std::vector<std::string> result;
  const std::string text(value);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), *kString);
       it != std::sregex_iterator(); ++it) {
    result.push_back((*it)[1]);
  }
  return result;
}

// The part of an attribute's value before any `+ select(...)`.
absl::string_view WithoutSelect(absl::string_view value, bool* had_select) {
  const size_t at = value.find("select(");
  *had_select = at != absl::string_view::npos;
  if (!*had_select) return value;
  return value.substr(0, at);
}

std::string Label(const std::string& package, const std::string& name) {
  return absl::StrCat("//", package, ":", name);
}

// "//pkg:name" (also "//pkg" and ":name" relative to `package`) as package
// and name.
std::pair<std::string, std::string> SplitLabel(const std::string& label,
                                               const std::string& package) {
  if (absl::StartsWith(label, ":")) return {package, label.substr(1)};
  absl::string_view rest = label;
  absl::ConsumePrefix(&rest, "//");
  const size_t colon = rest.find(':');
  if (colon == absl::string_view::npos) {
    const size_t slash = rest.rfind('/');
    return {std::string(rest), std::string(slash == absl::string_view::npos
                                               ? rest
                                               : rest.substr(slash + 1))};
  }
  return {std::string(rest.substr(0, colon)),
          std::string(rest.substr(colon + 1))};
}

std::string LastFolder(const std::string& package) {
  const size_t slash = package.rfind('/');
  return slash == std::string::npos ? package : package.substr(slash + 1);
}

// "  <attribute> = <value>," as its name and value. Not a std::regex:
// libstdc++'s matcher recurses once per character, and a long value (the
// data of a fuzz target with a corpus of hundreds of files) overflows the
// stack.
bool ParseAttribute(absl::string_view line, std::string* name,
                    std::string* value) {
  if (!absl::ConsumePrefix(&line, "  ") || !absl::ConsumeSuffix(&line, ",")) {
    return false;
  }
  const size_t equals = line.find(" = ");
  if (equals == 0 || equals == absl::string_view::npos) return false;
  const absl::string_view attribute = line.substr(0, equals);
  for (char c : attribute) {
    if (!(c == '_' || (c >= 'a' && c <= 'z'))) return false;
  }
  *name = std::string(attribute);
  *value = std::string(line.substr(equals + 3));
  return true;
}

bool IsTest(const std::string& kind) {
  return kind == "cc_test" || kind == "sh_test" || kind == "fuzz_test";
}

// Bazel's default test size, and tests/fuzz/fuzz.bzl's.
std::string DefaultSize(const std::string& kind) {
  return kind == "fuzz_test" ? "small" : "medium";
}

// Whether text is prefix + inner + suffix, setting *inner.
bool Unwrap(absl::string_view text, absl::string_view prefix,
            absl::string_view suffix, std::string* inner) {
  if (!absl::ConsumePrefix(&text, prefix) ||
      !absl::ConsumeSuffix(&text, suffix)) {
    return false;
  }
  *inner = std::string(text);
  return true;
}

}  // namespace

absl::StatusOr<std::vector<BuildRule>> ParseBazelQuery(absl::string_view text) {
  // Each rule is printed as
  //   # /abs/path/<package>/BUILD.bazel:<line>:<column>
  //   kind(
  //     attribute = value,
  //   )
  //   # Rule <name> instantiated at (most recent call last): ... (macros only)
  static const std::regex* const kLocation =
      new std::regex("^# (.*)/BUILD(\\.bazel)?:[0-9]+:[0-9]+$");
  static const std::regex* const kKind = new std::regex("^([a-z_]+)\\($");
  std::vector<QueryRule> rules;
  std::string workspace;  // the common prefix of the BUILD files' folders
  std::vector<std::string> folders;
  QueryRule* current = nullptr;
  for (absl::string_view line_view : absl::StrSplit(text, '\n')) {
    const std::string line(line_view);
    std::smatch match;
    std::string name;
    std::string value;
    if (std::regex_match(line, match, *kLocation)) {
      rules.emplace_back();
      current = &rules.back();
      folders.push_back(match[1]);
    } else if (current != nullptr && current->kind.empty() &&
               std::regex_match(line, match, *kKind)) {
      current->kind = match[1];
    } else if (current != nullptr && ParseAttribute(line, &name, &value)) {
      current->attrs[name] = value;
    } else if (current != nullptr && absl::StartsWith(line, "#   ") &&
               absl::StrContains(line, "/tests/fuzz/fuzz.bzl:")) {
      current->from_fuzz_macro = true;
    }
  }
  if (rules.empty()) {
    return absl::InvalidArgumentError(
        "no rule in the query output: expected `bazel query --output=build`");
  }
  // The workspace is the folder of the shallowest BUILD file whose folder is
  // a prefix of every other's.
  workspace = folders.front();
  for (const std::string& folder : folders) {
    while (
        !absl::StartsWith(folder, workspace) ||
        (folder.size() > workspace.size() && folder[workspace.size()] != '/')) {
      const size_t slash = workspace.rfind('/');
      if (slash == std::string::npos)
        return absl::InvalidArgumentError(
            absl::StrCat("no common workspace folder for ", folder));
      workspace = workspace.substr(0, slash);
    }
  }
  for (size_t i = 0; i < rules.size(); ++i) {
    absl::string_view package = folders[i];
    package.remove_prefix(workspace.size());
    absl::ConsumePrefix(&package, "/");
    rules[i].package = std::string(package);
    auto name = rules[i].attrs.find("name");
    if (rules[i].kind.empty() || name == rules[i].attrs.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("a rule in ", folders[i], " has no kind or name"));
    }
    const std::vector<std::string> names = Strings(name->second);
    if (names.size() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("unreadable name ", name->second));
    }
    rules[i].name = names[0];
  }

  // Aliases, followed; then the CMake name of every rule.
  std::map<std::string, std::string> alias_of;
  std::map<std::string, int> name_uses;
  for (const QueryRule& rule : rules) {
    if (rule.kind == "alias") {
      auto actual = rule.attrs.find("actual");
      if (actual == rule.attrs.end()) continue;
      const std::vector<std::string> labels = Strings(actual->second);
      if (labels.size() == 1) {
        const auto [package, name] = SplitLabel(labels[0], rule.package);
        alias_of[Label(rule.package, rule.name)] = Label(package, name);
      }
    } else {
      ++name_uses[rule.name];
    }
  }
  std::map<std::string, std::string> renamed(std::begin(kRenamed),
                                             std::end(kRenamed));
  std::map<std::string, std::string> cmake_name;  // label -> CMake name
  std::map<std::string, std::string> kind_of;     // label -> Bazel kind
  for (const QueryRule& rule : rules) {
    if (rule.kind == "alias") continue;
    const std::string label = Label(rule.package, rule.name);
    std::string name = rule.name;
    if (auto it = renamed.find(label); it != renamed.end()) {
      name = it->second;
    } else if (name_uses[rule.name] > 1) {
      name = absl::StrCat(LastFolder(rule.package), "_", rule.name);
    }
    cmake_name[label] = name;
    kind_of[label] = rule.kind;
  }
  const std::map<std::string, std::string> external(
      std::begin(kExternalTargets), std::end(kExternalTargets));

  std::vector<BuildRule> result;
  for (const QueryRule& rule : rules) {
    if (rule.kind == "alias") continue;
    BuildRule out;
    out.kind = rule.from_fuzz_macro ? "fuzz_test" : rule.kind;
    out.package = rule.package;
    out.name = cmake_name[Label(rule.package, rule.name)];
    const auto attr = [&rule](const char* key) -> std::string {
      auto it = rule.attrs.find(key);
      return it == rule.attrs.end() ? "" : it->second;
    };
    for (const char* key : {"srcs", "hdrs"}) {
      bool had_select = false;
      const std::string printed = attr(key);
      const absl::string_view value = WithoutSelect(printed, &had_select);
      std::set<std::string>& files =
          std::string(key) == "srcs" ? out.srcs : out.hdrs;
      for (const std::string& label : Strings(value)) {
        const auto [package, file] = SplitLabel(label, rule.package);
        files.insert(package == rule.package ? file : label);
      }
      if (had_select) files.insert(absl::StrCat("select() in ", key));
    }
    bool had_select = false;
    const std::string printed_deps = attr("deps");
    const absl::string_view deps = WithoutSelect(printed_deps, &had_select);
    if (had_select && !rule.from_fuzz_macro) {
      out.deps.insert("select() in deps");
    }
    for (const std::string& label : Strings(deps)) {
      if (auto it = external.find(label); it != external.end()) {
        out.deps.insert(it->second);
        continue;
      }
      if (absl::StartsWith(label, "@")) {
        out.deps.insert(absl::StrCat("unmapped ", label));
        continue;
      }
      const auto [package, name] = SplitLabel(label, rule.package);
      std::string target = Label(package, name);
      if (auto it = alias_of.find(target); it != alias_of.end()) {
        target = it->second;
      }
      if (rule.from_fuzz_macro && target == kReplayMain) continue;
      auto it = cmake_name.find(target);
      if (it == cmake_name.end() || kind_of[target] != "cc_library") {
        out.deps.insert(absl::StrCat("not a library: ", target));
        continue;
      }
      out.deps.insert(absl::StrCat("sstfilter::", it->second));
    }
    std::set<std::string> tags;
    for (const std::string& tag : Strings(attr("tags"))) tags.insert(tag);
    out.manual = tags.erase("manual") > 0;
    tags.erase("fuzz_target");
    out.labels = tags;
    if (IsTest(out.kind)) {
      const std::vector<std::string> size = Strings(attr("size"));
      out.size = size.empty() ? DefaultSize(out.kind) : size[0];
      out.shard_count = attr("shard_count");
    }
    if (!rule.from_fuzz_macro) {
      for (const std::string& arg : Strings(attr("args"))) {
        std::string location;
        if (Unwrap(arg, "$(location ", ")", &location)) {
          const auto [package, name] = SplitLabel(location, rule.package);
          auto it = cmake_name.find(Label(package, name));
          out.args.push_back(absl::StrCat(
              "location ", it == cmake_name.end() ? location : it->second));
        } else {
          out.args.push_back(arg);
        }
      }
      for (const std::string& label : Strings(attr("data"))) {
        const auto [package, name] = SplitLabel(label, rule.package);
        out.data.insert(package.empty() ? name
                                        : absl::StrCat(package, "/", name));
      }
    }
    const bool testonly = attr("testonly") == "True";
    if (rule.kind == "cc_library" || rule.kind == "cc_binary") {
      out.testonly = testonly;
    }
    out.is_public =
        rule.kind == "cc_library" && !testonly &&
        absl::StrContains(attr("visibility"), "//visibility:public");
    result.push_back(std::move(out));
  }
  return result;
}

// sstfilter_rules.tsv's columns: kind, package, name, flags, sources,
// headers, dependencies, size, shard count, labels, arguments, data.
constexpr size_t kCMakeFields = 12;

absl::StatusOr<std::vector<BuildRule>> ParseCMakeRules(absl::string_view text) {
  std::vector<BuildRule> result;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    if (line.empty()) continue;
    const std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() != kCMakeFields) {
      return absl::InvalidArgumentError(absl::StrCat(
          "line ", line_number, " has ", fields.size(),
          " tab-separated fields, not ", kCMakeFields, ": ", line));
    }
    BuildRule rule;
    rule.kind = fields[0];
    rule.package = fields[1];
    rule.name = fields[2];
    const std::set<std::string> flags =
        absl::StrSplit(fields[3], ' ', absl::SkipEmpty());
    rule.is_public = flags.count("PUBLIC") > 0;
    rule.testonly = flags.count("TESTONLY") > 0;
    rule.srcs = absl::StrSplit(fields[4], ' ', absl::SkipEmpty());
    rule.hdrs = absl::StrSplit(fields[5], ' ', absl::SkipEmpty());
    rule.deps = absl::StrSplit(fields[6], ' ', absl::SkipEmpty());
    rule.manual = flags.count("MANUAL") > 0;
    rule.labels = absl::StrSplit(fields[9], ' ', absl::SkipEmpty());
    if (IsTest(rule.kind)) {
      rule.size = fields[7].empty() ? DefaultSize(rule.kind) : fields[7];
      rule.shard_count = fields[8];
    }
    for (absl::string_view arg :
         absl::StrSplit(fields[10], ' ', absl::SkipEmpty())) {
      std::string target;
      rule.args.push_back(Unwrap(arg, "$<TARGET_FILE:", ">", &target)
                              ? absl::StrCat("location ", target)
                              : std::string(arg));
    }
    rule.data = absl::StrSplit(fields[11], ' ', absl::SkipEmpty());
    result.push_back(std::move(rule));
  }
  return result;
}

namespace {

std::string Describe(const BuildRule& rule) {
  return absl::StrCat(rule.kind, " ", rule.package.empty() ? "." : rule.package,
                      ":", rule.name);
}

void CompareSets(const std::string& what, const std::string& rule,
                 const std::set<std::string>& bazel,
                 const std::set<std::string>& cmake,
                 std::vector<std::string>* differences) {
  for (const std::string& item : bazel) {
    if (cmake.count(item) == 0) {
      differences->push_back(
          absl::StrCat(rule, ": ", what, " ", item, " is in BUILD.bazel only"));
    }
  }
  for (const std::string& item : cmake) {
    if (bazel.count(item) == 0) {
      differences->push_back(absl::StrCat(rule, ": ", what, " ", item,
                                          " is in CMakeLists.txt only"));
    }
  }
}

// Bazel's data with each path under a folder CMake lists as data replaced by
// that folder: Bazel names a corpus file by file (a glob), CMake by folder.
std::set<std::string> DataUnder(const std::set<std::string>& bazel,
                                const std::set<std::string>& cmake) {
  std::set<std::string> result;
  for (const std::string& path : bazel) {
    std::string folder_listed = path;
    for (const std::string& folder : cmake) {
      if (absl::StartsWith(path, absl::StrCat(folder, "/"))) {
        folder_listed = folder;
        break;
      }
    }
    result.insert(folder_listed);
  }
  return result;
}

}  // namespace

std::vector<std::string> CompareBuilds(const std::vector<BuildRule>& bazel,
                                       const std::vector<BuildRule>& cmake) {
  std::vector<std::string> differences;
  const auto key = [](const BuildRule& rule) {
    return std::make_pair(rule.package, rule.name);
  };
  std::map<std::pair<std::string, std::string>, const BuildRule*> by_key;
  for (const BuildRule& rule : cmake) by_key[key(rule)] = &rule;
  std::set<std::pair<std::string, std::string>> matched;
  for (const BuildRule& rule : bazel) {
    auto it = by_key.find(key(rule));
    if (it == by_key.end()) {
      differences.push_back(
          absl::StrCat(Describe(rule), " is in BUILD.bazel only"));
      continue;
    }
    matched.insert(key(rule));
    const BuildRule& other = *it->second;
    const std::string name = Describe(rule);
    if (other.kind != rule.kind) {
      differences.push_back(
          absl::StrCat(name, " is a ", other.kind, " in CMakeLists.txt"));
    }
    CompareSets("source", name, rule.srcs, other.srcs, &differences);
    CompareSets("header", name, rule.hdrs, other.hdrs, &differences);
    CompareSets("dependency", name, rule.deps, other.deps, &differences);
    if (rule.is_public != other.is_public) {
      differences.push_back(absl::StrCat(
          name, rule.is_public ? " is public in BUILD.bazel only"
                               : " is PUBLIC in CMakeLists.txt only"));
    }
    if (rule.manual != other.manual) {
      differences.push_back(absl::StrCat(
          name, rule.manual ? " is manual in BUILD.bazel only"
                            : " is MANUAL in CMakeLists.txt only"));
    }
    CompareSets("tag", name, rule.labels, other.labels, &differences);
    if (rule.size != other.size) {
      differences.push_back(absl::StrCat(name, " is ", rule.size,
                                         " in BUILD.bazel, ", other.size,
                                         " in CMakeLists.txt"));
    }
    if (rule.shard_count != other.shard_count) {
      differences.push_back(absl::StrCat(
          name, " has shard count '", rule.shard_count, "' in BUILD.bazel, '",
          other.shard_count, "' in CMakeLists.txt"));
    }
    if (rule.args != other.args) {
      differences.push_back(
          absl::StrCat(name, " has arguments [", absl::StrJoin(rule.args, " "),
                       "] in BUILD.bazel, [", absl::StrJoin(other.args, " "),
                       "] in CMakeLists.txt"));
    }
    CompareSets("data", name, DataUnder(rule.data, other.data), other.data,
                &differences);
    if (rule.testonly != other.testonly) {
      differences.push_back(absl::StrCat(
          name, rule.testonly ? " is testonly in BUILD.bazel only"
                              : " is TESTONLY in CMakeLists.txt only"));
    }
  }
  for (const BuildRule& rule : cmake) {
    if (matched.count(key(rule)) == 0) {
      differences.push_back(
          absl::StrCat(Describe(rule), " is in CMakeLists.txt only"));
    }
  }
  return differences;
}

}  // namespace sstfilter::layout
