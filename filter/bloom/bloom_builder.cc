// The native Bloom filter's builder (see bloom_builder.h): the hash list that
// holds the keys until Finish, and the pass that sets their bits.

#include "filter/bloom/bloom_builder.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_probe.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/internal/added_hashes.h"
#include "filter/internal/chunk_list.h"
#include "util/coding.h"

namespace sstfilter {
namespace bloom_internal {
namespace {

using filter_internal::ChunkList;

// The hashes a builder holds: 8 bytes per key, plus partly filled chunks (at
// most 32 KB, or 1 MB once split: 4 KB per bucket). Past kBucketThreshold
// hashes they are split by their top kBucketBits bits. A key's block is a
// monotonic function of its hash (the multiply-shift of BlockIndex), so each
// bucket covers a contiguous 1/256 of the body whatever its final size, and
// ForEach visits the hashes bucket by bucket: setting bits then touches a
// window of the body at a time (0.5 MB for 10^8 keys) that stays in L2 and the
// TLB, not the whole body at random. The bits set do not depend on the order.
class HashList {
 public:
  void Add(uint64_t hash) {
    if (buckets_.empty()) {
      unsorted_.Add(hash);
      if (unsorted_.size() == kBucketThreshold) SplitIntoBuckets();
    } else {
      buckets_[hash >> (64 - kBucketBits)].Add(hash);
    }
    ++size_;
  }
  uint64_t size() const { return size_; }
  void Clear() {
    unsorted_.Clear();
    buckets_.clear();
    size_ = 0;
  }
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    unsorted_.ForEach(fn);
    for (const ChunkList& bucket : buckets_) bucket.ForEach(fn);
  }

 private:
  static constexpr int kBucketBits = 8;
  static constexpr uint64_t kBucketThreshold = uint64_t{1} << 20;  // hashes
  static constexpr uint64_t kBucketChunkHashes = 512;              // 4 KB

  void SplitIntoBuckets() {
    buckets_.reserve(uint64_t{1} << kBucketBits);
    for (uint64_t b = 0; b < (uint64_t{1} << kBucketBits); ++b) {
      buckets_.emplace_back(kBucketChunkHashes);
    }
    // Chunk by chunk, freeing each once moved: never two copies of a hash.
    unsorted_.Drain([this](uint64_t hash) {
      buckets_[hash >> (64 - kBucketBits)].Add(hash);
    });
  }

