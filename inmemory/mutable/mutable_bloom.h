// A Bloom filter that grows while it is queried: the filter of a memtable, or
// an in-memory set for users of Guava's BloomFilter. Any number of threads may
// add keys at once, without a lock, while others query; Freeze() hands over
// the filter's bytes in the native format, so a flushed table gets its filter
// without hashing a key again. inmemory/mutable/README.md has the design.
//
//   absl::StatusOr<sstfilter::MutableBloomFilter> filter =
//       sstfilter::MutableBloomFilter::Create(
//           sstfilter::FilterOptions::Fpp(0.01), /*expected_keys=*/1000000);
//   filter->Add("apple");  // any thread, no lock; MayContain is then true

#ifndef SSTFILTER_INMEMORY_MUTABLE_MUTABLE_BLOOM_H_
#define SSTFILTER_INMEMORY_MUTABLE_MUTABLE_BLOOM_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/bloom/bloom_format.h"
#include "filter/filter_policy.h"
#include "inmemory/mutable/cache_aligned_words.h"
#include "inmemory/mutable/changed_blocks.h"
#include "inmemory/mutable/fill_estimates.h"
#include "inmemory/mutable/query_paths.h"

namespace sstfilter {

class ScalableBloomFilter;
namespace filter_internal {
enum class SavedKind : uint8_t;
class SavedFieldReader;
}  // namespace filter_internal

// The largest body a MutableBloomFilter allocates: 1 TiB, 8.8 * 10^11 keys at
// 10 bits/key. A bound on what a caller can ask for by mistake (an expected key
// count read from a corrupt file), not a limit of the layout.
constexpr uint64_t kMaxMutableBloomBytes = uint64_t{1} << 40;  // bytes

// Layout, hash and sizing are the native filter's (NewBloomFilterPolicy):
// with expected_keys distinct keys the rate is at most the native filter's.
// More keys than expected are accepted and raise the rate (ExpectedFpp tells
// by how much); ScalableBloomFilter keeps a bound instead.
//
// Thread safety: every method may run concurrently with every other, on any
// threads, except creation, moves and destruction. A key whose Add has
// returned matches every query that happens after it, on any thread. Freeze,
// Save, Union, ApproximateCount and ExpectedFpp read each word once:
// concurrent adds are seen or not, key by key, and every Add that happened
// before the call is seen in full.
//
// Freeze()'s bytes, stored under FrozenFormatName(), read with that format's
// reader give the same answer as MayContain for every key. Restore() of bytes
// other than Save()'s is an error, never a crash. Guava's names: put = Add,
// mightContain = MayContain, approximateElementCount = ApproximateCount,
// expectedFpp = ExpectedFpp, putAll = Union, writeTo = Save, readFrom =
// Restore.
class MutableBloomFilter {
 public:
  // A filter for expected_keys keys. InvalidArgumentError naming the value for
  // invalid options (ValidateFilterOptions, or an fpp below what 100 bits/key
  // reach), for expected_keys == 0, and for a body larger than
  // kMaxMutableBloomBytes; ResourceExhaustedError when the memory cannot be
  // allocated.
  static absl::StatusOr<MutableBloomFilter> Create(const FilterOptions& options,
                                                   uint64_t expected_keys);
  // The probes per key a filter Create makes with options would use, without
  // making one; the same errors for invalid options.
  static absl::StatusOr<int> NumProbesFor(const FilterOptions& options);

  // Moves are not thread-safe; a moved-from filter may only be destroyed or
  // assigned to.
  MutableBloomFilter(MutableBloomFilter&&) = default;
  MutableBloomFilter& operator=(MutableBloomFilter&&) = default;

  // Adds key. Returns true iff this call set a bit that was clear (Guava's put
  // contract): false means the filter already matched key, because it was
  // added before or is a false positive. Two threads adding one key at the
  // same moment may both get true.
  bool Add(absl::string_view key);

  // Adds keys[0], keys[1], ... in that order, as that many Add calls would
  // (each key sees the bits of the keys before it), and sets added[i] to what
  // Add(keys[i]) would have returned, unless added is null. Hashes a group of
  // keys and prefetches their blocks for writing before adding any, so that
  // their cache misses overlap, as the batched MayContain does: for a
  // memtable's write batch. REQUIRES: added is null or points to keys.size()
  // writable bools.
  void Add(absl::Span<const absl::string_view> keys, bool* added = nullptr);

  // Add and batched Add for a filter with one writer at a time: the same bits
  // and return values, without a locked instruction. REQUIRES: no other thread
  // calls Add, AddSingleWriter or Union on this filter meanwhile (the caller
  // serialises its writers, e.g. a memtable written by one thread, as
  // RocksDB's DynamicBloom::Add assumes); MayContain, the statistics and
  // Freeze may run concurrently. Faster per key than Add: Add pays a locked
  // fetch_or for each of the about 4.4 words a key changes, and a locked
  // instruction waits for every load before it, so one key's cache miss
  // cannot overlap the next's (docs/in_memory_filters.md measures both).
  bool AddSingleWriter(absl::string_view key);
  void AddSingleWriter(absl::Span<const absl::string_view> keys,
                       bool* added = nullptr);

