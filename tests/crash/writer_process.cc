#include "tests/crash/writer_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace sstfilter {
namespace test {
namespace {

using Clock = std::chrono::steady_clock;

// An aimed round that has waited this long for its aim gives up: flushes
// come every few hundred writes, compactions every few flushes, a presence
// filter's saves after each of those and its rebuilds at least every
// thousand writes (crash_writer.cc), so a writer that reports none over this
// many writes reports none at all.
constexpr uint64_t kGiveUpOps = 10000;
// A round gives up on a writer that has not reached its aim after this
// long: it hangs, or acknowledges nothing. Far longer than any round
// takes on a loaded machine.
constexpr std::chrono::seconds kGiveUpTime(60);

// The writer's reports, read as they come.
class Reports {
 public:
  explicit Reports(WriterRound* round) : round_(round) {}

  // Adds the bytes read; complete lines are parsed.
  void Add(const char* data, size_t n) {
    pending_.append(data, n);
    size_t end;
    while ((end = pending_.find('\n')) != std::string::npos) {
      Parse(absl::string_view(pending_).substr(0, end));
      pending_.erase(0, end + 1);
    }
  }

  // Inside work of this kind now, as far as the reports read say.
  bool inside(BackgroundKind kind) const {
    auto it = work_.find(kind);
    return it != work_.end() && !it->second.open.empty();
  }
  // How long the last work of this kind took, from the report of its
  // beginning to that of its end, as read; zero when none ended yet.
  Clock::duration last_length(BackgroundKind kind) const {
    auto it = work_.find(kind);
    return it == work_.end() ? Clock::duration(0) : it->second.last_length;
  }

 private:
  // The work of one kind.
  struct Work {
    std::map<uint64_t, Clock::time_point> open;  // id: when its B was read
    Clock::duration last_length{0};
  };

  void Fail(std::string what) {
    if (round_->failure.empty()) round_->failure = std::move(what);
  }

  // "B <kind> <id>[ <cause>]" or "E <kind> <id>", without the letter.
  void ParseWork(bool began, absl::string_view line) {
    std::vector<absl::string_view> parts =
        absl::StrSplit(line, absl::MaxSplits(' ', 2));
    std::optional<BackgroundKind> kind;
    for (BackgroundKind k : kAllBackgroundKinds) {
      if (parts.size() >= 2 && parts[0] == BackgroundKindName(k)) kind = k;
    }
    uint64_t id = 0;
    if (!kind.has_value() || !absl::SimpleAtoi(parts[1], &id) ||
        (parts.size() == 3 && !began)) {
      Fail(absl::StrCat("unreadable report \"", line, "\""));
      return;
    }
    Work& w = work_[*kind];
    if (began) {
      if (!w.open.emplace(id, Clock::now()).second) {
        Fail(absl::StrCat(line, " began twice"));
      }
      ++round_->begun[*kind];
      if (*kind == BackgroundKind::kRebuild) {
        ++round_->rebuild_causes[parts.size() == 3 ? std::string(parts[2])
                                                   : std::string("unknown")];
      }
      return;
    }
    auto it = w.open.find(id);
    if (it == w.open.end()) {
      Fail(absl::StrCat(line, " ended without beginning"));
      return;
    }
    w.last_length = Clock::now() - it->second;
    w.open.erase(it);
  }

  void Parse(absl::string_view line) {
    if (line == "R") {
      round_->opened = true;
    } else if (absl::ConsumePrefix(&line, "A ")) {
      uint64_t i = 0;
      if (absl::SimpleAtoi(line, &i)) {
        round_->acknowledged.push_back(i);
      } else {
        Fail(absl::StrCat("unreadable report \"A ", line, "\""));
      }
    } else if (absl::StartsWith(line, "S ")) {
      ++round_->snapshot_checks;
    } else if (absl::ConsumePrefix(&line, "B ")) {
      ParseWork(/*began=*/true, line);
    } else if (absl::ConsumePrefix(&line, "E ")) {
      ParseWork(/*began=*/false, line);
    } else if (absl::ConsumePrefix(&line, "F ")) {
      // The writer's own failure comes first.
      round_->failure = std::string(line);
    } else if (!line.empty()) {
      Fail(absl::StrCat("unreadable report \"", line, "\""));
    }
  }

