// The mutable Bloom filter's sizing, adds, queries and fill statistics (see
// mutable_bloom.h); Freeze is in mutable_bloom_freeze.cc.

#include "inmemory/mutable/mutable_bloom.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/internal/key_hash.h"
#include "inmemory/mutable/atomic_block.h"
#include "inmemory/mutable/mutable_layout.h"

namespace sstfilter {

using bloom::BloomSizing;
using bloom::kBlockBytes;
using mutable_internal::AtomicAddToBlock;
using mutable_internal::CacheAlignedWords;
using mutable_internal::FillHistogram;
using mutable_internal::kWordsPerBlock;
using mutable_internal::ProbeMasks;
using mutable_internal::SingleWriterAddToBlock;

namespace {

// The bits set in the block at words.
int BlockBitsSet(const std::atomic<uint64_t>* words) {
  int set = 0;
  for (int w = 0; w < kWordsPerBlock; ++w) {
    set += __builtin_popcountll(words[w].load(std::memory_order_relaxed));
  }
  return set;
}

// Bits/key and probes for options; InvalidArgumentError as Create.
absl::StatusOr<BloomSizing> SizingFor(const FilterOptions& options) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok())
    return status;
  return bloom::SizeForOptions(options);
}

}  // namespace

absl::StatusOr<int> MutableBloomFilter::NumProbesFor(
    const FilterOptions& options) {
  absl::StatusOr<BloomSizing> sizing = SizingFor(options);
  if (!sizing.ok()) return sizing.status();
  return sizing->num_probes;
}

absl::StatusOr<MutableBloomFilter> MutableBloomFilter::Create(
    const FilterOptions& options, uint64_t expected_keys) {
  absl::StatusOr<BloomSizing> sizing = SizingFor(options);
  if (!sizing.ok()) return sizing.status();
  if (expected_keys == 0) {
    return absl::InvalidArgumentError(
        "MutableBloomFilter: expected_keys must be at least 1, got 0");
  }
  absl::StatusOr<uint64_t> blocks =
      BodyBlocks(expected_keys, sizing->bits_per_key);
  if (!blocks.ok()) return blocks.status();
  absl::StatusOr<CacheAlignedWords> words =
      CacheAlignedWords::Allocate(*blocks * kWordsPerBlock);
  if (!words.ok()) return words.status();
  return MutableBloomFilter(sizing->bits_per_key, sizing->num_probes,
                            expected_keys, options.self_checksum.value_or(true),
                            *std::move(words));
}

absl::StatusOr<uint64_t> MutableBloomFilter::BodyBlocks(uint64_t expected_keys,
                                                        double bits_per_key) {
  return mutable_internal::BodyBlocksFor(
      expected_keys, bits_per_key, kMaxMutableBloomBytes,
      "kMaxMutableBloomBytes", "MutableBloomFilter");
}

MutableBloomFilter::MutableBloomFilter(double bits_per_key, int num_probes,
                                       uint64_t expected_keys,
                                       bool self_checksum,
                                       CacheAlignedWords words)
    : bits_per_key_(bits_per_key),
      num_probes_(num_probes),
      expected_keys_(expected_keys),
      self_checksum_(self_checksum),
      num_blocks_(words.size() / kWordsPerBlock),
      words_(std::move(words)),
      view_{words_.data(), num_blocks_, num_probes_},
      query_(&mutable_internal::BestQueryPath(num_probes)) {}

// Adds keys in groups: hashes a group and prefetches each key's block for
// writing before adding any, so that their cache misses overlap.
template <typename AddToBlock>
void MutableBloomFilter::AddInGroups(absl::Span<const absl::string_view> keys,
                                     bool* added, AddToBlock add_to_block) {
  std::atomic<uint64_t>* blocks[mutable_internal::kQueryGroup];
  uint32_t probe_hashes[mutable_internal::kQueryGroup];
  for (size_t start = 0; start < keys.size();
       start += mutable_internal::kQueryGroup) {
    const size_t count =
        std::min(mutable_internal::kQueryGroup, keys.size() - start);
    for (size_t i = 0; i < count; ++i) {
      const uint64_t hash = bloom::KeyHash(keys[start + i]);
      blocks[i] = WritableBlock(hash);
      probe_hashes[i] = bloom::ProbeHash(hash);
      __builtin_prefetch(blocks[i], /*rw=*/1, /*locality=*/3);
    }
    for (size_t i = 0; i < count; ++i) {
      const bool changed =
          add_to_block(ProbeMasks(probe_hashes[i], num_probes_), blocks[i]);
      if (changed) NoteChanged(blocks[i]);
      if (added != nullptr) added[start + i] = changed;
    }
  }
}

std::atomic<uint64_t>* MutableBloomFilter::WritableBlock(uint64_t hash) {
  return words_.data() + (view_.BlockOf(hash) - view_.words);
}

void MutableBloomFilter::NoteChanged(const std::atomic<uint64_t>* block) {
  if (changes_ != nullptr) {
    changes_->Mark(static_cast<uint64_t>(block - words_.data()) /
                   kWordsPerBlock);
  }
}

bool MutableBloomFilter::Add(absl::string_view key) {
  return AddHash(bloom::KeyHash(key));
}

bool MutableBloomFilter::AddHash(uint64_t hash) {
  std::atomic<uint64_t>* block = WritableBlock(hash);
  const bool changed =
      AtomicAddToBlock(ProbeMasks(bloom::ProbeHash(hash), num_probes_), block);
  if (changed) NoteChanged(block);
  return changed;
}

void MutableBloomFilter::Add(absl::Span<const absl::string_view> keys,
                             bool* added) {
  AddInGroups(keys, added, AtomicAddToBlock);
}

bool MutableBloomFilter::AddSingleWriter(absl::string_view key) {
  const uint64_t hash = bloom::KeyHash(key);
  std::atomic<uint64_t>* block = WritableBlock(hash);
  const bool changed = SingleWriterAddToBlock(
      ProbeMasks(bloom::ProbeHash(hash), num_probes_), block);
  if (changed) NoteChanged(block);
  return changed;
}

void MutableBloomFilter::AddSingleWriter(
    absl::Span<const absl::string_view> keys, bool* added) {
  AddInGroups(keys, added, SingleWriterAddToBlock);
}

FillHistogram MutableBloomFilter::Fill() const {
  FillHistogram fill;
  const std::atomic<uint64_t>* words = words_.data();
  for (uint64_t block = 0; block < num_blocks_; ++block) {
    ++fill.blocks[BlockBitsSet(&words[block * kWordsPerBlock])];
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

double MutableBloomFilter::SampledExpectedFpp(uint64_t max_blocks) const {
  const uint64_t stride = (num_blocks_ + max_blocks - 1) / max_blocks;
  FillHistogram fill;
  const std::atomic<uint64_t>* words = words_.data();
  for (uint64_t block = 0; block < num_blocks_; block += stride) {
    ++fill.blocks[BlockBitsSet(&words[block * kWordsPerBlock])];
  }
  return mutable_internal::FppFromFill(fill, num_probes_);
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
      NoteChanged(&mine[w - w % kWordsPerBlock]);
    }
  }
  return absl::OkStatus();
}

}  // namespace sstfilter
