#include "bench/plot.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "bench/impls.h"
#include "filter/spec_list.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bench {
namespace {

constexpr int kCacheLocalBlockBits = 512;  // one 64-byte cache line
constexpr double kCurveStep = 0.25;  // bits/key between points of the curves

// The lowest FP rate any k reaches at c bits/key.
template <typename F>
double BestOverK(F fpp_of_k) {
  double best = 1.0;
  for (int k = kMinProbes; k <= kMaxProbes; ++k)
    best = std::min(best, fpp_of_k(k));
  return best;
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace

std::string FppPlotScript(const std::vector<FppSeries>& series, uint64_t keys,
                          const std::string& data_path,
                          const std::string& png_path,
                          const std::string& terminal) {
  std::string script = absl::StrFormat(
      "set terminal %s noenhanced size 1000,700\n"
      "set output %s\n"
      "set title 'False-positive rate against bits/key stored (%d random "
      "16-byte keys)'\n"
      "set xlabel 'bits/key stored (trailer included)'\n"
      "set ylabel 'false-positive rate'\n"
      "set logscale y\n"
      "set format y '%%.0e'\n"
      "set grid\n"
      "set key top right\n"
      "plot ",
      terminal, ShellQuote(png_path), keys);
  // Index 0 of the data file: the theoretical curves; then one index per
  // implementation.
  script += absl::StrFormat(
      "%s index 0 using 1:2 with lines lw 2 dt 2 title 'standard Bloom, best "
      "k', "
      "%s index 0 using 1:3 with lines lw 2 dt 3 title 'cache-local 512-bit "
      "Bloom, best k', "
      "%s index 0 using 1:4 with lines lw 2 dt 4 title 'information-theoretic "
      "floor, 2^-bits'",
      ShellQuote(data_path), ShellQuote(data_path), ShellQuote(data_path));
  // sstfilter's series get large open markers, peers small filled ones, so
  // that series with identical points (leveldb and lib:leveldb.bloom) both
  // show.
  constexpr int kOpenMarkers[] = {6, 4, 8, 12, 10, 14};
  constexpr int kFilledMarkers[] = {7, 5, 9, 13, 11, 15};
  size_t open = 0;
  size_t filled = 0;
  for (size_t i = 0; i < series.size(); ++i) {
    const bool ours = !IsPeerName(series[i].impl);
    const int marker =
        ours ? kOpenMarkers[open++ % 6] : kFilledMarkers[filled++ % 6];
    script += absl::StrFormat(
        ", %s index %d using 2:3 with linespoints pt %d ps %s lw %d title '%s'",
        ShellQuote(data_path), i + 1, marker, ours ? "2.2" : "1.2",
        ours ? 2 : 1, series[i].impl);
  }
  return script + "\n";
}

absl::Status DrawFppPlot(const std::vector<FppSeries>& series, uint64_t keys,
                         const std::string& png_path) {
  // Data and script go to a scratch directory, removed once the PNG is drawn.
  const char* tmp = std::getenv("TMPDIR");
  std::string scratch =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
      "/filter_bench_plot.XXXXXX";
  if (mkdtemp(&scratch[0]) == nullptr) {
    return absl::InternalError("cannot create a directory like " + scratch);
  }
  const std::string data_path = scratch + "/fpp.dat";
  const std::string script_path = scratch + "/fpp.gp";
  const std::string log_path = scratch + "/gnuplot.log";
  {
    std::ofstream data(data_path);
    // The floor: no filter of c bits/key has a rate below 2^-c.
    data << "# bits/key  standard_bloom  cache_local_512  floor\n";
    for (double c = 6.0; c <= 20.0 + 1e-9; c += kCurveStep) {
      data << absl::StrFormat(
          "%.2f %.6g %.6g %.6g\n", c,
          BestOverK([c](int k) { return StandardBloomFpp(c, k); }),
          BestOverK([c](int k) {
            return CacheLocalBloomFpp(c, k, kCacheLocalBlockBits);
          }),
          std::exp2(-c));
    }
    for (const FppSeries& s : series) {
      data << "\n\n# " << s.impl << ": bits/key configured, stored, FP rate\n";
      for (const FppPoint& p : s.points) {
        // Log scale: a measured 0 is drawn at the resolution limit instead of
        // vanishing.
        data << absl::StrFormat("%.3f %.4f %.6g\n", p.bits_per_key_config,
                                p.bits_per_key, std::max(p.fp_rate, 1e-7));
      }
    }
    if (!data) return absl::InternalError("cannot write " + data_path);
  }
  // pngcairo draws smoother lines; fall back to the plain png terminal without
  // cairo.
  for (const char* terminal : {"pngcairo", "png"}) {
    std::ofstream script(script_path);
    script << FppPlotScript(series, keys, data_path, png_path, terminal);
    script.close();
    std::remove(png_path.c_str());
    const std::string command =
        "gnuplot " + ShellQuote(script_path) + " 2>" + ShellQuote(log_path);
    const int rc = std::system(command.c_str());
    struct stat st;
    if (rc == 0 && stat(png_path.c_str(), &st) == 0 && st.st_size > 0) {
      for (const std::string& path : {data_path, script_path, log_path}) {
        std::remove(path.c_str());
      }
      rmdir(scratch.c_str());
      return absl::OkStatus();
    }
  }
  return absl::InternalError(
      absl::StrFormat("gnuplot did not write %s (is gnuplot installed? see %s)",
                      png_path, log_path));
}

}  // namespace bench
}  // namespace sstfilter
