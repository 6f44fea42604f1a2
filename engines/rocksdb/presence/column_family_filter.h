// One column family's filters: the one lookups probe (serving) and the one a
// recovery or rebuild is filling (building). Writes add to both; a lookup
// probes only the serving one, and none while a recovery runs. The background
// thread (rebuilds.h) swaps them under the writers lock and frees a replaced
// filter only after ReadEpochs says no lookup can still be probing it.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_COLUMN_FAMILY_FILTER_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_COLUMN_FAMILY_FILTER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engines/rocksdb/presence/key_alphabets.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/types.h"

namespace sstfilter {
namespace presence_internal {

// The prefix extractor whose prefixes a filter holds beside its keys
// (PresenceFilterOptions::filter_prefix_seeks), and the column family's
// prefix generation (ColumnFamilyFilter::prefix_generation) it was read at.
// A null extractor: the filter holds keys only.
struct PrefixItems {
  std::shared_ptr<const rocksdb::SliceTransform> extractor;
  uint64_t generation = 0;
  // The extractor's AsString(), saved with the filter; empty for none.
  std::string Name() const;
};

// A filter and the oldest snapshot it answers for.
struct PresenceFilter {
  // REQUIRES: filter tracks its changes (MutableBloomFilter::TrackChanges),
  // for the saves that write only those.
  // range_items: the filter also holds each key's range items
  // (range_items.h; PresenceFilterOptions::filter_range_seeks).
  PresenceFilter(MutableBloomFilter filter, PrefixItems prefix_items,
                 bool range_items)
      : keys(std::move(filter)),
        prefixes(std::move(prefix_items)),
        alphabets(range_items ? std::make_unique<KeyAlphabets>() : nullptr) {}

  // Adds each key, its prefix under prefixes.extractor when the key is in
  // the extractor's domain (a prefix is hashed as a key would be: a lookup
  // of a key that is another key's prefix may then go to RocksDB), and its
  // range items when the filter holds them. REQUIRES: one adder at a time
  // (MutableBloomFilter::AddSingleWriter).
  void AddSingleWriter(absl::string_view key);
  void AddSingleWriter(absl::Span<const absl::string_view> batch);

  MutableBloomFilter keys;
  const PrefixItems prefixes;
  // The alphabets of a filter holding range items, whose run members are in
  // keys' bits; null for none.
  const std::unique_ptr<KeyAlphabets> alphabets;
  // Unique among a process's filters: a save tells by it whether the filter
  // it saved in full still serves.
  const uint64_t serial = NextSerial();
  // A rebuild lacks keys whose value and deletion share one table, which a
  // snapshot older than that deletion still sees: lookups at snapshots older
  // than this (the latest sequence number once the tables were listed) go to
  // RocksDB.
  rocksdb::SequenceNumber oldest_snapshot = 0;

 private:
  static uint64_t NextSerial() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
};

class ColumnFamilyFilter {
 public:
  ColumnFamilyFilter(uint32_t id, std::string name)
      : id_(id), name_(std::move(name)) {}

  uint32_t id() const { return id_; }
  const std::string& name() const { return name_; }

  // The filter lookups probe, or null while recovering or after
  // StopServing. Load it inside a ReadEpochs::Guard and use it only until
  // the guard ends.
  const PresenceFilter* serving() const {
    return serving_.load(std::memory_order_seq_cst);
  }
  // Lookups stop probing the serving filter (writes still reach it) until
  // PromoteBuilding publishes a new one, and a rebuild under way when this
  // is called must not promote (LacksKeysSince). Any thread.
  void StopServing() {
    lacks_keys_count_.fetch_add(1, std::memory_order_seq_cst);
    serving_.store(nullptr, std::memory_order_seq_cst);
  }
  // How often StopServing was called; a rebuild reads it under the writers
  // lock, exclusive (no write in flight), before it lists the tables, and
  // promotes only if it is unchanged.
  uint64_t lacks_keys_count() const {
    return lacks_keys_count_.load(std::memory_order_seq_cst);
  }

  // Adds keys to every filter a write must reach. REQUIRES: the writers lock,
  // shared or exclusive.
  //
  // Adds to this column family's filters take turns (adds_mutex_), so that
  // each sets its bits with plain read-modify-writes
  // (MutableBloomFilter::AddSingleWriter): one locked instruction per call
  // instead of one per changed word of every key. Lookups read the words
  // meanwhile, as AddSingleWriter allows.
  void Add(absl::string_view key) {
    std::lock_guard<std::mutex> one_adder(adds_mutex_);
    if (serving_owned_ != nullptr) serving_owned_->AddSingleWriter(key);
    if (building_ != nullptr) building_->AddSingleWriter(key);
  }
  void Add(absl::Span<const absl::string_view> keys) {
    std::lock_guard<std::mutex> one_adder(adds_mutex_);
    if (serving_owned_ != nullptr) serving_owned_->AddSingleWriter(keys);
    if (building_ != nullptr) building_->AddSingleWriter(keys);
  }
  // Adds keys to target, one of this column family's filters (a scan filling
  // it), taking turns with the other adds. REQUIRES: target is alive.
  void AddTo(PresenceFilter* target, absl::Span<const absl::string_view> keys) {
    std::lock_guard<std::mutex> one_adder(adds_mutex_);
    target->AddSingleWriter(keys);
  }

