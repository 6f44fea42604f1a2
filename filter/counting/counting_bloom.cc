// The counting Bloom filter (see counting_bloom.h).

#include "filter/counting/counting_bloom.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_hash.h"
#include "filter/counting/counting_sizing.h"

namespace sstfilter {

using counting_internal::Block;
using counting_internal::BlockIndex;
using counting_internal::GetCounter;
using counting_internal::kBlockBytes;
using counting_internal::kCountersPerBlock;
using counting_internal::kSaturated;
using counting_internal::ProbeCounter;
using counting_internal::SetCounter;

absl::StatusOr<CountingBloomFilter> CountingBloomFilter::Create(
    const FilterOptions& options, uint64_t expected_keys) {
  absl::StatusOr<counting_internal::CountingSizing> sizing =
      counting_internal::SizeForOptions(options);
  if (!sizing.ok()) return sizing.status();
  const uint64_t keys = std::max<uint64_t>(expected_keys, 1);
  // Long double: exact for every count up to kMaxBytes' blocks, and no
  // overflow for any expected_keys.
  const long double blocks =
      std::ceil(static_cast<long double>(keys) * sizing->counters_per_key /
                kCountersPerBlock);
  if (blocks * kBlockBytes > static_cast<long double>(kMaxBytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat("CountingBloomFilter: expected_keys ", expected_keys,
                     " at ", sizing->counters_per_key,
                     " counters/key needs more than ", kMaxBytes, " bytes"));
  }
  return CountingBloomFilter(
      std::max<uint64_t>(1, static_cast<uint64_t>(blocks)), sizing->num_probes,
      keys);
}

CountingBloomFilter::CountingBloomFilter(uint64_t num_blocks, int num_probes,
                                         uint64_t expected_keys)
    : blocks_(num_blocks, Block{}),
      num_probes_(num_probes),
      expected_keys_(expected_keys) {}

namespace {

// The block and probe hash of a key.
struct KeyPosition {
  uint64_t block;
  uint32_t probe_hash;
};

inline KeyPosition Locate(absl::string_view key, uint64_t num_blocks) {
  const uint64_t hash = bloom_internal::KeyHash(key);
  return {BlockIndex(hash, num_blocks), bloom_internal::ProbeHash(hash)};
}

// Whether all of a key's counters are nonzero. No early exit: whether a key is
// present is unpredictable in a mixed stream of queries, and a mispredicted
// branch costs more than the remaining probes (as in the native filter).
inline bool AllNonzero(const Block& block, uint32_t probe_hash, int k) {
  bool all = true;
  for (int i = 0; i < k; ++i) {
    all &= GetCounter(block, ProbeCounter(probe_hash, i)) != 0;
  }
  return all;
}

}  // namespace

void CountingBloomFilter::Add(absl::string_view key) {
  const KeyPosition at = Locate(key, blocks_.size());
  Block& block = blocks_[at.block];
  for (int i = 0; i < num_probes_; ++i) {
    const uint32_t counter = ProbeCounter(at.probe_hash, i);
    const int value = GetCounter(block, counter);
    if (value == kSaturated) continue;  // stuck: see the header
    SetCounter(&block, counter, value + 1);
    if (value + 1 == kSaturated) ++num_saturated_;
  }
  ++num_keys_;
}

bool CountingBloomFilter::Remove(absl::string_view key) {
  if (num_keys_ == 0) return false;
  const KeyPosition at = Locate(key, blocks_.size());
  Block& block = blocks_[at.block];
  // Decrement in place; a counter that would go below zero shows the key was
  // never added, and the decrements made so far are undone, so the filter
  // stays as it was. A counter probed twice by the key is decremented twice,
  // as Add incremented it twice. (Decrementing a copy of the block and
  // storing it back measured 2-3x slower out of cache: the copy's wide loads
  // wait for its narrow stores.)
  for (int i = 0; i < num_probes_; ++i) {
    const uint32_t counter = ProbeCounter(at.probe_hash, i);
    const int value = GetCounter(block, counter);
    if (value == kSaturated) continue;  // stuck: see the header
    if (value == 0) {
      // Undo in reverse order: each counter decremented was below 15 after
      // its decrement, so an increment restores it exactly.
      for (int j = i - 1; j >= 0; --j) {
        const uint32_t undo = ProbeCounter(at.probe_hash, j);
        const int undo_value = GetCounter(block, undo);
        if (undo_value != kSaturated) SetCounter(&block, undo, undo_value + 1);
      }
      return false;
    }
    SetCounter(&block, counter, value - 1);
  }
  --num_keys_;
  return true;
}

bool CountingBloomFilter::MayContain(absl::string_view key) const {
  const KeyPosition at = Locate(key, blocks_.size());
  return AllNonzero(blocks_[at.block], at.probe_hash, num_probes_);
}

void CountingBloomFilter::MayContain(absl::Span<const absl::string_view> keys,
                                     bool* results) const {
  // Groups of 32: enough misses in flight to cover memory latency, few enough
  // that the prefetched lines are still in cache when probed.
  constexpr size_t kGroup = 32;
  KeyPosition at[kGroup];
  for (size_t start = 0; start < keys.size(); start += kGroup) {
    const size_t n = std::min(kGroup, keys.size() - start);
    for (size_t i = 0; i < n; ++i) {
      at[i] = Locate(keys[start + i], blocks_.size());
      __builtin_prefetch(&blocks_[at[i].block]);
    }
    for (size_t i = 0; i < n; ++i) {
      results[start + i] =
          AllNonzero(blocks_[at[i].block], at[i].probe_hash, num_probes_);
    }
  }
}

void CountingBloomFilter::Clear() {
  std::fill(blocks_.begin(), blocks_.end(), Block{});
  num_keys_ = 0;
  num_saturated_ = 0;
}

bool CountingBloomFilter::operator==(const CountingBloomFilter& other) const {
  return num_probes_ == other.num_probes_ &&
         expected_keys_ == other.expected_keys_ &&
         num_keys_ == other.num_keys_ &&
         num_saturated_ == other.num_saturated_ &&
         blocks_.size() == other.blocks_.size() &&
         (blocks_.empty() || std::memcmp(blocks_.data(), other.blocks_.data(),
                                         blocks_.size() * sizeof(Block)) == 0);
}

double CountingBloomFilter::ExpectedFpp() const {
  if (num_keys_ == 0) return 0.0;
  const double keys = static_cast<double>(num_keys_);
  if (blocks_.size() == 1)
    return counting_internal::BlockFpp(keys, num_probes_);
  return counting_internal::LayoutFpp(static_cast<double>(NumCounters()) / keys,
                                      num_probes_);
}

}  // namespace sstfilter
