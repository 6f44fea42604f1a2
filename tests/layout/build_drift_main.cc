// build_drift BAZEL_QUERY_OUTPUT CMAKE_RULES_TSV
//
// Fails (exit 1) when the Bazel and CMake builds describe different targets,
// printing each difference. .ci/build_drift runs it with the output of
//   bazel query --output=build
//   'kind("(cc_library|cc_binary|cc_test|sh_test|alias) rule", //...)'
// and the sstfilter_rules.tsv that `cmake -S . -B build` writes.

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/layout/build_drift.h"

namespace {

bool ReadFile(const char* path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: build_drift BAZEL_QUERY_OUTPUT CMAKE_RULES_TSV\n";
    return 2;
  }
  std::string query_text, rules_text;
  if (!ReadFile(argv[1], &query_text) || !ReadFile(argv[2], &rules_text)) {
    std::cerr << "build_drift: cannot read " << argv[1] << " or " << argv[2]
              << "\n";
    return 2;
  }
  const auto bazel = sstfilter::layout::ParseBazelQuery(query_text);
  if (!bazel.ok()) {
    std::cerr << "build_drift: " << argv[1] << ": " << bazel.status() << "\n";
    return 2;
  }
  const auto cmake = sstfilter::layout::ParseCMakeRules(rules_text);
  if (!cmake.ok()) {
    std::cerr << "build_drift: " << argv[2] << ": " << cmake.status() << "\n";
    return 2;
  }
  const std::vector<std::string> differences =
      sstfilter::layout::CompareBuilds(*bazel, *cmake);
  for (const std::string& difference : differences) {
    std::cout << difference << "\n";
  }
  std::cout << "build_drift: " << bazel->size() << " Bazel rules, "
            << cmake->size() << " CMake rules, " << differences.size()
            << " difference(s)\n";
  return differences.empty() ? 0 : 1;
}