  // Counts SetOptions calls that name prefix_extractor: odd while one runs
  // (BeginPrefixChange before RocksDB's SetOptions, EndPrefixChange after).
  // A filter's prefixes answer only while this equals the generation they
  // were read at, so no prefix seek is answered with an extractor other than
  // the one RocksDB's iterator would use. Any thread.
  uint64_t prefix_generation() const {
    return prefix_generation_.load(std::memory_order_seq_cst);
  }
  void BeginPrefixChange() { prefix_generation_.fetch_add(1); }
  void EndPrefixChange() { prefix_generation_.fetch_add(1); }

  // The serving filter, for adding keys. REQUIRES: the writers lock.
  PresenceFilter* serving_for_writes() const { return serving_owned_.get(); }

  // The filter being filled, or null. REQUIRES: the writers lock, or being
  // the background thread (the only one that installs and promotes).
  PresenceFilter* building() const { return building_.get(); }
  bool has_building() const { return building_ != nullptr; }

  // REQUIRES: the writers lock, exclusive.
  void InstallBuilding(std::unique_ptr<PresenceFilter> filter) {
    building_ = std::move(filter);
  }
  // Makes the building filter the serving one and returns the filter it
  // replaces, to be freed after ReadEpochs::WaitForReaders. REQUIRES: the
  // writers lock, exclusive, and a building filter.
  std::unique_ptr<PresenceFilter> PromoteBuilding();
  // Drops the building filter (a rebuild that failed). REQUIRES: the writers
  // lock, exclusive.
  std::unique_ptr<PresenceFilter> DropBuilding() {
    return std::move(building_);
  }

  // The handle background work reads through; null once the user destroyed
  // it. Hold handle_mutex() while using it.
  std::mutex& handle_mutex() { return handle_mutex_; }
  rocksdb::ColumnFamilyHandle* handle() const { return handle_; }
  void set_handle(rocksdb::ColumnFamilyHandle* handle) { handle_ = handle; }
  // Set before the handle is taken away, so that a scan stops early.
  std::atomic<bool>& cancelled() { return cancelled_; }

  // The encoded record of the last save that covered this column family
  // (saved_filters.h), carried into later saves while no filter serves.
  // Guarded by FilterSaves' mutex (filter_saves.h).
  std::string& last_record() { return last_record_; }

  // REQUIRES: the writers lock, shared or exclusive: the filters it reads
  // are replaced only under it, exclusively.
  PresenceFilterStats Stats() const;
  // What Stats reports of the background work; any thread.
  void RecordRebuildStart(PresenceRebuildReason reason);
  PresenceRebuildReason last_rebuild() const {
    std::lock_guard<std::mutex> lock(stats_mutex_);
    return last_rebuild_;
  }
  void RecordRebuildEnd(const absl::Status& status);
  // Keys the last full scan found: the size of the next rebuild's filter.
  uint64_t last_scanned_keys() const {
    return last_scanned_keys_.load(std::memory_order_relaxed);
  }
  void set_last_scanned_keys(uint64_t keys) {
    last_scanned_keys_.store(keys, std::memory_order_relaxed);
  }

 private:
  const uint32_t id_;
  const std::string name_;
  // serving_ publishes serving_owned_.get() to lookups.
  std::atomic<const PresenceFilter*> serving_{nullptr};
  std::unique_ptr<PresenceFilter> serving_owned_;
  std::atomic<uint64_t> lacks_keys_count_{0};
  std::atomic<uint64_t> prefix_generation_{0};
  std::unique_ptr<PresenceFilter> building_;
  std::mutex adds_mutex_;  // one add to these filters at a time

  std::mutex handle_mutex_;
  rocksdb::ColumnFamilyHandle* handle_ = nullptr;
  std::atomic<bool> cancelled_{false};

  std::string last_record_;
  std::atomic<uint64_t> last_scanned_keys_{0};

  mutable std::mutex stats_mutex_;
  PresenceRebuildReason last_rebuild_ = PresenceRebuildReason::kNone;
  uint64_t rebuilds_ = 0;
  absl::Status last_error_;
};

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_COLUMN_FAMILY_FILTER_H_
