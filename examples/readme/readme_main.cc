// Runs README.md's API example and prints its answers: the program that the
// consumer projects examples/cmake_find_package and examples/cmake_subdirectory
// build, one against an installed sstfilter, the other from its source tree.

#include <iostream>

#include "absl/status/status.h"
#include "filter_example.h"
#include "util/version.h"

int main() {
  std::cout << "sstfilter " << sstfilter::kVersionString << "\n";
  const absl::Status status = FilterExample(0.01, std::cout);
  if (!status.ok()) {
    std::cerr << "readme_example: " << status << "\n";
    return 1;
  }
  return 0;
}
