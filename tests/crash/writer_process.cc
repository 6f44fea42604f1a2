#include "tests/crash/writer_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace sstfilter {
namespace test {
namespace {

// Adds one report line to round.
void Parse(absl::string_view line, WriterRound* round) {
  if (line == "R") {
    round->opened = true;
  } else if (absl::StartsWith(line, "A ")) {
    uint64_t i = 0;
    if (absl::SimpleAtoi(line.substr(2), &i)) {
      round->acknowledged.push_back(i);
    } else {
      round->failure = absl::StrCat("unreadable report \"", line, "\"");
    }
  } else if (absl::StartsWith(line, "S ")) {
    ++round->snapshot_checks;
  } else if (absl::StartsWith(line, "F ")) {
    round->failure = std::string(line.substr(2));
  } else if (!line.empty()) {
    round->failure = absl::StrCat("unreadable report \"", line, "\"");
  }
}

}  // namespace

std::string WriterPath() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return absl::StrCat(srcdir != nullptr ? srcdir : ".", "/",
                      workspace != nullptr ? workspace : "sstfilter",
                      "/tests/crash/crash_writer");
}

absl::StatusOr<WriterRound> RunWriterAndKill(const CrashConfig& config,
                                             const std::string& dir,
                                             uint64_t seed, uint64_t first_op,
                                             int kill_after_ms) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe2: ", std::strerror(errno)));
  }
  // Everything the child needs is made before fork: after it, the child
  // calls only what is safe in a copy of a multi-threaded process.
  const std::string path = WriterPath();
  std::vector<std::string> args = {path,
                                   config.Name(),
                                   dir,
                                   absl::StrCat(seed),
                                   absl::StrCat(first_op),
                                   absl::StrCat(fds[1])};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) {
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    // The report pipe's write end stays open across exec; nothing else does.
    fcntl(fds[1], F_SETFD, 0);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);

  std::string text;
  char buffer[4096];
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(kill_after_ms);
  bool eof = false;
  // Reads as the writer reports, so that it never blocks on a full pipe.
  while (!eof) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) break;
    pollfd p = {fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    const ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n > 0) {
      text.append(buffer, n);
    } else if (n == 0 || errno != EINTR) {
      eof = true;
    }
  }
  kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // What it reported before the kill is still in the pipe.
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0) text.append(buffer, n);
  close(fds[0]);

  WriterRound round;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    Parse(line, &round);
  }
  const bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  if (round.failure.empty() && !killed) {
    round.failure =
        WIFEXITED(status)
            ? absl::StrCat("the writer exited with status ",
                           WEXITSTATUS(status))
            : absl::StrCat("the writer ended by signal ", WTERMSIG(status));
  }
  return round;
}

}  // namespace test
}  // namespace sstfilter
