// The mutable Bloom filter's sizing, adds, queries and fill statistics (see
// mutable_bloom.h); Freeze is in mutable_bloom_freeze.cc.

#include "filter/mutable/mutable_bloom.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom_hash.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/mutable/atomic_block.h"

namespace sstfilter {

using bloom_internal::BloomSizing;
using bloom_internal::kBlockBytes;
using mutable_internal::AtomicAddToBlock;
using mutable_internal::AtomicBlockContains;
using mutable_internal::CacheAlignedWords;
using mutable_internal::FillHistogram;
using mutable_internal::kWordsPerBlock;
using mutable_internal::ProbeMasks;

absl::StatusOr<MutableBloomFilter> MutableBloomFilter::Create(
    const FilterOptions& options, uint64_t expected_keys) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok())
    return status;
  BloomSizing sizing;
  if (options.fpp.has_value()) {
    absl::StatusOr<BloomSizing> from_fpp =
        bloom_internal::SizeForFpp(*options.fpp);
    if (!from_fpp.ok()) return from_fpp.status();
    sizing = *from_fpp;
  } else {
    sizing = bloom_internal::SizeForBitsPerKey(*options.bits_per_key);
  }
  if (expected_keys == 0) {
    return absl::InvalidArgumentError(
        "MutableBloomFilter: expected_keys must be at least 1, got 0");
  }
  // In long double: expected_keys * c may pass 2^64.
  const long double wanted_bytes = std::ceil(
      static_cast<long double>(expected_keys) * sizing.bits_per_key / 8.0L);
  if (wanted_bytes > static_cast<long double>(kMaxMutableBloomBytes)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MutableBloomFilter: expected_keys ", expected_keys, " at ",
        sizing.bits_per_key, " bits/key needs ",
        static_cast<double>(wanted_bytes), " bytes, more than the limit of ",
        kMaxMutableBloomBytes, " (kMaxMutableBloomBytes)"));
  }
  // Whole blocks only: every block is then a regular 512-bit one, the block
  // the atomic words and the native reader's fast paths handle, and the frozen
  // body needs no irregular last block.
  const uint64_t blocks = std::max<uint64_t>(
      1, (static_cast<uint64_t>(wanted_bytes) + kBlockBytes - 1) / kBlockBytes);
  absl::StatusOr<CacheAlignedWords> words =
      CacheAlignedWords::Allocate(blocks * kWordsPerBlock);
  if (!words.ok()) return words.status();
  return MutableBloomFilter(sizing.bits_per_key, sizing.num_probes,
                            expected_keys, *std::move(words));
}

MutableBloomFilter::MutableBloomFilter(double bits_per_key, int num_probes,
                                       uint64_t expected_keys,
                                       CacheAlignedWords words)
    : bits_per_key_(bits_per_key),
      num_probes_(num_probes),
      expected_keys_(expected_keys),
      num_blocks_(words.size() / kWordsPerBlock),
      words_(std::move(words)) {}

bool MutableBloomFilter::Add(absl::string_view key) {
  return AddHash(bloom_internal::KeyHash(key));
}

bool MutableBloomFilter::AddHash(uint64_t hash) {
  return AtomicAddToBlock(
      ProbeMasks(bloom_internal::ProbeHash(hash), num_probes_),
      words_.data() + BlockOf(hash) * kWordsPerBlock);
}

bool MutableBloomFilter::MayContain(absl::string_view key) const {
  return MayContainHash(bloom_internal::KeyHash(key));
}

bool MutableBloomFilter::MayContainHash(uint64_t hash) const {
  return AtomicBlockContains(bloom_internal::ProbeHash(hash), num_probes_,
                             words_.data() + BlockOf(hash) * kWordsPerBlock);
}

void MutableBloomFilter::PrefetchHash(uint64_t hash) const {
  __builtin_prefetch(words_.data() + BlockOf(hash) * kWordsPerBlock, /*rw=*/0,
                     /*locality=*/1);
}

void MutableBloomFilter::MayContain(absl::Span<const absl::string_view> keys,
                                    bool* results) const {
  // Keys per group: enough outstanding misses to cover memory latency, few
  // enough that their blocks stay in L1 until probed (the native reader's
  // batch uses the same number).
  constexpr size_t kGroup = 64;
  uint64_t blocks[kGroup];
  uint32_t probe_hashes[kGroup];
  const std::atomic<uint64_t>* words = words_.data();
  for (size_t start = 0; start < keys.size(); start += kGroup) {
    const size_t count = std::min(kGroup, keys.size() - start);
    for (size_t i = 0; i < count; ++i) {
      const uint64_t hash = bloom_internal::KeyHash(keys[start + i]);
      blocks[i] = BlockOf(hash);
      probe_hashes[i] = bloom_internal::ProbeHash(hash);
      // One line per block: the words are cache-aligned.
      __builtin_prefetch(words + blocks[i] * kWordsPerBlock, /*rw=*/0,
                         /*locality=*/1);
    }
    for (size_t i = 0; i < count; ++i) {
      results[start + i] = AtomicBlockContains(
          probe_hashes[i], num_probes_, words + blocks[i] * kWordsPerBlock);
    }
  }
}

FillHistogram MutableBloomFilter::Fill() const {
  FillHistogram fill;
  const std::atomic<uint64_t>* words = words_.data();
  for (uint64_t block = 0; block < num_blocks_; ++block) {
    int set = 0;
    for (int w = 0; w < kWordsPerBlock; ++w) {
      set += __builtin_popcountll(
          words[block * kWordsPerBlock + w].load(std::memory_order_relaxed));
    }
    ++fill.blocks[set];
  }
  return fill;
}

uint64_t MutableBloomFilter::BitsSet() const { return Fill().BitsSet(); }

uint64_t MutableBloomFilter::ApproximateCount() const {
  const double estimate = mutable_internal::EstimateKeys(
      Fill().BitsSet(), num_blocks_, num_probes_);
  return static_cast<uint64_t>(std::llround(estimate));
}

double MutableBloomFilter::ExpectedFpp() const {
  return mutable_internal::FppFromFill(Fill(), num_probes_);
}

absl::Status MutableBloomFilter::Union(const MutableBloomFilter& other) {
  if (other.num_blocks_ != num_blocks_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MutableBloomFilter::Union: bodies differ in size: ", MemoryBytes(),
        " bytes here, ", other.MemoryBytes(), " in the other filter"));
  }
  if (other.num_probes_ != num_probes_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MutableBloomFilter::Union: probe counts differ: ", num_probes_,
        " here, ", other.num_probes_, " in the other filter"));
  }
  std::atomic<uint64_t>* mine = words_.data();
  const std::atomic<uint64_t>* theirs = other.words_.data();
  for (uint64_t w = 0; w < words_.size(); ++w) {
    const uint64_t bits = theirs[w].load(std::memory_order_relaxed);
    // As in Add: a word that already holds the bits is only read.
    if ((mine[w].load(std::memory_order_relaxed) & bits) != bits) {
      mine[w].fetch_or(bits, std::memory_order_relaxed);
    }
  }
  return absl::OkStatus();
}

}  // namespace sstfilter
