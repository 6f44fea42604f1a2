// The Bazel and CMake builds of the tree must describe the same targets. This
// compares them (CompareBuilds): the Bazel side as `bazel query
// --output=build` prints its rules, the CMake side as the configure step
// records its rules (sstfilter_rules.tsv, written by
// cmake/sstfilter_rules.cmake).

#ifndef SSTFILTER_TESTS_LAYOUT_BUILD_DRIFT_H_
#define SSTFILTER_TESTS_LAYOUT_BUILD_DRIFT_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter::layout {

// One rule of either build, in the CMake build's terms.
struct BuildRule {
  std::string kind;     // cc_library, cc_binary, cc_test, sh_test, fuzz_test
  std::string package;  // "filter/bloom"; "" for the root
  std::string name;     // the CMake name
  std::set<std::string> srcs;  // relative to the package
  std::set<std::string> hdrs;
  std::set<std::string> deps;  // sstfilter::<name> or an external target
  bool is_public = false;      // Bazel: //visibility:public and not testonly
  bool testonly = false;       // for libraries and binaries
  bool manual = false;         // Bazel's tag "manual", CMake's MANUAL
  // Bazel's other tags but "fuzz_target" (which tests/fuzz/fuzz.bzl adds);
  // CMake's LABELS.
  std::set<std::string> labels;
  std::string size;         // tests: Bazel's size, its default filled in
  std::string shard_count;  // tests: empty for none
  // A test's arguments and data, but a fuzz target's (both builds derive
  // them from its corpus). An argument naming a target's file, Bazel's
  // $(location :t) and CMake's $<TARGET_FILE:t>, reads "location <t>" with
  // the CMake name; data are paths from the workspace root.
  std::vector<std::string> args;
  std::set<std::string> data;
};

// The rules `bazel query --output=build` printed. Aliases among them are
// followed when naming dependencies.
absl::StatusOr<std::vector<BuildRule>> ParseBazelQuery(absl::string_view text);

// The rules of sstfilter_rules.tsv.
absl::StatusOr<std::vector<BuildRule>> ParseCMakeRules(absl::string_view text);

// One line per difference; empty when the builds agree. A rule matches when
// the kind, package and name correspond and the sources, headers,
// dependencies, public visibility, test-only flag, manual tag, other tags,
// and a test's size, shards, arguments and data are equal. A CMake rule has
// the Bazel target's name, except that a name two Bazel packages use is
// prefixed with its package's last folder (`presence_readme_example_test`),
// and the engine adapters named after their engine (//engines/rocksdb,
// //engines/leveldb) are `rocksdb_adapter` and `leveldb_adapter`, so that
// `sstfilter::rocksdb` is never read as RocksDB itself. Libraries are named
// in dependency lists as `sstfilter::<name>`; external dependencies by the
// targets their CMake packages export (kExternalTargets).
std::vector<std::string> CompareBuilds(const std::vector<BuildRule>& bazel,
                                       const std::vector<BuildRule>& cmake);

}  // namespace sstfilter::layout

#endif  // SSTFILTER_TESTS_LAYOUT_BUILD_DRIFT_H_
