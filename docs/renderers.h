// One markdown renderer per kind of benchmark JSON under docs/results/, which
// results_table.h's blocks name by kind: filter_bench (its --format=json rows
// and RUN.run.json beside them; options about, impls=a,b), redis_bench (its
// --json object; option readme), range_bench and range_shapes (their --json
// objects), db_point, db_partitioned, range_db and presence (db_bench's
// --format=json rows of those sections), mutable_bench (its --format=json
// rows) and google_benchmark (a Google Benchmark program's
// --benchmark_format=json). Each prints what a page shows, reading
// older files leniently; docs/results.md describes the blocks.

#ifndef SSTFILTER_DOCS_RENDERERS_H_
#define SSTFILTER_DOCS_RENDERERS_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace docs {

// Reads a file by its path: its contents, or NotFoundError naming it.
using FileReader =
    std::function<absl::StatusOr<std::string>(const std::string& path)>;

// A renderer: the markdown of the JSON file at json_path, read through read,
// with a block's options. InvalidArgumentError for an option it does not
// take or JSON it cannot print.
using Renderer = std::function<absl::StatusOr<std::string>(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read)>;

// filter_bench: a line naming the command and the machine, then the table
// (ratios to RocksDB's and LevelDB's filters in the same case). Reads
// json_path and, for that command and machine, its .run.json beside it
// (RUN.json, RUN.run.json).
absl::StatusOr<std::string> RenderFilterBench(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);

struct FilterBenchOptions {
  bool about_only = false;         // print the command and the machine only
  std::vector<std::string> impls;  // rows to print; empty: every row
  // The two implementations the ÷ columns divide by; empty: RocksDB's and
  // LevelDB's Bloom filters (kRocksDbBloomPeer, kLevelDbBloomPeer).
  std::vector<std::string> against;
};

// RenderFilterBench's markdown from the two files' text. InvalidArgumentError
// for a line that is not a JSON object, a row without "impl", "workload" or
// "keys", no rows, or an about without "command" and "machine".
absl::StatusOr<std::string> FilterBenchTable(absl::string_view rows_json,
                                             absl::string_view about_json,
                                             const FilterBenchOptions& options);

// redis_bench: one table per key count and the ratios of sstfilter to the
// others; with the option readme, engines/redis/README.md's shorter table of
// every key count. A figure missing from the file prints as "–".
absl::StatusOr<std::string> RenderRedisBench(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);
std::string RedisBenchTable(const nlohmann::json& out);
std::string RedisReadmeTable(const nlohmann::json& out);

// range_bench: false-positive rates of empty ranges against the proven bound
// and a prefix Bloom filter, the sampled counts' furthest excess over the
// bound, and build and query times.
absl::StatusOr<std::string> RenderRangeBench(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);
std::string RangeBenchTables(const nlohmann::json& result);

// range_shapes: range_shapes_bench's rates of empty ranges per key shape and
// filter, against the proven bound.
absl::StatusOr<std::string> RenderRangeShapes(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);
std::string RangeShapesTable(const nlohmann::json& result);

// range_db: db_bench's range rows (other sections' rows are skipped), one
// table per run (a RocksDB release): per key shape and configuration, the
// data blocks read per empty scan against no filter and RocksDB's prefix
// Bloom filter, and scans per second.
absl::StatusOr<std::string> RenderRangeDb(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);

// db_point: db_bench's point rows, one table per run (a RocksDB release;
// runs follow each other in the file): per configuration and tree, absent
// lookups/s and data reads per absent lookup over RocksDB's Bloom filter's and
// Ribbon hybrid's in the same run and tree, and present lookups/s; then the
// same with direct reads, for runs that measured them; then LevelDB's rows,
// when the run has them, over LevelDB's Bloom filter's. db_levels: the point
// rows' bits/key by level. db_partitioned: the partitioned rows, absent
// lookups/s and filter bytes inserted into the block cache over RocksDB's
// Bloom filter's. db_prefix: the prefix rows, absent seeks/s over no
// filter's. Each: InvalidArgumentError for a row lacking a field.
absl::StatusOr<std::string> RenderDbLevels(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);
absl::StatusOr<std::string> RenderDbPrefix(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);
absl::StatusOr<std::string> RenderDbPoint(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);
absl::StatusOr<std::string> RenderDbPartitioned(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);

// presence: db_bench's presence rows (other sections' rows are skipped), one
// group of tables per key count in the order the rows come; the mixed sweep's
// table only of rows that have one (rows written before the sweep existed
// have none). InvalidArgumentError for a row lacking a field.
absl::StatusOr<std::string> RenderPresence(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);

// mutable_bench: per key count, the mutable Bloom filter's add and query
// costs beside the native filter of the same keys, then its ratios to them
// and its adds per second. InvalidArgumentError for a row lacking a field.
absl::StatusOr<std::string> RenderMutableBench(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);

// google_benchmark: the medians of --benchmark_repetitions=N, a row per
// benchmark function and a column per argument (with the option labels: a
// table per function of its cases by label, with GB/s where the program
// counted bytes), and the machine and CPU its custom context names.
// InvalidArgumentError for a file without medians or without that context.
absl::StatusOr<std::string> RenderGoogleBenchmark(
    const std::string& json_path, const std::vector<std::string>& options,
    const FileReader& read);

}  // namespace docs
}  // namespace sstfilter

#endif  // SSTFILTER_DOCS_RENDERERS_H_
