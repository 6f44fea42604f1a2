#include "bench/db/rocksdb_build.h"

#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "rocksdb/options.h"

namespace sstfilter {
namespace bench {
namespace {

constexpr auto kCompactionPoll = std::chrono::milliseconds(200);

}  // namespace

absl::Status FromRocksDb(const rocksdb::Status& status,
                         absl::string_view what) {
  if (status.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(what, ": ", status.ToString()));
}

uint64_t RocksDbIntProperty(rocksdb::DB* db, const std::string& name) {
  uint64_t value = 0;
  db->GetIntProperty(name, &value);
  return value;
}

absl::Status WriteRocksDbBatches(
    rocksdb::DB* db, uint64_t count,
    const std::function<void(uint64_t i, rocksdb::WriteBatch* batch)>& put) {
  rocksdb::WriteOptions write_options;
  write_options.disableWAL = true;
  rocksdb::WriteBatch batch;
  for (uint64_t i = 0; i < count; ++i) {
    put(i, &batch);
    if (batch.Count() == kRocksDbWriteBatchEntries || i + 1 == count) {
      absl::Status status =
          FromRocksDb(db->Write(write_options, &batch), "write");
      if (!status.ok()) return status;
      batch.Clear();
    }
  }
  return absl::OkStatus();
}

void WaitForRocksDbCompactions(rocksdb::DB* db) {
  while (RocksDbIntProperty(db, "rocksdb.compaction-pending") != 0 ||
         RocksDbIntProperty(db, "rocksdb.num-running-compactions") != 0 ||
         RocksDbIntProperty(db, "rocksdb.num-running-flushes") != 0 ||
         RocksDbIntProperty(db, "rocksdb.mem-table-flush-pending") != 0) {
    std::this_thread::sleep_for(kCompactionPoll);
  }
}

}  // namespace bench
}  // namespace sstfilter
