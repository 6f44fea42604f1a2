// CheckFlags reports what Abseil's parser would exit on, as one line: an
// unknown flag, a missing value, a value the flag's type refuses, and (unless
// a tool takes them) an argument that is not a flag.

#include "util/flag_check.h"

#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "gtest/gtest.h"

ABSL_FLAG(int, flag_check_count, 1, "a number, for the test");
ABSL_FLAG(bool, flag_check_switch, false, "a switch, for the test");

namespace sstfilter {
namespace {

absl::Status Check(std::vector<std::string> args, bool positional = false) {
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  return CheckFlags(static_cast<int>(argv.size()), argv.data(), positional);
}

std::string Message(const absl::Status& status) {
  return std::string(status.message());
}

TEST(FlagCheckTest, KnownFlagsWithGoodValuesPass) {
  EXPECT_TRUE(Check({"--flag_check_count=3", "--flag_check_switch"}).ok());
  EXPECT_TRUE(Check({"-flag_check_count", "3", "--noflag_check_switch"}).ok());
  EXPECT_TRUE(Check({"--help"}).ok());
  EXPECT_TRUE(Check({"--undefok=nope", "--nope"}).ok());
}

TEST(FlagCheckTest, EachProblemIsOneLineNamingIt) {
  EXPECT_EQ(Message(Check({"--nope"})), "unknown flag --nope (see --help)");
  EXPECT_EQ(Message(Check({"--flag_check_count"})),
            "--flag_check_count needs a value");
  const absl::Status refused = Check({"--flag_check_count=lots"});
  EXPECT_TRUE(absl::IsInvalidArgument(refused));
  EXPECT_NE(Message(refused).find("--flag_check_count=lots: "),
            std::string::npos)
      << refused;
  EXPECT_EQ(Message(Check({"file"})),
            "unexpected argument 'file' (flags only)");
}

TEST(FlagCheckTest, PositionalArgumentsWhereAToolTakesThem) {
  EXPECT_TRUE(Check({"file", "--flag_check_count", "2", "key"}, true).ok());
  EXPECT_EQ(Message(Check({"file", "-nope=1", "key"}, true)),
            "unknown flag --nope (see --help)");
  // After "--" every argument is positional.
  EXPECT_TRUE(Check({"--", "--nope"}, true).ok());
}

}  // namespace
}  // namespace sstfilter
