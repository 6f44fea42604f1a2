#include "engines/rocksdb/rocksdb_range_filter.h"

#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "table/range_filter_key.h"

namespace sstfilter {
namespace {

// Builds one table's range filter from the user keys RocksDB adds.
class RangeFilterCollector final : public rocksdb::TablePropertiesCollector {
 public:
  explicit RangeFilterCollector(std::shared_ptr<const FilterPolicy> policy)
      : policy_(std::move(policy)), builder_(policy_->NewBuilder()) {}

  rocksdb::Status AddUserKey(const rocksdb::Slice& key,
                             const rocksdb::Slice& /*value*/,
                             rocksdb::EntryType /*type*/,
                             rocksdb::SequenceNumber /*seq*/,
                             uint64_t /*file_size*/) override {
    // Every entry type: a tombstone or merge operand in the range must keep
    // its table in the scan (a range deletion's start key comes here too;
    // RocksDB applies range deletions of skipped tables anyway).
    builder_->AddKey(absl::string_view(key.data(), key.size()));
    return rocksdb::Status::OK();
  }

  rocksdb::Status Finish(
      rocksdb::UserCollectedProperties* properties) override {
    std::string filter;
    builder_->Finish(&filter);
    properties->emplace(RangeFilterKey(policy_->Name()), std::move(filter));
    return rocksdb::Status::OK();
  }

  rocksdb::UserCollectedProperties GetReadableProperties() const override {
    return {};  // the filter's bytes are not for people
  }

  const char* Name() const override { return "sstfilter.RangeFilterCollector"; }

 private:
  const std::shared_ptr<const FilterPolicy> policy_;
  const std::unique_ptr<FilterBuilder> builder_;
};

class RangeFilterCollectorFactory final
    : public rocksdb::TablePropertiesCollectorFactory {
 public:
  explicit RangeFilterCollectorFactory(
      std::shared_ptr<const FilterPolicy> policy)
      : policy_(std::move(policy)) {}

  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context /*context*/) override {
    return new RangeFilterCollector(policy_);
  }

  const char* Name() const override {
    return "sstfilter.RangeFilterCollectorFactory";
  }

 private:
  const std::shared_ptr<const FilterPolicy> policy_;
};

// The tables whose version-2 filter passed its CRC check in this process,
// named by session and file number. Bounded: cleared when full, so a
// long-lived process re-verifies rather than grows. Every scan asks it once
// per table, from any number of threads, so readers share a std::shared_mutex:
// Debian's Abseil 20220623 is built without NDEBUG, and its absl::Mutex::Lock
// runs a deadlock check under one process-wide lock (20-50 ns more per call
// here, and contended across threads).
class VerifiedTables {
 public:
  static VerifiedTables& Get() {
    static VerifiedTables* const tables = new VerifiedTables();
    return *tables;
  }

  bool Contains(const std::string& table) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return tables_.count(table) > 0;
  }
  void Add(std::string table) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    if (tables_.size() >= kMaxVerifiedRangeFilterTables) tables_.clear();
    tables_.insert(std::move(table));
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_set<std::string> tables_;  // guarded by mutex_
};

// The parsed readers of the tables scanned last, by where their filter's
// bytes are. A reader views those bytes, so an entry serves only a call whose
// bytes sit at that address and belong to the same table (session, file
// number and property): the table's properties still loaded, and a table's
// bytes never change. A table loaded again elsewhere gets a new entry, and
// another table's bytes at an old address replace it. Bounded as
// VerifiedTables, at kMaxCachedRangeFilterReaders: a keyed filter's reader
// holds its coders.
class CachedReaders {
 public:
  static CachedReaders& Get() {
    static CachedReaders* const readers = new CachedReaders();
    return *readers;
  }