  // Returns false only if key was certainly not added.
  bool MayContain(absl::string_view key) const {
    return query_->contains(view_, key);
  }

  // results[i] = MayContain(keys[i]). Hashes a group of keys and prefetches
  // their blocks before probing any, so that their cache misses overlap.
  // REQUIRES: results points to keys.size() writable bools.
  void MayContain(absl::Span<const absl::string_view> keys,
                  bool* results) const {
    query_->contains_batch(view_, keys, results);
  }

  // Runs: members 0 to 63 of a run, named by a 64-bit hash, share one block,
  // and each member's probes are the run's probe bits shifted by the member,
  // so that one block tells whether any member of a set was added (the
  // presence filters' ranges of keys that differ in one byte:
  // engines/rocksdb/presence/range_items.h). Member bits are ordinary bits:
  // they fill the filter as keys do. REQUIRES: member < kRunMembers; probes
  // in [1, kMaxRunProbes]; one adder at a time, as AddSingleWriter.
  static constexpr int kRunMembers = 64;
  static constexpr int kMaxRunProbes = 30;
  void AddRunMemberSingleWriter(uint64_t run_hash, int member, int probes);
  // False only if no member whose bit is set in members (bit i: member i) was
  // added to the run with the same probes.
  bool MayContainRunMember(uint64_t run_hash, uint64_t members,
                           int probes) const;
  // Starts loading the run's block into the cache.
  void PrefetchRun(uint64_t run_hash) const { PrefetchHash(run_hash); }

  // The number of distinct keys added, estimated from the bits set
  // (fill_estimates.h EstimateKeys: Guava's estimator, corrected for this
  // layout). Measured within 0.05% of the truth from 1% to 500% of the
  // expected key count (mutable_bloom_test.cc, 10^6 expected keys); coarser as
  // the filter nears saturation. Reads the whole filter.
  uint64_t ApproximateCount() const;

  // The probability that MayContain answers true for a key never added, from
  // the fill of each block (fill_estimates.h FppFromFill). 0 for an empty
  // filter. Reads the whole filter.
  double ExpectedFpp() const;
  // ExpectedFpp from at most max_blocks blocks spread evenly over the filter
  // (all of them when it has no more): for a check repeated often on a large
  // filter. 4,096 blocks put the estimate within a few percent of
  // ExpectedFpp for fills far from empty (mutable_bloom_test.cc).
  // REQUIRES: max_blocks > 0.
  double SampledExpectedFpp(uint64_t max_blocks) const;

  // Adds every key of other (Guava's putAll): afterwards this filter matches
  // whatever either matched before. InvalidArgumentError saying what differs
  // when the two do not have the same body size and probe count. other may be
  // this filter, and may be added to meanwhile.
  absl::Status Union(const MutableBloomFilter& other);

  // The filter's bytes in the native format (filter/bloom/README.md): the
  // body as is, then the native trailer, then the version-2 CRC32C trailer
  // unless FilterOptions::self_checksum was false. The reader of
  // FrozenFormatName(), the format of every NewBloomFilterPolicy with the same
  // self_checksum whatever its other options (the filter carries its own
  // probe count), answers exactly as MayContain does for every key.
  //
  // The trailer's key count is ApproximateCount() of the same snapshot,
  // clamped to what a reader accepts for the body (1 to 100 bits per key):
  // the reader's ExpectedFpp() then follows the filter's real fill (a count
  // of Add calls would count repeated keys, which a memtable sees often, and
  // a shared counter would cost every Add a contended atomic). With fewer keys
  // than one per 100 bits the count is raised to that minimum, so the
  // reader's ExpectedFpp() overstates the rate; past one key per bit it is
  // lowered to that maximum, where the filter matches nearly everything
  // anyway. A filter with no bit set becomes the native empty filter
  // (4 bytes), which matches nothing, as this one does.
  std::string Freeze() const;

  // The name to persist beside Freeze()'s bytes: the native format's,
  // version 2 (with its CRC32C) unless FilterOptions::self_checksum was false.
  const char* FrozenFormatName() const {
    return self_checksum_ ? bloom::kCheckedLocalBloomName
                          : bloom::kLocalBloomName;
  }

  // The filter as bytes to keep (Guava's writeTo): its shape, whether it
  // freezes with a CRC, and its words, in an envelope with a CRC32C of its own
  // (inmemory/mutable/README.md, "Saving and restoring"). Unlike Freeze, whose
  // bytes are a table's filter, these restore a filter that takes more Adds
  // and has every statistic of this one. May run while other threads add: it
  // reads each word once, as Freeze does, so a concurrent Add is saved or
  // not, key by key, and every Add that happened before the call is saved in
  // full.
  std::string Save() const;

  // The filter Save wrote (Guava's readFrom): it answers every MayContain as
  // the saved filter did, has its statistics, probe count, sizes and
  // FrozenFormatName, and takes Adds. Any bytes give either a filter or a
  // DataLossError naming what is wrong: damaged (CRC32C mismatch), truncated,
  // another kind's or version's bytes, or a field out of range or
  // inconsistent with the others (checked even when the CRC matches). Never
  // allocates more than the body the bytes hold; ResourceExhaustedError when
  // that cannot be allocated.
  static absl::StatusOr<MutableBloomFilter> Restore(absl::string_view saved);

