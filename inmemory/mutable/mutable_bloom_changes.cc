// MutableBloomFilter's change tracking: TrackChanges, TakeChangedBlocks,
// SaveBlocks and ApplySavedBlocks.
//
// SaveBlocks' layout (varints as LevelDB's, words little-endian):
//   fixed64 the filter's block count
//   varint64 run count
//   per run of consecutive blocks: varint64 its first block minus the end of
//   the run before (0 for the first run), varint64 its length in blocks,
//   then its words.

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "inmemory/mutable/atomic_block.h"
#include "inmemory/mutable/changed_blocks.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "util/coding.h"

namespace sstfilter {

using mutable_internal::ChangedBlocks;
using mutable_internal::kWordsPerBlock;

namespace {
constexpr uint64_t kBlockBytes = kWordsPerBlock * sizeof(uint64_t);
}  // namespace

absl::Status MutableBloomFilter::TrackChanges() {
  absl::StatusOr<std::unique_ptr<ChangedBlocks>> changes =
      ChangedBlocks::Create(num_blocks_);
  if (!changes.ok()) return changes.status();
  changes_ = *std::move(changes);
  return absl::OkStatus();
}

std::vector<uint64_t> MutableBloomFilter::TakeChangedBlocks() {
  return changes_ == nullptr ? std::vector<uint64_t>() : changes_->Take();
}

std::string MutableBloomFilter::SaveBlocks(
    absl::Span<const uint64_t> blocks) const {
  // Runs of consecutive blocks: [first, end).
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  for (uint64_t block : blocks) {
    if (!runs.empty() && runs.back().second == block) {
      ++runs.back().second;
    } else {
      runs.emplace_back(block, block + 1);
    }
  }
  std::string saved;
  saved.reserve(8 + 10 + runs.size() * 20 + blocks.size() * kBlockBytes);
  PutFixed64(&saved, num_blocks_);
  PutVarint64(&saved, runs.size());
  const std::atomic<uint64_t>* words = words_.data();
  uint64_t previous_end = 0;
  for (const auto& [first, end] : runs) {
    PutVarint64(&saved, first - previous_end);
    PutVarint64(&saved, end - first);
    const size_t body = saved.size();
    saved.resize(body + (end - first) * kBlockBytes);
    // One relaxed load per word, as Save reads them.
    for (uint64_t w = first * kWordsPerBlock; w < end * kWordsPerBlock; ++w) {
      EncodeFixed64(&saved[body + (w - first * kWordsPerBlock) * 8],
                    words[w].load(std::memory_order_relaxed));
    }
    previous_end = end;
  }
  return saved;
}

absl::Status MutableBloomFilter::ApplySavedBlocks(absl::string_view saved) {
  const auto error = [](const auto&... what) {
    return absl::DataLossError(
        absl::StrCat("MutableBloomFilter saved blocks: ", what...));
  };
  if (saved.size() < 8) {
    return error("truncated: ", saved.size(), " bytes, fewer than 8");
  }
  const uint64_t num_blocks = DecodeFixed64(saved.data());
  if (num_blocks != num_blocks_) {
    return error("saved from a filter of ", num_blocks, " blocks, not ",
                 num_blocks_);
  }
  absl::string_view in = saved.substr(8);
  uint64_t run_count = 0;
  if (!GetVarint64(&in, &run_count)) return error("truncated run count");
  // Checked in full before any word is ORed in.
  struct Run {
    uint64_t first;
    uint64_t length;
    const char* words;
  };
  std::vector<Run> runs;
  uint64_t previous_end = 0;
  for (uint64_t r = 0; r < run_count; ++r) {
    uint64_t gap = 0;
    uint64_t length = 0;
    if (!GetVarint64(&in, &gap) || !GetVarint64(&in, &length)) {
      return error("truncated in run ", r, " of ", run_count);
    }
    if (length == 0 || (r > 0 && gap == 0) ||
        gap > num_blocks_ - previous_end ||
        length > num_blocks_ - previous_end - gap) {
      return error("run ", r, " (", gap, " blocks on, ", length,
                   " long) is not ascending within ", num_blocks_, " blocks");
    }
    if (length * kBlockBytes > in.size()) {
      return error("truncated: run ", r, " holds ", length * kBlockBytes,
                   " bytes, ", in.size(), " left");
    }
    runs.push_back({previous_end + gap, length, in.data()});
    in.remove_prefix(length * kBlockBytes);
    previous_end += gap + length;
  }
  if (!in.empty()) return error(in.size(), " bytes after the last run");
  std::atomic<uint64_t>* words = words_.data();
  for (const Run& run : runs) {
    const uint64_t first_word = run.first * kWordsPerBlock;
    for (uint64_t w = 0; w < run.length * kWordsPerBlock; ++w) {
      const uint64_t bits = DecodeFixed64(run.words + w * 8);
      if (bits != 0) {
        words[first_word + w].fetch_or(bits, std::memory_order_relaxed);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace sstfilter
