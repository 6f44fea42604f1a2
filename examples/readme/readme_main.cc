// Runs README.md's API example and prints its answers, then the filter formats
// that a reader finds by name (FindFilterFormat): the program that the consumer
// projects examples/cmake_find_package and examples/cmake_subdirectory build,
// one against an installed sstfilter, the other from its source tree. The
// formats register themselves from static initializers, so the list shows that
// a consumer's link kept them.

#include <iostream>

#include "absl/status/status.h"
#include "filter/format_registry.h"
#include "filter_example.h"
#include "util/version.h"

int main() {
  std::cout << "sstfilter " << sstfilter::kVersionString << "\n";
  const absl::Status status = FilterExample(0.01, std::cout);
  if (!status.ok()) {
    std::cerr << "readme_example: " << status << "\n";
    return 1;
  }
  std::cout << "formats: " << sstfilter::RegisteredFormatNames() << "\n";
  return 0;
}