  std::shared_ptr<const RangeFilterReader> Find(
      const rocksdb::TableProperties& properties, const std::string& name,
      absl::string_view filter) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = readers_.find(filter.data());
    if (it == readers_.end() || !it->second.Serves(properties, name, filter)) {
      return nullptr;
    }
    return it->second.reader;
  }
  void Add(const rocksdb::TableProperties& properties, const std::string& name,
           absl::string_view filter,
           std::shared_ptr<const RangeFilterReader> reader) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    if (readers_.size() >= kMaxCachedRangeFilterReaders) readers_.clear();
    readers_[filter.data()] = {properties.db_session_id,
                               properties.orig_file_number, name, filter.size(),
                               std::move(reader)};
  }

 private:
  struct Entry {
    bool Serves(const rocksdb::TableProperties& properties,
                const std::string& property, absl::string_view filter) const {
      return size == filter.size() &&
             file_number == properties.orig_file_number &&
             session == properties.db_session_id && name == property;
    }
    std::string session;
    uint64_t file_number;
    std::string name;  // the filter's property
    size_t size;
    std::shared_ptr<const RangeFilterReader> reader;
  };
  mutable std::shared_mutex mutex_;
  std::unordered_map<const char*, Entry> readers_;  // guarded by mutex_
};

}  // namespace

absl::StatusOr<std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>>
NewRangeFilterCollectorFactory(const FilterOptions& options,
                               RangeKeyCoding coding) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewGrafiteFilterPolicy(options, coding);
  if (!policy.ok()) return policy.status();
  return std::make_shared<RangeFilterCollectorFactory>(
      std::shared_ptr<const FilterPolicy>(*std::move(policy)));
}

absl::StatusOr<std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>>
NewRangeFilterCollectorFactory(const FilterOptions& options) {
  return NewRangeFilterCollectorFactory(options, RangeKeyCoding::kFirst8Bytes);
}

bool TableMayHoldRange(const rocksdb::TableProperties& properties,
                       absl::string_view lower, absl::string_view upper) {
  for (const auto& [name, filter] : properties.user_collected_properties) {
    const absl::string_view format_name = RangeFilterFormatName(name);
    if (!IsRangeFilterFormat(format_name)) continue;
    // A table is one file of one session: its filter's bytes never change.
    const bool named = !properties.db_session_id.empty();
    if (named) {
      if (std::shared_ptr<const RangeFilterReader> reader =
              CachedReaders::Get().Find(properties, name, filter)) {
        return reader->RangeMayMatchBefore(lower, upper);
      }
    }
    // The name is built in a per-thread buffer: no allocation per call.
    thread_local std::string table;
    table.clear();
    absl::StrAppend(&table, properties.db_session_id, "/",
                    properties.orig_file_number, "/", name);
    if (!named || !VerifiedTables::Get().Contains(table)) {
      // The name says which version the bytes must be (a version-2 filter
      // cut below its trailer would otherwise read as an empty version 1).
      if (!VerifyRangeFilterFor(format_name, filter).ok()) {
        return true;  // damaged: read the table
      }
      if (named) VerifiedTables::Get().Add(table);
    }
    // Verified above, now or by an earlier call.
    std::shared_ptr<const RangeFilterReader> reader = NewRangeFilterReaderFor(
        format_name, filter, RangeFilterChecksum::kTrusted);
    if (named) CachedReaders::Get().Add(properties, name, filter, reader);
    return reader->RangeMayMatchBefore(lower, upper);
  }
  return true;  // no range filter this library reads
}

std::function<bool(const rocksdb::TableProperties&)> RangeTableFilter(
    std::string lower, std::string upper) {
  return [lower = std::move(lower), upper = std::move(upper)](
             const rocksdb::TableProperties& properties) {
    return TableMayHoldRange(properties, lower, upper);
  };
}

RangeScan::RangeScan(std::string lower, std::string upper,
                     const rocksdb::ReadOptions& base)
    : lower_(std::move(lower)),
      upper_(std::move(upper)),
      lower_slice_(lower_),
      upper_slice_(upper_),
      options_(base) {
  options_.iterate_lower_bound = &lower_slice_;
  options_.iterate_upper_bound = &upper_slice_;
  options_.table_filter = RangeTableFilter(lower_, upper_);
}

}  // namespace sstfilter
