#include "table/testing/sst_probe_run.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace sstfilter {
namespace test {

namespace {

std::string ProbeBinary() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return absl::StrFormat("%s/%s/table/sst_probe", srcdir ? srcdir : ".",
                         workspace ? workspace : "sstfilter");
}

}  // namespace

ProbeRun RunProbe(const TempDir& dir, const std::vector<std::string>& args) {
  const std::string out_path = dir.File("stdout");
  const std::string err_path = dir.File("stderr");
  std::vector<std::string> argv_storage = {ProbeBinary()};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0) _exit(127);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  ProbeRun run;
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return run;
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  run.out = ReadFileBytes(out_path).value_or("");
  run.err = ReadFileBytes(err_path).value_or("");
  return run;
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

// One JSON object per line: the answers, then the summary.
std::vector<nlohmann::json> JsonLines(const std::string& text) {
  std::vector<nlohmann::json> objects;
  for (const std::string& line : Lines(text)) {
    objects.push_back(nlohmann::json::parse(line));
  }
  return objects;
}

}  // namespace test
}  // namespace sstfilter
