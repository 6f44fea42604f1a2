// The legacy Bloom filter's sizing, builder and reader (legacy_bloom.h).

#include "filter/rocksdb/legacy_bloom.h"

#include <algorithm>
#include <string>
#include <vector>

#include "util/bloom_math.h"
#include "util/coding.h"
#include "util/rocksdb_hash.h"

namespace sstfilter {
namespace rocksdb_internal {

int LegacyBloomProbes(int whole_bits_per_key) {
  // RocksDB rounds 0.69 * bits down "to reduce probing cost a little bit",
  // in double arithmetic.
  constexpr double kProbesPerBit = 0.69;  // about ln 2
  constexpr int kMinLegacyChosenProbes = 1;
  constexpr int kMaxLegacyChosenProbes = 30;
  const int k = static_cast<int>(whole_bits_per_key * kProbesPerBit);
  return std::clamp(k, kMinLegacyChosenProbes, kMaxLegacyChosenProbes);
}

uint32_t LegacyBloomLines(uint64_t num_hashes, int whole_bits_per_key) {
  if (num_hashes == 0) return 0;
  const uint64_t total_bits =
      std::min(num_hashes * static_cast<uint64_t>(whole_bits_per_key),
               kMaxLegacyTotalBits);
  auto lines =
      static_cast<uint32_t>((total_bits + kCacheLineBits - 1) / kCacheLineBits);
  if (lines % 2 == 0) ++lines;
  return lines;
}

namespace {

class LegacyBloomBuilder : public FilterBuilder {
 public:
  explicit LegacyBloomBuilder(int whole_bits_per_key)
      : whole_bits_per_key_(whole_bits_per_key),
        k_(LegacyBloomProbes(whole_bits_per_key)) {}

  void AddKey(absl::string_view key) override {
    const uint32_t hash = RocksDbBloomHash(key);
    ++num_added_;
    // As RocksDB (LegacyBloomBitsBuilder::AddKey): a repeat of the previous
    // hash is not counted, which changes the size.
    if (hashes_.empty() || hashes_.back() != hash) hashes_.push_back(hash);
  }

  size_t NumAdded() const override { return num_added_; }

  void Finish(std::string* dst) override {
    const uint32_t num_lines =
        LegacyBloomLines(hashes_.size(), whole_bits_per_key_);
    const size_t body_bytes = size_t{num_lines} * kCacheLineBytes;
    const size_t start = dst->size();
    dst->resize(start + body_bytes + kTrailerBytes, '\0');
    char* body = &(*dst)[start];
    for (uint32_t hash : hashes_) {
      LegacyBloomAddToLine(
          hash, k_, kLog2CacheLineBits,
          body + (uint64_t{hash % num_lines} << kLog2CacheLineBytes));
    }
    body[body_bytes] = static_cast<char>(k_);  // Remember # of probes
    EncodeFixed32(body + body_bytes + 1, num_lines);
    hashes_.clear();
    num_added_ = 0;
  }

 private:
  const int whole_bits_per_key_;
  const int k_;
  size_t num_added_ = 0;
  std::vector<uint32_t> hashes_;  // 4 bytes per distinct key
};

class LegacyBloomReader : public FilterReader {
 public:
  LegacyBloomReader(const char* body, uint32_t num_lines, uint32_t line_bytes,
                    int k)
      : body_(body),
        num_lines_(num_lines),
        log2_line_bytes_(__builtin_ctz(line_bytes)),
        k_(k) {}

  bool MayMatch(absl::string_view key) const override {
    return HashMatches(RocksDbBloomHash(key));
  }

  // As RocksDB's batched reader: hash every key of a step and prefetch the
  // first and last byte of its line, then probe.
  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    uint32_t hashes[kBatchStep];
    const char* lines[kBatchStep];
    const uint64_t last_byte = (uint64_t{1} << log2_line_bytes_) - 1;
    for (size_t start = 0; start < keys.size(); start += kBatchStep) {
      const size_t n = std::min(kBatchStep, keys.size() - start);
      for (size_t i = 0; i < n; ++i) {
        hashes[i] = RocksDbBloomHash(keys[start + i]);
        lines[i] = Line(hashes[i]);
        __builtin_prefetch(lines[i], /*rw=*/0, /*locality=*/1);
        __builtin_prefetch(lines[i] + last_byte, /*rw=*/0, /*locality=*/1);
      }
      for (size_t i = 0; i < n; ++i) {
        results[start + i] = LegacyBloomLineMatches(
            hashes[i], k_, log2_line_bytes_ + 3, lines[i]);
      }
    }
  }

  // Measured: the fraction of kFppSampleHashes evenly spread hash values that
  // match (SampledFpp, util/bloom_math.h). Line choice and probes come from
  // the same 32 bits, and probes in arithmetic progression repeat positions
  // (all k coincide for 1 hash in 512), so no formula of the fill fits; the
  // sample sees all of it. The sampling error is about
  // 1 / sqrt(kFppSampleHashes * p) relative (4% at 1%). When no sample
  // matches, the rate of the coinciding probes alone stands in: the fraction of
  // bits set divided by the bits per line, the chance that delta is 0 modulo
  // the line.
  double ExpectedFpp() const override {
    const double sampled =
        SampledFpp([this](uint32_t hash) { return HashMatches(hash); });
    if (sampled > 0) return sampled;
    const uint64_t body_bytes = uint64_t{num_lines_} << log2_line_bytes_;
    uint64_t set = 0;
    for (uint64_t i = 0; i < body_bytes; ++i) {
      set += static_cast<uint64_t>(
          __builtin_popcount(static_cast<uint8_t>(body_[i])));
    }
    const double line_bits =
        8.0 * static_cast<double>(uint64_t{1} << log2_line_bytes_);
    return static_cast<double>(set) / (8.0 * body_bytes) / line_bits;
  }

 private:
  const char* Line(uint32_t hash) const {
    return body_ + (uint64_t{hash % num_lines_} << log2_line_bytes_);
  }

  bool HashMatches(uint32_t hash) const {
    return LegacyBloomMayMatch(hash, k_, body_, num_lines_, log2_line_bytes_);
  }

  const char* const body_;
  const uint32_t num_lines_;
  const int log2_line_bytes_;
  const int k_;
};

}  // namespace

std::unique_ptr<FilterBuilder> NewLegacyBloomBuilder(int whole_bits_per_key) {
  return std::make_unique<LegacyBloomBuilder>(whole_bits_per_key);
}

std::unique_ptr<FilterReader> NewLegacyBloomReader(const char* body,
                                                   uint32_t num_lines,
                                                   uint32_t line_bytes, int k) {
  return std::make_unique<LegacyBloomReader>(body, num_lines, line_bytes, k);
}

}  // namespace rocksdb_internal
}  // namespace sstfilter
