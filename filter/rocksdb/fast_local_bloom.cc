// FastLocalBloom's sizing, builder and reader (fast_local_bloom.h).

#include "filter/rocksdb/fast_local_bloom.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "util/coding.h"
#include "util/rocksdb_hash.h"

namespace sstfilter {
namespace rocksdb_internal {

int FastLocalBloomProbes(int millibits_per_key) {
  // RocksDB's table (util/bloom_impl.h ChooseNumProbes): upper bound of
  // millibits per key for k = 1, 2, ... 12, measured there as the most
  // accurate k for each range.
  static constexpr int kUpperMillibits[] = {2080,  3580,  5100,  6640,
                                            8300,  10070, 11720, 14001,
                                            16050, 18300, 22001, 25501};
  constexpr int kTableProbes = sizeof(kUpperMillibits) / sizeof(int);
  for (int k = 1; k <= kTableProbes; ++k) {
    if (millibits_per_key <= kUpperMillibits[k - 1]) return k;
  }
  // Above the table: about one probe per 2 bits/key, topping out at 24
  // (three AVX2 steps of 8 probes).
  constexpr int kMaxChosenProbes = 24;
  constexpr int kTopMillibits = 50000;
  constexpr int kMillibitsPerProbe = 2000;
  if (millibits_per_key > kTopMillibits) return kMaxChosenProbes;
  return (millibits_per_key - 1) / kMillibitsPerProbe - 1;
}

uint64_t FastLocalBloomBodyBytes(uint64_t num_hashes, int millibits_per_key) {
  constexpr uint64_t kMillibitsPerByte = 8000;
  const uint64_t raw =
      std::min((num_hashes * static_cast<uint64_t>(millibits_per_key) +
                kMillibitsPerByte - 1) /
                   kMillibitsPerByte,
               kMaxFastLocalBloomBodyBytes);
  return (raw + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
}

namespace {

// Adds run this many hashes ahead of their prefetches: enough to cover a miss
// to memory at a few nanoseconds per add.
constexpr size_t kAddPrefetchDistance = 8;
// ExpectedFpp reads at most this many lines, evenly spaced.
constexpr uint32_t kFppSampleLines = uint32_t{1} << 16;

class FastLocalBloomBuilder : public FilterBuilder {
 public:
  explicit FastLocalBloomBuilder(int millibits_per_key)
      : millibits_per_key_(millibits_per_key),
        k_(FastLocalBloomProbes(millibits_per_key)) {}

  void AddKey(absl::string_view key) override {
    const uint64_t hash = RocksDbHash64(key);
    ++num_added_;
    // RocksDB skips a hash equal to the previous one (XXPH3FilterBitsBuilder::
    // AddKey), which changes the size: so must we.
    if (hashes_.empty() || hashes_.back() != hash) hashes_.push_back(hash);
  }

  size_t NumAdded() const override { return num_added_; }

  void Finish(std::string* dst) override {
    const uint64_t body_bytes =
        FastLocalBloomBodyBytes(hashes_.size(), millibits_per_key_);
    const size_t start = dst->size();
    dst->resize(start + body_bytes + kTrailerBytes, '\0');
    char* body = &(*dst)[start];
    const auto num_lines = static_cast<uint32_t>(body_bytes / kCacheLineBytes);
    if (num_lines > 0) {
      const size_t n = hashes_.size();
      for (size_t i = 0; i < n; ++i) {
        if (i + kAddPrefetchDistance < n) {
          __builtin_prefetch(
              body + FastLocalBloomLineOffset(hashes_[i + kAddPrefetchDistance],
                                              num_lines),
              /*rw=*/1, /*locality=*/1);
        }
        FastLocalBloomAddToLine(
            hashes_[i], k_,
            body + FastLocalBloomLineOffset(hashes_[i], num_lines));
      }
    }
    char* trailer = body + body_bytes;
    trailer[0] = static_cast<char>(kNewBloomMarker);
    trailer[1] = static_cast<char>(kFastLocalBloomSubImpl);
    trailer[2] = static_cast<char>(k_);  // block-size field 0: 64-byte lines
    // trailer[3..4] stay 0 (reserved).
    hashes_.clear();
    num_added_ = 0;
  }

 private:
  const int millibits_per_key_;
  const int k_;
  size_t num_added_ = 0;
  std::vector<uint64_t> hashes_;  // 8 bytes per distinct key
};

int LineBitsSet(const char* line) {
  int set = 0;
  for (uint32_t i = 0; i < kCacheLineBytes; i += 8) {
    set += __builtin_popcountll(DecodeFixed64(line + i));
  }
  return set;
}

class FastLocalBloomReader : public FilterReader {
 public:
  FastLocalBloomReader(const char* body, uint32_t num_lines, int k)
      : body_(body), num_lines_(num_lines), k_(k) {}

  bool MayMatch(absl::string_view key) const override {
    return FastLocalBloomMayMatch(RocksDbHash64(key), k_, body_, num_lines_);
  }

  // As RocksDB's batched reader: hash every key of a step and prefetch both
  // cache lines its line may straddle (the body need not be 64-byte aligned),
  // then probe.
  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    uint64_t hashes[kBatchStep];
    const char* lines[kBatchStep];
    for (size_t start = 0; start < keys.size(); start += kBatchStep) {
      const size_t n = std::min(kBatchStep, keys.size() - start);
      for (size_t i = 0; i < n; ++i) {
        hashes[i] = RocksDbHash64(keys[start + i]);
        lines[i] = body_ + FastLocalBloomLineOffset(hashes[i], num_lines_);
        __builtin_prefetch(lines[i], /*rw=*/0, /*locality=*/1);
        __builtin_prefetch(lines[i] + kCacheLineBytes - 1, /*rw=*/0,
                           /*locality=*/1);
      }
      for (size_t i = 0; i < n; ++i) {
        results[start + i] = FastLocalBloomLineMatches(hashes[i], k_, lines[i]);
      }
    }
  }

  // The probability that k independent uniform probes into a random line all
  // hit set bits: the mean over lines of (bits set / 512)^k. Lines are chosen
  // uniformly (multiply-shift of a uniform hash), so evenly spaced lines are
  // a fair sample.
  double ExpectedFpp() const override {
    const uint32_t step = std::max<uint32_t>(1, num_lines_ / kFppSampleLines);
    double sampled = MeanLineFpp(step);
    // A sparse filter may have bits only outside the sample.
    if (sampled == 0 && step > 1) sampled = MeanLineFpp(1);
    if (sampled == 0) return 0.0;  // no bit set: no probe can match
    // Never 0 for a filter that can match (0 means "matches nothing").
    return std::max(sampled, std::numeric_limits<double>::min());
  }

 private:
  double MeanLineFpp(uint32_t step) const {
    double total = 0;
    uint32_t count = 0;
    for (uint64_t line = 0; line < num_lines_; line += step, ++count) {
      const int set = LineBitsSet(body_ + line * kCacheLineBytes);
      total += std::pow(static_cast<double>(set) / kCacheLineBits, k_);
    }
    return total / count;
  }

  const char* const body_;
  const uint32_t num_lines_;
  const int k_;
};

}  // namespace

std::unique_ptr<FilterBuilder> NewFastLocalBloomBuilder(int millibits_per_key) {
  return std::make_unique<FastLocalBloomBuilder>(millibits_per_key);
}

std::unique_ptr<FilterReader> NewFastLocalBloomReader(const char* body,
                                                      uint32_t num_lines,
                                                      int k) {
  return std::make_unique<FastLocalBloomReader>(body, num_lines, k);
}

}  // namespace rocksdb_internal
}  // namespace sstfilter
