// The steps of building a RocksDB 7.8.3 database that db_bench's trees
// (rocksdb_tree.h) and the integration tests' databases share: RocksDB's
// statuses as absl::Status, its integer properties, writing entries in
// batches without a write-ahead log, and waiting until no flush or compaction
// is left to run.

#ifndef SSTFILTER_BENCH_DB_ROCKSDB_BUILD_H_
#define SSTFILTER_BENCH_DB_ROCKSDB_BUILD_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/db.h"
#include "rocksdb/write_batch.h"

namespace sstfilter {
namespace bench {

// Entries per write batch.
constexpr size_t kRocksDbWriteBatchEntries = 1000;

// OK, or an InternalError of "what: RocksDB's message".
absl::Status FromRocksDb(const rocksdb::Status& status, absl::string_view what);

// The property's value; 0 when RocksDB has none of that name.
uint64_t RocksDbIntProperty(rocksdb::DB* db, const std::string& name);

// Writes entries [0, count), which put(i, batch) adds to batch, in batches of
// kRocksDbWriteBatchEntries without a write-ahead log (the databases are
// rebuilt or flushed before they close, never recovered).
absl::Status WriteRocksDbBatches(
    rocksdb::DB* db, uint64_t count,
    const std::function<void(uint64_t i, rocksdb::WriteBatch* batch)>& put);

// Waits until no flush or compaction is running or pending.
void WaitForRocksDbCompactions(rocksdb::DB* db);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DB_ROCKSDB_BUILD_H_
