// Timing point lookups the same way in every store: fresh keys for every
// repetition (never a small repeated set, which the branch predictor and the
// caches would learn), the same keys for every configuration, and the data
// blocks read counted by the store's own counter.

#ifndef SSTFILTER_BENCH_DB_LOOKUPS_H_
#define SSTFILTER_BENCH_DB_LOOKUPS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/db/db_store.h"

namespace sstfilter {
namespace bench {

enum class LookupKind {
  kAbsent,   // keys never written
  kPresent,  // keys drawn uniformly from the written ones
};

// A built database, reopened and ready for lookups. Closing it (the
// destructor) removes it from disk.
class OpenDb {
 public:
  virtual ~OpenDb() = default;
  // Looks a key up; returns whether it was found.
  virtual bool Lookup(absl::string_view key) = 0;
  // The store's running count of data blocks read from table files.
  virtual uint64_t DataReads() = 0;
  // Moves the database from the settled tree to kRecentFlushesTree: writes
  // keys past shape.keys, flushes them into L0, and updates result. Stores
  // without that state return UnimplementedError.
  virtual absl::Status AddRecentFlushes(const DbShape& shape) {
    (void)shape;
    return absl::UnimplementedError("only the settled tree");
  }
  // Reopens the database as DirectReadFigures describes, filling in
  // everything but the lookup figures; ReopenBuffered reopens it as it was
  // built to be read. Stores without that mode return UnimplementedError.
  virtual absl::StatusOr<DirectReadFigures> ReopenWithDirectReads(
      const DbShape& shape) {
    (void)shape;
    return absl::UnimplementedError("no direct reads");
  }
  virtual absl::Status ReopenBuffered(const DbShape& shape) {
    (void)shape;
    return absl::UnimplementedError("no direct reads");
  }
  // The store's running count of filter and index blocks read from table
  // files (0 where they never are).
  virtual uint64_t MetadataReads() { return 0; }
  // What was built: everything but the lookup figures.
  DbResult result;
};

// Writes query number `draw` of one kind to buf (at least kMaxKeyBytes
// bytes, bench/keys.h) for a database of num_keys keys; returns its length.
// Each draw is a fresh query of that kind (for present keys, a fresh draw of
// a written key).
using QueryMaker = size_t (*)(uint64_t draw, uint64_t num_keys, char* buf);

// Key `index` of the databases of rocksdb_store.h and leveldb_store.h:
// KeyKind::kRandom16.
size_t Random16Key(uint64_t index, char* buf);

// Queries of kind among KeyKind::kRandom16 keys, the keys of the databases
// of rocksdb_store.h and leveldb_store.h.
QueryMaker Random16Query(LookupKind kind);

// Asks a range of queries that no timed repetition asks: opens what a store
// opens lazily and fills its caches as a running store's are.
void WarmUp(QueryMaker make_query, const DbShape& shape, OpenDb* db);
void WarmUp(LookupKind kind, const DbShape& shape, OpenDb* db);

// One timed repetition: shape.lookups queries, the same ones for every
// database and fresh ones for every rep.
struct RepFigures {
  double lookups_per_second = 0;
  double data_reads_per_lookup = 0;
  uint64_t found = 0;
};
RepFigures TimeRep(QueryMaker make_query, int rep, const DbShape& shape,
                   OpenDb* db);
RepFigures TimeRep(LookupKind kind, int rep, const DbShape& shape, OpenDb* db);

// The median repetition's figures, with the totals.
LookupFigures Summarize(const std::vector<RepFigures>& reps,
                        uint64_t lookups_per_rep);

// The figures of a database just built, before Describe fills in its levels
// and filter bytes.
DbResult BuiltResult(const char* store, const std::string& config,
                     const std::string& filter, const DbShape& shape,
                     double build_seconds);

// Derives bits/key from the filter bytes Describe found, and reports the
// build on progress.
void FinishBuiltResult(const Progress& progress, DbResult* result);

// Seconds from start to now.
double SecondsSince(std::chrono::steady_clock::time_point start);

// a's rate over b's for a ratio line: "1.012 (median of 9 per-repetition
// ratios; ratio of the medians 0.998)" when both have rates of the same
// repetitions, else the ratio of the medians alone. REQUIRES: b_median > 0.
std::string FormatRateRatio(double a_median, const std::vector<double>& a_rates,
                            double b_median,
                            const std::vector<double>& b_rates);

// "3 4 12 41": files in each level from L0.
std::string FormatLevels(const std::vector<int>& files_per_level);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_LOOKUPS_H_
