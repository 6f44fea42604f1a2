// The RocksDB 7.8.3 trees db_bench builds: one shape for every database (the
// point-lookup configurations of rocksdb_store.h and the partitioned-filter
// and prefix-seek sections), its keys written in index order, and every flush
// and compaction done before any lookup. A RocksDbTree is such a database,
// reopened for lookups; it removes itself from disk when it goes.

#ifndef SSTFILTER_BENCH_DB_ROCKSDB_TREE_H_
#define SSTFILTER_BENCH_DB_ROCKSDB_TREE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/db/db_store.h"
#include "bench/db/rocksdb_build.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace bench {

// The tree's shape: memtables and tables of DbShape::rocksdb_table_bytes
// (1 MB by default), levels a 10x fan-out apart sized from the last one up, so
// that 10^7 keys (about 250 MB of tables) fill the last three of 7 levels. L0
// is compacted when it holds 4 tables (RocksDB's default
// level0_file_num_compaction_trigger) into a base level of at most that size,
// the proportion of RocksDB's defaults (64 MB memtables, 256 MB base level): a
// smaller base level would have RocksDB compact L0 by its size after a single
// flush. Tables of 256 KB put the same keys in four levels below L0.
constexpr int kRocksDbNumLevels = 7;
constexpr int kRocksDbL0CompactionTrigger = 4;
constexpr int kRocksDbFanOut = 10;

// Writes key `index` of a database's key set to buf (at least kMaxKeyBytes
// bytes, bench/keys.h); returns its length. Distinct indexes give distinct
// keys.
using KeyMaker = size_t (*)(uint64_t index, char* buf);

// Options for the tree's shape with tables of table_bytes, with statistics,
// and a block-based table factory of `table`.
rocksdb::Options RocksDbTreeOptions(
    const rocksdb::BlockBasedTableOptions& table, size_t table_bytes);

// Writes keys [first, first + count) of make_key with value_bytes-byte
// values, in batches, without a write-ahead log (the databases are rebuilt,
// never recovered).
absl::Status WriteRocksDbKeys(rocksdb::DB* db, KeyMaker make_key,
                              uint64_t first, uint64_t count,
                              size_t value_bytes);

// What to build: a configuration's name (also its directory under
// DbShape::dir), its filter as the report names it, its keys, the options it
// is built with and those it is reopened with for lookups (the same tree
// options; the table options may differ, e.g. a smaller block cache).
// REQUIRES: build and reopen share no Statistics object (RocksDbTree::Ticker
// counts from the reopen), as two calls of RocksDbTreeOptions give.
// With one_level, the tree is built as one sorted run in the last level
// instead of settled (below).
struct RocksDbTreeSpec {
  std::string name;
  std::string filter;
  KeyMaker make_key = nullptr;
  rocksdb::Options build;
  rocksdb::Options reopen;
  bool one_level = false;
  // Tells apart the databases of configurations of one name within a
  // section (a prefix filter holding prefixes or keys and prefixes).
  std::string variant = {};
};

class RocksDbTree {
 public:
  // Writes keys [0, shape.keys) of spec.make_key and reopens the database
  // settled: every background compaction done, and L0 compacted too, so that
  // the configurations' trees have about the same shape (how many tables
  // the level above the last holds still depends on the timing of
  // compactions). With spec.one_level, the keys are flushed into L0 with
  // automatic compactions off and then compacted together into the last
  // level: every configuration's tree is the same, and a lookup asks one
  // table. *result gets what was built: everything but lookup figures.
  // Errors name spec.name; nothing is left on disk after one.
  static absl::StatusOr<std::unique_ptr<RocksDbTree>> Build(
      const RocksDbTreeSpec& spec, const DbShape& shape,
      const Progress& progress, DbResult* result);

  ~RocksDbTree();
  RocksDbTree(const RocksDbTree&) = delete;
  RocksDbTree& operator=(const RocksDbTree&) = delete;

  // Null after Close.
  rocksdb::DB* db() const { return db_.get(); }
  // The database's directory.
  const std::string& path() const { return path_; }
  // The options it was reopened with, its Statistics object among them.
  const rocksdb::Options& options() const { return options_; }
  // RocksDB's running count of ticker, since the reopen.
  uint64_t Ticker(rocksdb::Tickers ticker) const;

  // Files, keys and filter bits by level, and the filter bytes of every
  // table, from the tables' properties as they are now.
  void Describe(DbResult* result) const;

  // Every table's bytes of data blocks, and of filter and index blocks.
  struct BlockBytes {
    uint64_t data = 0;
    uint64_t filter_and_index = 0;
  };
  BlockBytes Bytes() const;

  // Closes the database and opens it again with `options` (the tree's
  // options as RocksDbTreeOptions gives them, with a Statistics object of
  // their own). On an error the tree is closed and only the destructor may
  // be called.
  absl::Status Reopen(rocksdb::Options options);

  // Closes the database and leaves it on disk until the tree goes, so that
  // another handle (a wrapper of rocksdb::DB) may open it. Only Reopen and
  // path() may follow.
  absl::Status Close();

 private:
  RocksDbTree(std::string path, rocksdb::Options options,
              std::unique_ptr<rocksdb::DB> db);

  const std::string path_;
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
};

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_ROCKSDB_TREE_H_
