// Lookups through the presence filters: whether a column family's serving
// filter may answer a lookup with the given read options, and the probe
// itself, which takes no lock (ReadEpochs keeps the filter alive) and, on a
// thread whose keys are mostly found, probes only some lookups
// (probe_sampling.h).

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTER_LOOKUPS_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTER_LOOKUPS_H_

#include "absl/base/attributes.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engines/rocksdb/presence/column_family_filter.h"
#include "engines/rocksdb/presence/column_family_slots.h"
#include "engines/rocksdb/presence/probe_sampling.h"
#include "engines/rocksdb/presence/read_epochs.h"
#include "engines/rocksdb/presence/seek_prefix.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace presence_internal {

// Any thread.
class FilterLookups {
 public:
  // Probes the filters of slots, which are freed only after epochs' readers.
  // skip_probes: PresenceFilterOptions::skip_probes_when_mostly_present;
  // answers_seeks: filter_prefix_seeks or filter_range_seeks. REQUIRES:
  // slots and epochs outlive this object.
  FilterLookups(const ColumnFamilySlots* slots, ReadEpochs* epochs,
                bool skip_probes, bool answers_seeks)
      : slots_(slots),
        epochs_(epochs),
        skip_probes_(skip_probes),
        answers_seeks_(answers_seeks) {}

  // True when the filter proves key absent from what options can see.
  // Inlined into each lookup: the fewer instructions between one lookup's
  // probe and the next one's, the more of their cache misses overlap
  // (docs/presence_filtered_db.md, "What the runs show").
  ABSL_ATTRIBUTE_ALWAYS_INLINE bool RulesOut(
      const rocksdb::ReadOptions& options, rocksdb::ColumnFamilyHandle* handle,
      absl::string_view key);
  // results[i] = RulesOut(keys[i]) for keys of one column family, probing
  // the filter once for the batch. REQUIRES: results holds keys.size().
  void RulesOut(const rocksdb::ReadOptions& options,
                rocksdb::ColumnFamilyHandle* handle,
                absl::Span<const absl::string_view> keys, bool* results);

  // Whether an iterator with options may have its seeks answered: the
  // filters hold prefixes or range items, the column family has a filter,
  // options see only what it holds, and they set prefix_same_as_start or a
  // bound.
  // RulesOutSeek may still decline.
  bool MayAnswerSeeks(const rocksdb::ReadOptions& options,
                      rocksdb::ColumnFamilyHandle* handle) const;
  // True when no key visible to options lies where the seek for target can
  // return one: by prefix (SeekPrefix), under the column family's prefix
  // extractor as it stood at prefix_generation (the iterator's creation),
  // if the serving filter holds that extractor's prefixes, read at that
  // generation, which is still the current one; or by range, from target
  // to the seek's bound (RangeMayHoldKey), if it holds range items.
  bool RulesOutSeek(const rocksdb::ReadOptions& options,
                    rocksdb::ColumnFamilyHandle* handle,
                    uint64_t prefix_generation, absl::string_view target,
                    SeekDirection direction);

  // Seeks are sampled as lookups are (probe_sampling.h), with state of their
  // own: the calling thread's, or null when every iterator probes
  // (skip_probes off, or more threads than it serves). Only that thread may
  // pass it to ShouldProbe and Record.
  ProbeSampling::Slot* SeekSampling() {
    return skip_probes_ ? seek_sampling_.Mine() : nullptr;
  }

 private:
  // The filter that may answer a lookup with options in the column family,
  // or null: none, not serving yet, or options that see what a filter does
  // not hold. REQUIRES: a ReadEpochs::Guard held while it is used.
  ABSL_ATTRIBUTE_ALWAYS_INLINE const PresenceFilter* ServingFor(
      const rocksdb::ReadOptions& options,
      rocksdb::ColumnFamilyHandle* handle) const;

  const ColumnFamilySlots* const slots_;
  ReadEpochs* const epochs_;
  const bool skip_probes_;
  const bool answers_seeks_;
  ProbeSampling sampling_;
  ProbeSampling seek_sampling_;
};

// Whether a lookup with these options may be answered from a filter, which
// holds every key an ordinary read of the current state can return.
inline bool FilterMayAnswer(const rocksdb::ReadOptions& options) {
  // Reads that can see more than that: keys under range tombstones, and
  // history at a read timestamp.
  if (options.ignore_range_deletions || options.timestamp != nullptr) {
    return false;
  }
  // Tiers that stop at what is in memory answer Incomplete, not NotFound,
  // for a key they cannot rule out: RocksDB's answer, which the filter's
  // NotFound would not equal.
  if (options.read_tier != rocksdb::kReadAllTier &&
      options.read_tier != rocksdb::kPersistedTier) {
    return false;
  }
#if ROCKSDB_MAJOR >= 9
  // RocksDB refuses a lookup that names another activity (InvalidArgument).
  if (options.io_activity != rocksdb::Env::IOActivity::kUnknown) return false;
#endif
  return true;
}

inline const PresenceFilter* FilterLookups::ServingFor(
    const rocksdb::ReadOptions& options,
    rocksdb::ColumnFamilyHandle* handle) const {
  ColumnFamilyFilter* filter = slots_->Of(handle);
  if (filter == nullptr || !FilterMayAnswer(options)) return nullptr;
  const PresenceFilter* serving = filter->serving();
  if (serving == nullptr) return nullptr;
  if (options.snapshot != nullptr &&
      options.snapshot->GetSequenceNumber() < serving->oldest_snapshot) {
    return nullptr;
  }
  return serving;
}

inline bool FilterLookups::RulesOut(const rocksdb::ReadOptions& options,
                                    rocksdb::ColumnFamilyHandle* handle,
                                    absl::string_view key) {
  ProbeSampling::Slot* sampling = nullptr;
  if (skip_probes_) {
    sampling = sampling_.Mine();
    if (!ProbeSampling::ShouldProbe(sampling)) return false;
  }
  bool ruled_out = false;
  {
    ReadEpochs::Guard guard(epochs_);
    if (!guard.active()) return false;
    const PresenceFilter* serving = ServingFor(options, handle);
    if (serving == nullptr) return false;
    ruled_out = !serving->keys.MayContain(key);
  }
  ProbeSampling::Record(sampling, ruled_out);
  return ruled_out;
}

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_FILTER_LOOKUPS_H_
