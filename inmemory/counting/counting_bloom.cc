// The counting Bloom filter (see counting_bloom.h).

#include "inmemory/counting/counting_bloom.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom_format.h"
#include "inmemory/counting/counting_sizing.h"

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

// Inlined, hash included, into every caller: GCC otherwise keeps it out of
// line (the hash's long-key code weighs it down), a call per operation.
__attribute__((always_inline)) inline KeyPosition Locate(absl::string_view key,
                                                         uint64_t num_blocks) {
  const uint64_t hash = bloom::KeyHash(key);
  return {BlockIndex(hash, num_blocks), bloom::ProbeHash(hash)};
}

// The probe loops below take k as a template argument, 0 meaning "k at run
// time": for 1 <= k <= 16 the loop unrolls and the multipliers become
// immediates, which made MayContain a third faster in cache (15 -> 10 ns, as
// the native filter's builder found for its adds).
constexpr int kMaxUnrolledProbes = 16;

template <int kProbes>
int Probes(int k) {
  return kProbes > 0 ? kProbes : k;
}

// Calls fn(std::integral_constant<int, k>()) for k in [1,
// kMaxUnrolledProbes], fn(std::integral_constant<int, 0>()) otherwise. Create
// never gives a larger k (100 counters/key, the most, give 14;
// counting_sizing_test checks), so the run-time loop is only a fallback.
template <int kProbes = 1, typename Fn>
decltype(auto) WithProbes(int k, Fn&& fn) {
  if constexpr (kProbes > kMaxUnrolledProbes) {
    return fn(std::integral_constant<int, 0>());
  } else {
    if (k == kProbes) return fn(std::integral_constant<int, kProbes>());
    return WithProbes<kProbes + 1>(k, std::forward<Fn>(fn));
  }
}

// Whether all of a key's counters are nonzero. No early exit: whether a key is
// present is unpredictable in a mixed stream of queries, and a mispredicted
// branch costs more than the remaining probes (as in the native filter).
template <int kProbes>
bool AllNonzero(const Block& block, uint32_t probe_hash, int k) {
  uint32_t zero = 0;
  for (int i = 0; i < Probes<kProbes>(k); ++i) {
    zero |= GetCounter(block, ProbeCounter(probe_hash, i)) == 0;
  }
  return zero == 0;
}

// Adds a key's probes; returns the number of counters it saturated.
template <int kProbes>
int AddToBlock(Block* block, uint32_t probe_hash, int k) {
  int saturated = 0;
  for (int i = 0; i < Probes<kProbes>(k); ++i) {
    const uint32_t counter = ProbeCounter(probe_hash, i);
    const int value = GetCounter(*block, counter);
    // A saturated counter is stuck (see the header): written back unchanged.
    SetCounter(block, counter, value + (value != kSaturated));
    saturated += value == kSaturated - 1;
  }
  return saturated;
}

// Removes a key's probes, or returns false and changes nothing. Decrements in
// place; a counter that would go below zero shows the key was never added, and
// the decrements made so far are undone. A counter probed twice by the key is
// decremented twice, as Add incremented it twice. (Decrementing a copy of the
// block and storing it back measured 2-3x slower out of cache: the copy's
// wide loads wait for its narrow stores.)
template <int kProbes>
bool RemoveFromBlock(Block* block, uint32_t probe_hash, int k) {
  for (int i = 0; i < Probes<kProbes>(k); ++i) {
    const uint32_t counter = ProbeCounter(probe_hash, i);
    const int value = GetCounter(*block, counter);
    if (value == kSaturated) continue;  // stuck: see the header
    if (value == 0) {
      // Undo in reverse order: each counter decremented was below 15 after
      // its decrement, so an increment restores it exactly.
      for (int j = i - 1; j >= 0; --j) {
        const uint32_t undo = ProbeCounter(probe_hash, j);
        const int undo_value = GetCounter(*block, undo);
        if (undo_value != kSaturated) SetCounter(block, undo, undo_value + 1);
      }
      return false;
    }
    SetCounter(block, counter, value - 1);
  }
  return true;
}

}  // namespace

void CountingBloomFilter::Add(absl::string_view key) {
  const KeyPosition at = Locate(key, blocks_.size());
  Block* const block = &blocks_[at.block];
  num_saturated_ += WithProbes(num_probes_, [&](auto probes) {
    return AddToBlock<probes()>(block, at.probe_hash, num_probes_);
  });
  ++num_keys_;
}

bool CountingBloomFilter::Remove(absl::string_view key) {
  if (num_keys_ == 0) return false;
  const KeyPosition at = Locate(key, blocks_.size());
  Block* const block = &blocks_[at.block];
  const bool removed = WithProbes(num_probes_, [&](auto probes) {
    return RemoveFromBlock<probes()>(block, at.probe_hash, num_probes_);
  });
  if (removed) --num_keys_;
  return removed;
}

bool CountingBloomFilter::MayContain(absl::string_view key) const {
  const KeyPosition at = Locate(key, blocks_.size());
  return WithProbes(num_probes_, [&](auto probes) {
    return AllNonzero<probes()>(blocks_[at.block], at.probe_hash, num_probes_);
  });
}

void CountingBloomFilter::MayContain(absl::Span<const absl::string_view> keys,
                                     bool* results) const {
  WithProbes(num_probes_, [&](auto probes) {
    // Groups of 32: enough misses in flight to cover memory latency, few
    // enough that the prefetched lines are still in cache when probed.
    constexpr size_t kGroup = 32;
    KeyPosition at[kGroup];
    for (size_t start = 0; start < keys.size(); start += kGroup) {
      const size_t n = std::min(kGroup, keys.size() - start);
      for (size_t i = 0; i < n; ++i) {
        at[i] = Locate(keys[start + i], blocks_.size());
        __builtin_prefetch(&blocks_[at[i].block]);
      }
      for (size_t i = 0; i < n; ++i) {
        results[start + i] = AllNonzero<probes()>(
            blocks_[at[i].block], at[i].probe_hash, num_probes_);
      }
    }
    return 0;
  });
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
