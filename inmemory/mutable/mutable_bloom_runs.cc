// Runs of MutableBloomFilter (mutable_bloom.h): a run's members sit at its
// probe bits shifted by the member, wrapping within the run's block, so a
// query reads one 64-bit window of the block per probe and ANDs them: bit m
// of the result is set iff every probe bit of member m is.

#include "filter/bloom/bloom_format.h"
#include "inmemory/mutable/atomic_block.h"
#include "inmemory/mutable/changed_blocks.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace {

using mutable_internal::kWordsPerBlock;
using mutable_internal::ProbeBitInBlock;

constexpr uint32_t kBlockBitMask = bloom::kBlockBits - 1;
// Probes a query makes before its first test for a miss.
constexpr int kProbesBeforeTest = 7;

// The probe hash of a run: the hash's upper half, as keys use theirs.
uint32_t RunProbeHash(uint64_t run_hash) {
  return static_cast<uint32_t>(run_hash >> 32);
}

// The 64 bits of a block starting at bit offset, wrapping past its end: every
// window lies in two words, the second one after the first, cyclically (one
// double-width shift, no branch).
uint64_t WindowAt(const std::atomic<uint64_t>* block, uint32_t offset) {
  const uint32_t word = offset >> 6;
  const uint64_t low = block[word].load(std::memory_order_relaxed);
  const uint64_t high =
      block[(word + 1) % kWordsPerBlock].load(std::memory_order_relaxed);
  const unsigned __int128 pair =
      static_cast<unsigned __int128>(high) << 64 | low;
  return static_cast<uint64_t>(pair >> (offset & 63));
}

}  // namespace

void MutableBloomFilter::AddRunMemberSingleWriter(uint64_t run_hash, int member,
                                                  int probes) {
  const uint32_t probe_hash = RunProbeHash(run_hash);
  mutable_internal::BlockMasks masks = {};
  for (int i = 0; i < probes; ++i) {
    const uint32_t bit =
        (ProbeBitInBlock(probe_hash, i) + static_cast<uint32_t>(member)) &
        kBlockBitMask;
    masks.word[bit >> 6] |= uint64_t{1} << (bit & 63);
  }
  std::atomic<uint64_t>* block = WritableBlock(run_hash);
  if (mutable_internal::SingleWriterAddToBlock(masks, block)) {
    NoteChanged(block);
  }
}

bool MutableBloomFilter::MayContainRunMember(uint64_t run_hash,
                                             uint64_t members,
                                             int probes) const {
  const std::atomic<uint64_t>* block = view_.BlockOf(run_hash);
  const uint32_t probe_hash = RunProbeHash(run_hash);
  uint64_t all = members;
  for (int i = 0; i < probes; ++i) {
    all &= WindowAt(block, ProbeBitInBlock(probe_hash, i));
    // In a filter about half full, a run's absent members rarely outlive
    // seven probes: one test there ends most misses early.
    if (i == kProbesBeforeTest - 1 && all == 0) return false;
  }
  return all != 0;
}

}  // namespace sstfilter
