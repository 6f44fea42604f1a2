#include "bench/db/lookups.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/keys.h"
#include "util/medians.h"

namespace sstfilter {
namespace bench {
namespace {

// Warm-up lookups use the keys past every timed repetition's.
constexpr uint64_t kWarmupOffset = 50'000'000'000;
constexpr uint64_t kMaxWarmupLookups = 50'000;
// Present keys are drawn by mixing a counter: a different stream from the one
// that wrote them.
constexpr uint64_t kPresentDrawSalt = 0x2545f4914f6cdd1dULL;

size_t AbsentRandom16(uint64_t draw, uint64_t /*num_keys*/, char* buf) {
  return Random16Key(kAbsentBase + draw, buf);
}

size_t PresentRandom16(uint64_t draw, uint64_t num_keys, char* buf) {
  return Random16Key(Mix64(draw ^ kPresentDrawSalt) % num_keys, buf);
}

}  // namespace

DbResult BuiltResult(const char* store, const std::string& config,
                     const std::string& filter, const DbShape& shape,
                     double build_seconds) {
  DbResult result;
  result.store = store;
  result.config = config;
  result.filter = filter;
  result.keys = shape.keys;
  result.build_seconds = build_seconds;
  return result;
}

void FinishBuiltResult(const Progress& progress, DbResult* result) {
  result->bits_per_key = 8.0 * static_cast<double>(result->filter_bytes) /
                         static_cast<double>(result->keys);
  progress(absl::StrFormat("%s: built in %.0f s, %s files by level",
                           result->config, result->build_seconds,
                           FormatLevels(result->files_per_level)));
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

std::string FormatRateRatio(double a_median, const std::vector<double>& a_rates,
                            double b_median,
                            const std::vector<double>& b_rates) {
  const double medians = a_median / b_median;
  const double paired = MedianOfRatios(a_rates, b_rates);
  if (paired == 0) return absl::StrFormat("%.3f", medians);
  return absl::StrFormat(
      "%.3f (median of %d per-repetition ratios; ratio of the medians %.3f)",
      paired, a_rates.size(), medians);
}

size_t Random16Key(uint64_t index, char* buf) {
  return MakeKey(KeyKind::kRandom16, index, buf);
}

QueryMaker Random16Query(LookupKind kind) {
  return kind == LookupKind::kAbsent ? AbsentRandom16 : PresentRandom16;
}

void WarmUp(QueryMaker make_query, const DbShape& shape, OpenDb* db) {
  char key[kMaxKeyBytes];
  const uint64_t warmup = std::min(shape.lookups, kMaxWarmupLookups);
  for (uint64_t i = 0; i < warmup; ++i) {
    const size_t len = make_query(kWarmupOffset + i, shape.keys, key);
    db->Lookup(absl::string_view(key, len));
  }
}

void WarmUp(LookupKind kind, const DbShape& shape, OpenDb* db) {
  WarmUp(Random16Query(kind), shape, db);
}

RepFigures TimeRep(QueryMaker make_query, int rep, const DbShape& shape,
                   OpenDb* db) {
  char key[kMaxKeyBytes];
  const uint64_t first = static_cast<uint64_t>(rep) * shape.lookups;
  const uint64_t reads_before = db->DataReads();
  RepFigures figures;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < shape.lookups; ++i) {
    const size_t len = make_query(first + i, shape.keys, key);
    figures.found += db->Lookup(absl::string_view(key, len));
  }
  const double seconds = SecondsSince(start);
  const double n = static_cast<double>(shape.lookups);
  figures.lookups_per_second = n / seconds;
  figures.data_reads_per_lookup =
      static_cast<double>(db->DataReads() - reads_before) / n;
  return figures;
}

RepFigures TimeRep(LookupKind kind, int rep, const DbShape& shape, OpenDb* db) {
  return TimeRep(Random16Query(kind), rep, shape, db);
}

LookupFigures Summarize(const std::vector<RepFigures>& reps,
                        uint64_t lookups_per_rep) {
  LookupFigures figures;
  std::vector<double> rates;
  std::vector<double> reads;
  for (const RepFigures& rep : reps) {
    rates.push_back(rep.lookups_per_second);
    reads.push_back(rep.data_reads_per_lookup);
    figures.found += rep.found;
    figures.lookups += lookups_per_rep;
  }
  figures.lookups_per_second = LowerMedian(rates);
  figures.data_reads_per_lookup = LowerMedian(reads);
  figures.rates = std::move(rates);
  return figures;
}

std::string FormatLevels(const std::vector<int>& files_per_level) {
  return absl::StrJoin(files_per_level, " ");
}

}  // namespace bench
}  // namespace sstfilter
