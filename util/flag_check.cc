#include "util/flag_check.h"

#include <string>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"

namespace sstfilter {

absl::Status FlagError(absl::string_view flag, absl::string_view value,
                       absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrFormat("--%s=%s: %s", flag, value, why));
}

namespace {

// A flag as it appears on the command line: --name, --name=value, -name=value.
struct ArgFlag {
  std::string name;
  std::string value;
  bool has_value = false;
};

bool SplitFlagArg(absl::string_view arg, ArgFlag* out) {
  if (!absl::ConsumePrefix(&arg, "-")) return false;
  absl::ConsumePrefix(&arg, "-");
  const size_t eq = arg.find('=');
  out->name = std::string(arg.substr(0, eq));
  out->has_value = eq != absl::string_view::npos;
  out->value = out->has_value ? std::string(arg.substr(eq + 1)) : "";
  return true;
}

// Flags Abseil's parser handles without registering them (--help and friends).
bool IsUsageFlag(absl::string_view name) {
  for (const char* usage :
       {"help", "helpfull", "helpshort", "helppackage", "version",
        "only_check_args", "helpon", "helpmatch"}) {
    if (name == usage) return true;
  }
  return false;
}

}  // namespace

absl::Status CheckFlags(int argc, char** argv, bool positional_arguments) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    ArgFlag flag;
    if (arg == "-" || !SplitFlagArg(arg, &flag)) {
      if (positional_arguments) continue;
      return absl::InvalidArgumentError("unexpected argument '" + arg +
                                        "' (flags only)");
    }
    if (flag.name == "undefok" || flag.name == "flagfile") {
      return absl::OkStatus();  // the parser's to judge
    }
    if (IsUsageFlag(flag.name)) continue;  // Abseil handles these itself
    absl::CommandLineFlag* found = absl::FindCommandLineFlag(flag.name);
    if (found == nullptr && absl::StartsWith(flag.name, "no")) {
      absl::CommandLineFlag* negated =
          absl::FindCommandLineFlag(flag.name.substr(2));
      if (negated != nullptr && negated->IsOfType<bool>() && !flag.has_value)
        continue;
    }
    if (found == nullptr) {
      return absl::InvalidArgumentError("unknown flag --" + flag.name +
                                        " (see --help)");
    }
    std::string value = flag.value;
    if (!flag.has_value) {
      if (found->IsOfType<bool>()) continue;
      if (i + 1 >= argc) {
        return absl::InvalidArgumentError("--" + flag.name + " needs a value");
      }
      value = argv[++i];
    }
    std::string error;
    if (!found->ParseFrom(value, &error)) {
      return FlagError(flag.name, value, error);
    }
  }
  return absl::OkStatus();
}

}  // namespace sstfilter