  WriterRound* const round_;
  std::string pending_;  // a line not yet complete
  std::map<BackgroundKind, Work> work_;
};

// When to kill, once the reports read reach plan's aim; nullopt before.
// fraction replaces plan.fraction.
std::optional<Clock::time_point> KillTime(const KillPlan& plan, double fraction,
                                          const WriterRound& round,
                                          const Reports& reports) {
  if (round.acknowledged.empty()) return std::nullopt;
  if (!plan.aim.has_value()) return Clock::now() + plan.delay;
  if (!reports.inside(*plan.aim)) return std::nullopt;
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            reports.last_length(*plan.aim) * fraction);
}

// Reads what is in fd now, without waiting for more.
void ReadAvailable(int fd, Reports* reports) {
  char buffer[4096];
  pollfd p = {fd, POLLIN, 0};
  while (poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n <= 0) return;
    reports->Add(buffer, n);
  }
}

// Stops the writer and reads all it reported before it stopped, so that
// whether it is inside some work is known exactly, not as of the last read.
// False when the writer ended instead; *status then holds how.
bool StopAndRead(pid_t pid, int fd, Reports* reports, int* status) {
  kill(pid, SIGSTOP);
  while (waitpid(pid, status, WUNTRACED) < 0 && errno == EINTR) {
  }
  if (!WIFSTOPPED(*status)) return false;
  ReadAvailable(fd, reports);
  return true;
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
                                             const KillPlan& plan) {
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

  WriterRound round;
  Reports reports(&round);
  char buffer[4096];
  const Clock::time_point give_up_at = Clock::now() + kGiveUpTime;
  const std::optional<BackgroundKind>& aimed_at = plan.aim;
  std::optional<Clock::time_point> kill_at;  // once the aim is taken
  double fraction = plan.fraction;           // halved at each miss
  int status = 0;
  bool reaped = false;  // the writer ended, and status says how
  // Reads as the writer reports, so that it never blocks on a full pipe and
  // the aim is taken as soon as the writer reaches it.
  for (;;) {
    // Work that ends before its kill is due is not where the kill would
    // land: the aim is taken again, earlier in the next such work.
    if (kill_at.has_value() && aimed_at.has_value() &&
        !reports.inside(*aimed_at)) {
      kill_at.reset();
      fraction /= 2;
    }
    if (!kill_at.has_value()) {
      kill_at = KillTime(plan, fraction, round, reports);
      if (!kill_at.has_value() &&
          (Clock::now() >= give_up_at ||
           (!round.acknowledged.empty() &&
            round.acknowledged.back() - round.acknowledged.front() >=
                kGiveUpOps))) {
        break;
      }
    }
    const Clock::time_point wake = kill_at.value_or(give_up_at);
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
        wake - Clock::now());
    if (left.count() <= 0) {
      // The work may have ended since the last read, and a short one (a
      // compaction on tmpfs) often does while this process waits for a
      // core: the aim is checked with the writer stopped, and when missed
      // the writer goes on and the loop's top takes the aim again.
      if (kill_at.has_value() && aimed_at.has_value()) {
        if (!StopAndRead(pid, fds[0], &reports, &status)) {
          reaped = true;
          break;
        }
        if (!reports.inside(*aimed_at)) {
          kill(pid, SIGCONT);
          continue;
        }
      }
      round.aim_taken = kill_at.has_value();
      break;
    }
    const timespec wait = {static_cast<time_t>(left.count() / 1000000),
                           static_cast<long>(left.count() % 1000000) * 1000};
    pollfd p = {fds[0], POLLIN, 0};
    if (ppoll(&p, 1, &wait, nullptr) <= 0) continue;
    const ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n > 0) {
      reports.Add(buffer, n);
    } else if (n == 0 || errno != EINTR) {
      break;  // the writer is gone
    }
  }
  if (!reaped) {
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  // What it reported before the kill is still in the pipe.
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0) reports.Add(buffer, n);
  close(fds[0]);

  for (BackgroundKind kind : kAllBackgroundKinds) {
    if (reports.inside(kind)) round.died_inside.insert(kind);
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
