// The native Bloom filter's readers: a portable one, an AVX2 one (chosen at run
// time on x86-64 CPUs that have AVX2; bloom_reader_avx2.cc) and a constant one
// for filters that match nothing or everything. Also the per-key query steps
// the readers share with the policy's KeyMayMatch, inline so that every caller
// compiles them into its own loop.
//
// Internal header: include filter/bloom/bloom.h instead.

#ifndef SSTFILTER_FILTER_BLOOM_BLOOM_READER_H_
#define SSTFILTER_FILTER_BLOOM_BLOOM_READER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_probe.h"
#include "filter/filter_policy.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace bloom_internal {

// Readers of a well-formed filter (filter.verdict == Verdict::kProbe).
std::unique_ptr<FilterReader> NewScalarReader(const ParsedFilter& filter);
#if SSTFILTER_HAVE_AVX2_PATH
// REQUIRES: CpuHasAvx2().
std::unique_ptr<FilterReader> NewAvx2Reader(const ParsedFilter& filter);

// One query on the AVX2 path, for a caller compiled without AVX2 (the probe
// code inlines only into functions that carry target("avx2")).
// REQUIRES: CpuHasAvx2().
bool Avx2MayMatchOutOfLine(const ParsedFilter& filter, absl::string_view key);
#endif

// The formula's estimate for a well-formed filter; never 0, which the API
// reserves for a filter that matches nothing (the estimate underflows for very
// sparse bodies, and a crafted body can match keys it was not built from).
double ExpectedFppOf(const ParsedFilter& filter);

// The portable reader's base: the parsed filter, whole.
class LocalBloomReaderBase : public FilterReader {
 public:
  explicit LocalBloomReaderBase(const ParsedFilter& filter) : filter_(filter) {}

  double ExpectedFpp() const override { return ExpectedFppOf(filter_); }

 protected:
  const ParsedFilter filter_;
};

// What the AVX2 reader keeps of a well-formed filter: the body pointer, and the
// body's size in bits with k - 1 in the low kProbeFieldBits bits. With the
// vtable pointer that makes a 24-byte reader, so that a store's thousands of
// readers keep few cache lines hot (bloom.h, "Reader size"). Everything else
// is derived: the block layout from the size, n from the trailer's varint,
// which follows the body.
class PackedFilter {
 public:
  // Whether the body's size in bits leaves room for k; false only for bodies
  // of 2^56 bytes or more, larger than any address space in use.
  static bool Fits(const ParsedFilter& filter) {
    return filter.layout.body_bits < (uint64_t{1} << (64 - kProbeFieldBits));
  }

  // REQUIRES: filter.verdict == Verdict::kProbe and Fits(filter).
  explicit PackedFilter(const ParsedFilter& filter)
      : body_(filter.body),
        bits_and_probes_(filter.layout.body_bits << kProbeFieldBits |
                         static_cast<uint64_t>(filter.num_probes - 1)) {}

  const char* body() const { return body_; }
  uint64_t body_bits() const { return bits_and_probes_ >> kProbeFieldBits; }
  int num_probes() const {
    return static_cast<int>(bits_and_probes_ & kProbeFieldMask) + 1;
  }

  // The filter as ParseFilter gave it, but for num_keys (0: not decoded).
  ParsedFilter ForProbing() const;
  // n, decoded from the trailer's varint.
  uint64_t NumKeys() const;

 private:
  static constexpr int kProbeFieldBits = 5;
  static constexpr uint64_t kProbeFieldMask = (1u << kProbeFieldBits) - 1;
  static_assert(kMaxProbes <= (1 << kProbeFieldBits), "k - 1 fits the field");

  const char* body_;
  uint64_t bits_and_probes_;
};

// Keys per batch step: all are hashed and their blocks prefetched before any is
// probed, so their cache misses overlap.
constexpr size_t kQueryBatch = 64;

struct BatchSlot {
  uint64_t block;
  uint32_t probe_hash;
};

inline void PrepareBatch(const ParsedFilter& filter,
                         const absl::string_view* keys, size_t count,
                         BatchSlot* slots) {
  // Every block has at least this many bytes (only a one-block body may be
  // shorter than kBlockBytes): the prefetches stay inside the body.
  const uint64_t last_byte =
      std::min<uint64_t>(kBlockBytes, filter.layout.body_bytes) - 1;
  // A block is one cache line only if the caller's buffer is 64-byte aligned;
  // otherwise it spans two, and both are needed (the AVX2 path loads all of
  // it), so its last byte is prefetched too.
  const bool blocks_span_two_lines =
      reinterpret_cast<uintptr_t>(filter.body) % kBlockBytes != 0;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t hash = KeyHash(keys[i]);
    slots[i].block =
        BlockIndex(hash, filter.layout.body_bits, filter.layout.num_blocks);
    slots[i].probe_hash = ProbeHash(hash);
    const char* block = filter.body + slots[i].block * kBlockBytes;
    __builtin_prefetch(block, /*rw=*/0, /*locality=*/1);
    if (blocks_span_two_lines) {
      __builtin_prefetch(block + last_byte, /*rw=*/0, /*locality=*/1);
    }
  }
}

inline bool ScalarProbe(const ParsedFilter& filter, uint64_t block,
                        uint32_t probe_hash) {
  const char* data = filter.body + block * kBlockBytes;
  if (block < filter.layout.regular_blocks) {
    return ScalarProbeRegularBlock(probe_hash, filter.num_probes, data);
  }
  return ScalarProbeBlock(probe_hash, filter.num_probes,
                          filter.layout.last_block_bits, data);
}

inline bool ScalarMayMatch(const ParsedFilter& filter, absl::string_view key) {
  const uint64_t hash = KeyHash(key);
  return ScalarProbe(
      filter,
      BlockIndex(hash, filter.layout.body_bits, filter.layout.num_blocks),
      ProbeHash(hash));
}

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_BLOOM_READER_H_
