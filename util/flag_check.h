// The command-line check every tool shares. absl::ParseCommandLine exits with
// status 1 on an unknown flag or a value its type refuses; a tool calls
// CheckFlags first and reports the problem itself, as a usage error (status
// 2, one line).

#ifndef SSTFILTER_UTIL_FLAG_CHECK_H_
#define SSTFILTER_UTIL_FLAG_CHECK_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

// Does what absl::ParseCommandLine would do with argv's flags, but returns the
// first problem (InvalidArgumentError, one line naming the flag) instead of
// exiting: an unknown flag, a missing value, a value the flag's type refuses,
// or (unless positional_arguments) an argument that is not a flag. As the
// parser does, "--" ends the flags, --noNAME is known when NAME is a bool,
// and a non-bool flag without "=" takes the next argument as its value.
// --help and Abseil's other usage flags pass, for absl::ParseCommandLine to
// handle, and so does a command line with --undefok or --flagfile (whose
// flags the parser reads).
absl::Status CheckFlags(int argc, char** argv,
                        bool positional_arguments = false);

// InvalidArgumentError "--flag=value: why".
absl::Status FlagError(absl::string_view flag, absl::string_view value,
                       absl::string_view why);

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_FLAG_CHECK_H_
