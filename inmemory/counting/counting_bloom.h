// A counting Bloom filter: an in-memory set that can also remove keys, for a
// set that changes (a memtable's keys, a cache) where a rebuilt immutable
// filter would cost too much. Each Bloom bit becomes a 4-bit counter, all of
// a key's in one 64-byte block. An SSTable's keys never change: use the native
// filter (filter/bloom/bloom.h), in under a quarter of the memory.
// inmemory/counting/README.md has the layout, sizing and counter width.
//
//   auto filter = sstfilter::CountingBloomFilter::Create(
//       sstfilter::FilterOptions::Fpp(0.01), /*expected_keys=*/1000000);
//   filter->Add("apple");  filter->Remove("apple");  // true: it was added

#ifndef SSTFILTER_INMEMORY_COUNTING_COUNTING_BLOOM_H_
#define SSTFILTER_INMEMORY_COUNTING_COUNTING_BLOOM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_policy.h"
#include "inmemory/counting/counting_layout.h"

namespace sstfilter {

// The rate holds while at most expected_keys keys are present; past that it
// grows as for any Bloom filter (ExpectedFpp() says by how much). A counter
// that reaches 15 saturates and never changes again: it never reaches zero,
// so a Remove cannot cause a false negative for a key still present.
//
// Removing a key that was never added (or more often than it was added) is a
// caller error: it decrements counters other keys rely on and may cause false
// negatives for them. Remove returns false and changes nothing when any of
// the key's counters is lower than its number of probes on it, but cannot
// detect an absent key that is a false positive: remove only keys you added.
//
// Restore() of bytes other than Save()'s is an error, never a crash.
//
// Thread safety: as for a standard container. Any number of threads may call
// the const methods (MayContain, the statistics) concurrently; Add, Remove and
// Clear need exclusive access. Wrap it in a lock for a shared mutable set.
class CountingBloomFilter {
 public:
  // Largest filter Create accepts, in bytes of counters: far above any set
  // this is for (2^40 bytes is 200 billion keys at 1%), and a bound that keeps
  // every size computation exact. An allocation the machine cannot satisfy
  // below it fails as for any container (std::bad_alloc).
  static constexpr uint64_t kMaxBytes = uint64_t{1} << 40;

  // A filter for up to expected_keys keys at the rate or size options ask for
  // (see Sizing above); expected_keys = 0 is sized as 1. Returns
  // InvalidArgumentError naming the value for invalid options (as
  // ValidateFilterOptions, and an fpp below what 100 counters/key reach, about
  // 2.7e-7) and for an expected_keys whose filter would exceed kMaxBytes.
  static absl::StatusOr<CountingBloomFilter> Create(
      const FilterOptions& options, uint64_t expected_keys);

  // Copyable (a snapshot of the counters) and movable; a moved-from filter
  // may only be assigned to or destroyed.
  CountingBloomFilter(const CountingBloomFilter&) = default;
  CountingBloomFilter& operator=(const CountingBloomFilter&) = default;
  CountingBloomFilter(CountingBloomFilter&&) = default;
  CountingBloomFilter& operator=(CountingBloomFilter&&) = default;

  // Adds one occurrence of key: a multiset, so adding a key twice needs two
  // Removes to take it out. Never fails.
  void Add(absl::string_view key);

  // Removes one occurrence of key. Returns true when it did; false, changing
  // nothing, when key is certainly not in the filter (a counter of the key is
  // zero or below its number of probes on it), or the filter is empty.
  // REQUIRES: key was added more often than removed; removing another key
  // that passes the check may cause false negatives (see above).
  bool Remove(absl::string_view key);

  // Returns false only if key is certainly not in the filter: never for a key
  // added more often than removed (when the REQUIRES of Remove held).
  bool MayContain(absl::string_view key) const;

  // Batched form: results[i] = MayContain(keys[i]). Hashes a group of keys and
  // prefetches their blocks before probing any, which overlaps the cache
  // misses of a filter larger than the cache.
  // REQUIRES: results points to keys.size() writable bools.
  void MayContain(absl::Span<const absl::string_view> keys,
                  bool* results) const;

  // Removes every key; the size stays.
  void Clear();

  // Same size, probes, counters and counts: what a snapshot (a copy) compares
  // equal to until either changes.
  bool operator==(const CountingBloomFilter& other) const;
  bool operator!=(const CountingBloomFilter& other) const {
    return !(*this == other);
  }

  // Adds (each one, duplicates included) minus successful Removes.
  uint64_t NumKeys() const { return num_keys_; }
  // The expected_keys the filter was sized for (at least 1).
  uint64_t ExpectedKeys() const { return expected_keys_; }
  int NumProbes() const { return num_probes_; }
  uint64_t NumCounters() const {
    return blocks_.size() * counting_internal::kCountersPerBlock;
  }
  // Bytes of counters (the object adds a few dozen).
  uint64_t MemoryBytes() const {
    return blocks_.size() * counting_internal::kBlockBytes;
  }
  // Memory per expected key, in bits: 4 * counters per key, rounded up to
  // whole blocks.
  double BitsPerKey() const {
    return 8.0 * static_cast<double>(MemoryBytes()) /
           static_cast<double>(expected_keys_);
  }
  // Counters stuck at 15. Zero in all but heavily overloaded filters.
  uint64_t NumSaturated() const { return num_saturated_; }

  // The false-positive rate expected with NumKeys() keys present (0 when there
  // are none), from the layout's formula. It does not count saturated
  // counters (each adds about 1 / NumCounters() of a key's worth).
  double ExpectedFpp() const;

  // The filter as bytes to keep: its sizes, counts and counters, in an
  // envelope with a CRC32C of its own (inmemory/counting/README.md, "Saving and
  // restoring"). A const method: it may run beside MayContain, not beside a
  // writer.
  std::string Save() const;

  // The filter Save wrote, equal to it (operator==): the same answers, counts
  // and statistics, and Add and Remove carry on from where it was. Any bytes
  // give either a filter or a DataLossError naming what is wrong: damaged
  // (CRC32C mismatch), truncated, another kind's or version's bytes, or a
  // field out of range or inconsistent with the others (checked even when the
  // CRC matches): a block count no counters/key in [1, 100] gives
  // ExpectedKeys(), a saturated count other than the counters at 15, or, with
  // none saturated, counters that do not sum to NumKeys() times the probe
  // count. Never allocates more than the counters the bytes hold.
  static absl::StatusOr<CountingBloomFilter> Restore(absl::string_view saved);

 private:
  CountingBloomFilter(uint64_t num_blocks, int num_probes,
                      uint64_t expected_keys);

  std::vector<counting_internal::Block> blocks_;
  int num_probes_;
  uint64_t expected_keys_;
  uint64_t num_keys_ = 0;
  uint64_t num_saturated_ = 0;
};

}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_COUNTING_COUNTING_BLOOM_H_
