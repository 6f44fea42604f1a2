// README.md's API example as one function, compiled and run by
// //tests:readme_example_test and by the consumer projects under examples/.

#ifndef SSTFILTER_EXAMPLES_README_FILTER_EXAMPLE_H_
#define SSTFILTER_EXAMPLES_README_FILTER_EXAMPLE_H_

#include <ostream>

#include "absl/status/status.h"

// Builds a filter for three keys at false-positive rate fpp and writes its
// answers for two keys to out.
absl::Status FilterExample(double fpp, std::ostream& out);

#endif  // SSTFILTER_EXAMPLES_README_FILTER_EXAMPLE_H_