  // Saving only what changed, for a filter saved again and again (a
  // database's, once a second): after TrackChanges, every Add,
  // AddSingleWriter and Union that sets a clear bit marks the bit's 64-byte
  // block, and TakeChangedBlocks hands the marked blocks over. SaveBlocks
  // writes their words and ApplySavedBlocks ORs them into a filter restored
  // from an earlier Save, which then holds every key the blocks' filter held.
  //
  // TrackChanges: REQUIRES no other thread uses the filter yet.
  // ResourceExhaustedError when the marks (a bit per block) cannot be
  // allocated.
  absl::Status TrackChanges();
  // The blocks marked since TrackChanges or the last call, ascending, with
  // their marks cleared. REQUIRES: TrackChanges, and no add running: an add
  // marks its block after setting its bits, and one that found its bits set
  // by another add still unmarked does not mark at all, so the caller holds
  // adds off (as a lock over its writes does) while it takes.
  std::vector<uint64_t> TakeChangedBlocks();
  // The words of blocks (ascending, each below the block count), as they are
  // now: adds running meanwhile are saved or not, key by key, as in Save.
  std::string SaveBlocks(absl::Span<const uint64_t> blocks) const;
  // ORs in the blocks SaveBlocks wrote (marking none). DataLossError naming
  // what is wrong for any other bytes, or those of a filter with another block
  // count; the filter is unchanged then.
  absl::Status ApplySavedBlocks(absl::string_view saved);

  int NumProbes() const { return num_probes_; }
  // Configured bits/key (the body is rounded up to whole blocks).
  double BitsPerKey() const { return bits_per_key_; }
  uint64_t ExpectedKeys() const { return expected_keys_; }
  uint64_t NumBits() const { return words_.size() * 64; }
  // Bits set: a snapshot, as ApproximateCount. Reads the whole filter.
  uint64_t BitsSet() const;
  // Bytes of the body (the object itself adds a few dozen).
  uint64_t MemoryBytes() const { return words_.size() * 8; }

 private:
  friend class ScalableBloomFilter;  // adds and queries by hash, once per key

  MutableBloomFilter(double bits_per_key, int num_probes,
                     uint64_t expected_keys, bool self_checksum,
                     mutable_internal::CacheAlignedWords words);

  // The blocks of the body for expected_keys keys at bits_per_key (see Sizing
  // above); InvalidArgumentError when the body would pass
  // kMaxMutableBloomBytes. REQUIRES: bits_per_key in [kMinBitsPerKey,
  // kMaxBitsPerKey].
  static absl::StatusOr<uint64_t> BodyBlocks(uint64_t expected_keys,
                                             double bits_per_key);

  // The fields of a saved filter: the shape (kSavedShapeBytes: expected keys,
  // bits/key, probes, flags, zeros, blocks), then the words (a layer of a
  // saved ScalableBloomFilter holds the same).
  static constexpr size_t kSavedShapeBytes = 32;
  void AppendSavedFields(std::string* dst) const;
  // The filter of fields AppendSavedFields wrote, read from *in, every field
  // validated; a DataLossError for a kind's saved bytes otherwise, its
  // message after context (a layer's number).
  static absl::StatusOr<MutableBloomFilter> ReadSavedFields(
      filter_internal::SavedKind kind, absl::string_view context,
      filter_internal::SavedFieldReader* in);

  // The block of hash, writable: words_ is this filter's own.
  std::atomic<uint64_t>* WritableBlock(uint64_t hash);
  // Marks block (a WritableBlock) changed, when changes are tracked.
  void NoteChanged(const std::atomic<uint64_t>* block);
  // The batched adds: add_to_block(masks, block) is AtomicAddToBlock or
  // SingleWriterAddToBlock (atomic_block.h).
  template <typename AddToBlock>
  void AddInGroups(absl::Span<const absl::string_view> keys, bool* added,
                   AddToBlock add_to_block);
  // hash = bloom::KeyHash(key).
  bool AddHash(uint64_t hash);
  bool MayContainHash(uint64_t hash) const {
    return query_->contains_hash(view_, hash);
  }
  // Starts loading the block of hash into the cache.
  void PrefetchHash(uint64_t hash) const {
    __builtin_prefetch(view_.BlockOf(hash), /*rw=*/0, /*locality=*/1);
  }
  mutable_internal::FillHistogram Fill() const;

  double bits_per_key_;
  int num_probes_;
  uint64_t expected_keys_;
  bool self_checksum_;  // Freeze writes format version 2
  uint64_t num_blocks_;
  mutable_internal::CacheAlignedWords words_;
  // Null until TrackChanges.
  std::unique_ptr<mutable_internal::ChangedBlocks> changes_;
  // words_ and the shape, as the query paths take them; and the query code
  // for this CPU.
  mutable_internal::BodyView view_;
  const mutable_internal::QueryPath* query_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_MUTABLE_BLOOM_H_
