#include "bench/machine.h"

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace sstfilter {
namespace bench {
namespace {

// The value of the first line of /proc/cpuinfo whose field is `field`
// exactly, or `missing`.
std::string CpuInfoField(const std::string& field, const std::string& missing) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (absl::StripAsciiWhitespace(line.substr(0, colon)) == field) {
      return std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
    }
  }
  return missing;
}

}  // namespace

std::string MachineDescription() {
  return absl::StrFormat("%s, %d hardware threads",
                         CpuInfoField("model name", "unknown CPU"),
                         std::thread::hardware_concurrency());
}

std::string CpuGeneration() {
  const std::vector<std::string> flags =
      absl::StrSplit(CpuInfoField("flags", ""), ' ', absl::SkipEmpty());
  const auto has = [&](const char* flag) {
    for (const std::string& f : flags) {
      if (f == flag) return true;
    }
    return false;
  };
  const char* vectors = has("avx512f") ? "AVX-512"
                        : has("avx2")  ? "AVX2, no AVX-512"
                                       : "no AVX2";
  return absl::StrFormat("family %s model %s, %s",
                         CpuInfoField("cpu family", "?"),
                         CpuInfoField("model", "?"), vectors);
}

std::string LoadAverages() {
  std::ifstream loadavg("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(loadavg >> one >> five >> fifteen)) return "unknown";
  return absl::StrCat(one, " ", five, " ", fifteen);
}

}  // namespace bench
}  // namespace sstfilter
