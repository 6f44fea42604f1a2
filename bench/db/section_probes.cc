#include "bench/db/section_probes.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bench/turns.h"
#include "util/medians.h"

namespace sstfilter {
namespace bench {
namespace {

// Figures of one database's repetitions, before the medians.
struct Reps {
  std::vector<double> per_second;
  std::vector<double> data_reads;
  std::vector<std::vector<double>> tickers;  // [ticker][rep]
  uint64_t found = 0;
};

}  // namespace

absl::StatusOr<std::vector<ProbeFigures>> MeasureAbsentProbes(
    QueryMaker make_query, const std::vector<rocksdb::Tickers>& tickers,
    const DbShape& shape, const std::vector<SectionDb*>& dbs,
    const Progress& progress) {
  progress("warming up every database");
  for (SectionDb* db : dbs) WarmUp(make_query, shape, db);
  std::vector<Reps> reps(dbs.size());
  for (Reps& r : reps) r.tickers.resize(tickers.size());
  const double n = static_cast<double>(shape.lookups);
  for (int rep = 0; rep < shape.reps; ++rep) {
    progress(absl::StrFormat("repetition %d of %d", rep + 1, shape.reps));
    for (size_t turn = 0; turn < dbs.size(); ++turn) {
      const size_t i = TurnOf(rep, turn, dbs.size());
      // The tickers are read outside the timed loop; nothing else runs on the
      // database (every compaction finished before it was reopened).
      std::vector<uint64_t> before;
      for (rocksdb::Tickers t : tickers) {
        before.push_back(dbs[i]->tree().Ticker(t));
      }
      const RepFigures figures = TimeRep(make_query, rep, shape, dbs[i]);
      for (size_t t = 0; t < tickers.size(); ++t) {
        reps[i].tickers[t].push_back(
            static_cast<double>(dbs[i]->tree().Ticker(tickers[t]) - before[t]) /
            n);
      }
      reps[i].per_second.push_back(figures.lookups_per_second);
      reps[i].data_reads.push_back(figures.data_reads_per_lookup);
      reps[i].found += figures.found;
    }
  }
  std::vector<ProbeFigures> results;
  for (size_t i = 0; i < dbs.size(); ++i) {
    const std::string& config = dbs[i]->result.config;
    if (reps[i].found != 0) {
      return absl::InternalError(absl::StrFormat(
          "%s: %d absent queries found something", config, reps[i].found));
    }
    if (dbs[i]->errors() != 0) {
      return absl::InternalError(
          absl::StrFormat("%s: RocksDB answered %d probes with an error",
                          config, dbs[i]->errors()));
    }
    ProbeFigures figures;
    figures.per_second = LowerMedian(reps[i].per_second);
    figures.data_reads = LowerMedian(reps[i].data_reads);
    for (const std::vector<double>& ticker : reps[i].tickers) {
      figures.tickers.push_back(LowerMedian(ticker));
    }
    figures.found = reps[i].found;
    figures.probes = shape.lookups * static_cast<uint64_t>(shape.reps);
    figures.rates = reps[i].per_second;
    results.push_back(std::move(figures));
  }
  return results;
}

}  // namespace bench
}  // namespace sstfilter
