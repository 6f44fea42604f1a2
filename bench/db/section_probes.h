// What db_bench's partitioned-filter and prefix-seek sections share: a
// RocksDB tree (rocksdb_tree.h) probed with absent queries only (keys or
// prefixes never written), timed as the point lookups are (lookups.h: fresh
// queries every repetition, every database in turn within a repetition, in an
// order rotated each repetition: bench/turns.h), and
// besides the rate and the data-block reads, the RocksDB tickers each probe
// moves.

#ifndef SSTFILTER_BENCH_DB_SECTION_PROBES_H_
#define SSTFILTER_BENCH_DB_SECTION_PROBES_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/db/db_store.h"
#include "bench/db/lookups.h"
#include "bench/db/rocksdb_tree.h"
#include "rocksdb/statistics.h"

namespace sstfilter {
namespace bench {

// A section's database. Lookup is the section's probe; DataReads counts
// RocksDB's BLOCK_CACHE_DATA_MISS, data blocks not found in the block cache
// and so read from the table file.
class SectionDb : public OpenDb {
 public:
  explicit SectionDb(std::unique_ptr<RocksDbTree> tree)
      : tree_(std::move(tree)) {}

  uint64_t DataReads() override {
    return tree_->Ticker(rocksdb::BLOCK_CACHE_DATA_MISS);
  }
  RocksDbTree& tree() { return *tree_; }
  // Probes RocksDB answered with an error rather than found or not found.
  uint64_t errors() const { return errors_; }

 protected:
  void CountError() { ++errors_; }

 private:
  const std::unique_ptr<RocksDbTree> tree_;
  uint64_t errors_ = 0;
};

// The median repetition's figures for one database: each figure the median
// of its own (the rate of one repetition, the reads of another).
struct ProbeFigures {
  double per_second = 0;
  double data_reads = 0;        // per probe
  std::vector<double> tickers;  // per probe, in the order asked for
  uint64_t found = 0;           // over all repetitions
  uint64_t probes = 0;          // over all repetitions
  // Probes per second of each repetition, in repetition order: the
  // section's databases pair up by index (MedianOfRatios, util/medians.h).
  std::vector<double> rates;
};

// Warms every database up, then times shape.reps repetitions of shape.lookups
// absent probes of make_query against each database in turn (bench/turns.h). A
// probe that finds something, or that RocksDB answers with an error, makes it
// an InternalError naming the database: absent queries are absent for certain.
absl::StatusOr<std::vector<ProbeFigures>> MeasureAbsentProbes(
    QueryMaker make_query, const std::vector<rocksdb::Tickers>& tickers,
    const DbShape& shape, const std::vector<SectionDb*>& dbs,
    const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_SECTION_PROBES_H_
