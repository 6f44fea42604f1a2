// filter_bench: measures filter blocks of sstfilter's policies and of LevelDB's
// and RocksDB's own filters, in one process, on the same keys. See
// bench/filter_bench.md.

#include <cstdlib>
#include <iostream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bench/flags.h"
#include "bench/harness.h"
#include "bench/impls.h"
#include "bench/plot.h"
#include "bench/report.h"
#include "bench/suites.h"
#include "bench/workload.h"

namespace sstfilter {
namespace bench {
namespace {

constexpr int kPlotFirstBits = 6;  // bits/key range of the FP sweep
constexpr int kPlotLastBits = 20;

// A false negative has its own status; options an implementation refuses
// (e.g. an fpp below what it can reach) are bad flags.
int Fail(const absl::Status& status) {
  std::cerr << "filter_bench: error: " << status.message() << "\n";
  switch (status.code()) {
    case absl::StatusCode::kDataLoss:
      return kFalseNegativeExit;
    case absl::StatusCode::kInvalidArgument:
      return kUsageExit;
    default:
      return kErrorExit;
  }
}

int Main(int argc, char** argv) {
  absl::StatusOr<Options> options = ParseCommandLine(argc, argv);
  if (!options.ok()) {
    std::cerr << "filter_bench: " << options.status().message() << "\n";
    return kUsageExit;
  }
  if (options->list) {
    std::cout << "implementations (--filter also takes any sstfilter spec):\n";
    for (const ImplEntry& entry : Registry()) {
      std::cout << absl::StrFormat("  %-26s %s\n", entry.name,
                                   entry.description);
    }
    std::cout << "workloads:\n";
    for (const WorkloadSpec& spec : AllWorkloads()) {
      std::cout << absl::StrFormat("  %-26s %s\n", spec.name, spec.description);
    }
    return 0;
  }

  const Progress progress = [](const std::string& line) {
    std::cerr << "filter_bench: " << line << std::endl;
  };
  progress(PeerVersions() + " (Debian's RocksDB is built without AVX2); " +
           MachineDescription());
  if (options->cases_from_suite) {
    progress(absl::StrFormat("suite %s (%s on 2 cores): %s",
                             options->suite->name, options->suite->duration,
                             DescribeCases(*options->suite)));
  }
  absl::StatusOr<std::vector<Row>> rows = RunBench(options->bench, progress);
  if (!rows.ok()) return Fail(rows.status());
  if (options->format == Format::kJson) {
    PrintJson(*rows, std::cout);
  } else {
    PrintTable(*rows, std::cout);
  }
  std::cout.flush();

  if (!options->plot.empty()) {
    // Under `bazel run` the process runs in its runfiles tree; a relative path
    // means the caller's directory.
    const char* caller_dir = std::getenv("BUILD_WORKING_DIRECTORY");
    if (options->plot[0] != '/' && caller_dir != nullptr) {
      options->plot = std::string(caller_dir) + "/" + options->plot;
    }
    const uint64_t keys = options->suite->plot_keys;
    absl::StatusOr<std::vector<FppSeries>> series =
        SweepFpp(options->bench, keys, kPlotFirstBits, kPlotLastBits, progress);
    if (!series.ok()) return Fail(series.status());
    absl::Status drawn = DrawFppPlot(*series, keys, options->plot);
    if (!drawn.ok()) return Fail(drawn);
    progress("wrote " + options->plot);
  }
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter

int main(int argc, char** argv) { return sstfilter::bench::Main(argc, argv); }
