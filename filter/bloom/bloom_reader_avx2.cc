// The native Bloom filter's AVX2 reader (see bloom_reader.h). Every function
// that runs the AVX2 probe code carries target("avx2"), so that the code
// inlines and the library needs no global -mavx2; the policy creates this
// reader only when CpuHasAvx2().

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/bloom/bloom_reader.h"

#if SSTFILTER_HAVE_AVX2_PATH

namespace sstfilter {
namespace bloom_internal {
namespace {

// kRounds: see Avx2ProbeWords (0: k counted at run time).
template <int kRounds>
__attribute__((target("avx2"), always_inline)) inline bool Avx2Probe(
    const ParsedFilter& filter, uint64_t block, uint32_t probe_hash) {
  const char* data = filter.body + block * kBlockBytes;
  if (block < filter.layout.regular_blocks) {
    return Avx2ProbeRegularBlock<kRounds>(probe_hash, filter.num_probes, data);
  }
  return ScalarProbeBlock(probe_hash, filter.num_probes,
                          filter.layout.last_block_bits, data);
}

template <int kRounds>
__attribute__((target("avx2"), always_inline)) inline bool Avx2MayMatchHash(
    const ParsedFilter& filter, uint64_t hash) {
  return Avx2Probe<kRounds>(
      filter,
      BlockIndex(hash, filter.layout.body_bits, filter.layout.num_blocks),
      ProbeHash(hash));
}

template <int kRounds>
__attribute__((target("avx2"), always_inline)) inline bool Avx2MayMatch(
    const ParsedFilter& filter, absl::string_view key) {
  return Avx2MayMatchHash<kRounds>(filter, KeyHash(key));
}

// One class per number of 8-probe rounds, so that each query runs straight-line
// code for its filter's k, and for one round one class per k (kProbes > 0),
// so that the lanes a query tests are a constant: the usual k of 1..8 (fpp
// down to about 0.3%) saves the four instructions that select them from k at
// run time, of about 60 per query (NewAvx2Reader lists the classes). Its
// state is a PackedFilter: 24 bytes with the vtable pointer (bloom.h, "Reader
// size").
template <int kRounds, int kProbes>
class Avx2Reader final : public FilterReader {
  static_assert(kProbes == 0 || ProbeRounds(kProbes) == kRounds,
                "kProbes takes kRounds rounds");

 public:
  explicit Avx2Reader(const ParsedFilter& filter) : filter_(filter) {}

  // Split at 16 bytes, as the compact filter's readers are (burr_reader.h):
  // the code for longer keys' hash (and past 128 bytes, its library call)
  // stays out of the common path, which then saves no registers and does not
  // align its stack.
  __attribute__((target("avx2"))) bool MayMatch(
      absl::string_view key) const override {
    if (key.size() <= kMaxShortKeyBytes) {
      return MayMatchHash(ShortKeyHash(key));
    }
    return MayMatchLonger(key);
  }

  __attribute__((target("avx2"))) void MayMatch(
      absl::Span<const absl::string_view> keys, bool* results) const override {
    ParsedFilter filter = filter_.ForProbing();
    filter.num_probes = NumProbes();
    BatchSlot slots[kQueryBatch];
    for (size_t start = 0; start < keys.size(); start += kQueryBatch) {
      const size_t count = std::min(kQueryBatch, keys.size() - start);
      PrepareBatch(filter, keys.data() + start, count, slots);
      for (size_t i = 0; i < count; ++i) {
        results[start + i] =
            Avx2Probe<kRounds>(filter, slots[i].block, slots[i].probe_hash);
      }
    }
  }

  double ExpectedFpp() const override {
    ParsedFilter filter = filter_.ForProbing();
    filter.num_keys = filter_.NumKeys();
    return ExpectedFppOf(filter);
  }

 private:
  // BlockIndex and Avx2Probe for the blocks before the last, which are all
  // regular (bloom_format.h, BodyLayout). A bit at least two blocks' worth
  // below the body's end, bit + 2 * kBlockBits - 1 < body_bits, lies in block
  // (bit >> 9) <= body_bits / kBlockBits - 2 = num_blocks - 2: regular and not
  // the last (bodies under two blocks never pass). Bits nearer the end, in the
  // last block or in up to one regular block before it, take the general path,
  // which answers the same. One comparison with the size already in a
  // register, where testing the block against num_blocks - 1 derives both.
  __attribute__((target("avx2"), always_inline)) bool MayMatchHash(
      uint64_t hash) const {
    const uint64_t body_bits = filter_.body_bits();
    const uint64_t bit = BodyBitOfHash(hash, body_bits);
    if (__builtin_expect(bit + (2 * kBlockBits - 1) >= body_bits, 0)) {
      return MayMatchNearTheEnd(hash);
    }
    return Avx2ProbeRegularBlock<kRounds>(
        ProbeHash(hash), NumProbes(),
        filter_.body() + (bit >> kLog2BlockBits) * kBlockBytes);
  }

  // A compile-time constant where the class has one.
  __attribute__((always_inline)) int NumProbes() const {
    return kProbes > 0 ? kProbes : filter_.num_probes();
  }

  __attribute__((target("avx2"), noinline)) bool MayMatchNearTheEnd(
      uint64_t hash) const {
    return Avx2MayMatchHash<kRounds>(filter_.ForProbing(), hash);
  }

  __attribute__((target("avx2"), noinline)) bool MayMatchLonger(
      absl::string_view key) const {
    return MayMatchHash(KeyHash(key));
  }

  const PackedFilter filter_;
};

static_assert(sizeof(Avx2Reader<1, 6>) == 3 * sizeof(void*),
              "a vtable pointer and a PackedFilter");

}  // namespace

__attribute__((target("avx2"), noinline)) bool Avx2MayMatchOutOfLine(
    const ParsedFilter& filter, absl::string_view key) {
  return Avx2MayMatch<0>(filter, key);
}

std::unique_ptr<FilterReader> NewAvx2Reader(const ParsedFilter& filter) {
  if (!PackedFilter::Fits(filter)) return NewScalarReader(filter);
  switch (filter.num_probes) {
    case 1:
      return std::make_unique<Avx2Reader<1, 1>>(filter);
    case 2:
      return std::make_unique<Avx2Reader<1, 2>>(filter);
    case 3:
      return std::make_unique<Avx2Reader<1, 3>>(filter);
    case 4:
      return std::make_unique<Avx2Reader<1, 4>>(filter);
    case 5:
      return std::make_unique<Avx2Reader<1, 5>>(filter);
    case 6:
      return std::make_unique<Avx2Reader<1, 6>>(filter);
    case 7:
      return std::make_unique<Avx2Reader<1, 7>>(filter);
    case 8:
      return std::make_unique<Avx2Reader<1, 8>>(filter);
  }
  switch (ProbeRounds(filter.num_probes)) {
    case 2:
      return std::make_unique<Avx2Reader<2, 0>>(filter);
    case 3:
      return std::make_unique<Avx2Reader<3, 0>>(filter);
    default:
      return std::make_unique<Avx2Reader<4, 0>>(filter);
  }
}

}  // namespace bloom_internal
}  // namespace sstfilter

#endif  // SSTFILTER_HAVE_AVX2_PATH
