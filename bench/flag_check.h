// The command-line check the benchmark tools share. absl::ParseCommandLine
// exits with status 1 on an unknown flag or a value its type refuses; a tool
// calls CheckFlags first and reports the problem itself, as a usage error
// (status 2, one line).

#ifndef SSTFILTER_BENCH_FLAG_CHECK_H_
#define SSTFILTER_BENCH_FLAG_CHECK_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sstfilter {
namespace bench {

// Does what absl::ParseCommandLine would do with argv's flags, but returns the
// first problem (InvalidArgumentError, one line naming the flag) instead of
// exiting: an unknown flag, a missing value, a value the flag's type refuses,
// or an argument that is not a flag. --help and Abseil's other usage flags
// pass, for absl::ParseCommandLine to handle.
absl::Status CheckFlags(int argc, char** argv);

// InvalidArgumentError "--flag=value: why".
absl::Status FlagError(absl::string_view flag, absl::string_view value,
                       absl::string_view why);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_FLAG_CHECK_H_