  ChunkList unsorted_;              // before the split
  std::vector<ChunkList> buckets_;  // after it
  uint64_t size_ = 0;
};

// Sets the bits of every hash in a zeroed body. Blocks are touched in hash
// order, i.e. at random, so each block is prefetched kAddPrefetchDistance
// hashes before its bits are set. kFixedProbes > 0 is k known at compile time
// (the probe loop unrolls); 0 reads k at run time.
template <int kFixedProbes, typename Hashes>
void AddHashesImpl(const Hashes& hashes, int k, const BodyLayout& layout,
                   char* body) {
  if (kFixedProbes > 0) k = kFixedProbes;
  constexpr uint64_t kAddPrefetchDistance = 16;  // hashes; a power of two
  struct Pending {
    uint64_t block;
    uint32_t probe_hash;
  };
  Pending ring[kAddPrefetchDistance];
  uint64_t count = 0;
  const auto add = [&](const Pending& pending) {
    char* block = body + pending.block * kBlockBytes;
    if (pending.block < layout.regular_blocks) {
      AddToRegularBlock(pending.probe_hash, k, block);
    } else {
      AddToBlock(pending.probe_hash, k, layout.last_block_bits, block);
    }
  };
  hashes.ForEach([&](uint64_t hash) {
    const uint64_t block =
        BlockIndex(hash, layout.body_bits, layout.num_blocks);
    __builtin_prefetch(body + block * kBlockBytes, /*rw=*/1, /*locality=*/3);
    Pending& slot = ring[count % kAddPrefetchDistance];
    if (count >= kAddPrefetchDistance) add(slot);
    slot = Pending{block, ProbeHash(hash)};
    ++count;
  });
  const uint64_t first =
      count > kAddPrefetchDistance ? count - kAddPrefetchDistance : 0;
  for (uint64_t i = first; i < count; ++i) add(ring[i % kAddPrefetchDistance]);
}

// Unrolled for the k that sizing from fpp 50%..10^-6 gives; any other k loops.
template <typename Hashes>
void AddHashes(const Hashes& hashes, int k, const BodyLayout& layout,
               char* body) {
  switch (k) {
#define SSTFILTER_BLOOM_ADD_CASE(n) \
  case n:                           \
    return AddHashesImpl<n, Hashes>(hashes, k, layout, body);
    SSTFILTER_BLOOM_ADD_CASE(1)
    SSTFILTER_BLOOM_ADD_CASE(2)
    SSTFILTER_BLOOM_ADD_CASE(3)
    SSTFILTER_BLOOM_ADD_CASE(4)
    SSTFILTER_BLOOM_ADD_CASE(5)
    SSTFILTER_BLOOM_ADD_CASE(6)
    SSTFILTER_BLOOM_ADD_CASE(7)
    SSTFILTER_BLOOM_ADD_CASE(8)
    SSTFILTER_BLOOM_ADD_CASE(9)
    SSTFILTER_BLOOM_ADD_CASE(10)
    SSTFILTER_BLOOM_ADD_CASE(11)
    SSTFILTER_BLOOM_ADD_CASE(12)
    SSTFILTER_BLOOM_ADD_CASE(13)
    SSTFILTER_BLOOM_ADD_CASE(14)
    SSTFILTER_BLOOM_ADD_CASE(15)
    SSTFILTER_BLOOM_ADD_CASE(16)
#undef SSTFILTER_BLOOM_ADD_CASE
    default:
      return AddHashesImpl<0, Hashes>(hashes, k, layout, body);
  }
}

// Appends the filter of num_keys hashes: a body of the size for num_keys,
// their bits set, then the trailer.
template <typename Hashes>
void AppendFilter(const Hashes& hashes, uint64_t num_keys, double bits_per_key,
                  int num_probes, std::string* dst) {
  const uint64_t body_bytes = BodyBytes(num_keys, bits_per_key);
  const size_t start = dst->size();
  // Room for the trailer too: appending it must not reallocate (and copy)
  // the body. Geometric growth when filters are appended one after another.
  const size_t needed =
      start + body_bytes + kMaxVarint64Bytes + kFixedTrailerBytes;
  if (dst->capacity() < needed) {
    dst->reserve(std::max(needed, 2 * dst->capacity()));
  }
  dst->resize(start + body_bytes, 0);
  if (num_keys > 0) {
    AddHashes(hashes, num_probes, MakeBodyLayout(body_bytes), &(*dst)[start]);
  }
  AppendTrailer(num_keys, num_probes, dst);
}

class LocalBloomBuilder final : public FilterBuilder {
 public:
  LocalBloomBuilder(double bits_per_key, int num_probes)
      : bits_per_key_(bits_per_key), num_probes_(num_probes) {}

  void AddKey(absl::string_view key) override { added_.Add(key); }

  size_t NumAdded() const override { return added_.num_added(); }

  void Finish(std::string* dst) override {
    const HashList& hashes = added_.hashes();
    AppendFilter(hashes, hashes.size(), bits_per_key_, num_probes_, dst);
    added_.Clear();
  }

 private:
  const double bits_per_key_;
  const int num_probes_;
  filter_internal::AddedHashes<HashList> added_;
};

}  // namespace
}  // namespace bloom_internal

namespace bloom {

void AppendFilterFromHashes(const filter_internal::ChunkList& hashes,
                            double bits_per_key, int num_probes,
                            std::string* dst) {
  bloom_internal::AppendFilter(hashes, hashes.size(), bits_per_key, num_probes,
                               dst);
}

std::unique_ptr<FilterBuilder> NewLocalBloomBuilder(double bits_per_key,
                                                    int num_probes) {
  return std::make_unique<bloom_internal::LocalBloomBuilder>(bits_per_key,
                                                             num_probes);
}

}  // namespace bloom
}  // namespace sstfilter
