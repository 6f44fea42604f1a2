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
#include "filter/internal/key_hash.h"
#include "util/coding.h"

namespace sstfilter {
namespace bloom_internal {
namespace {

// A list of hashes in chunks, so growing never copies (a doubling vector would
// briefly hold 16 bytes per key). Chunks grow from 2 KB to max_chunk_hashes,
// and Clear keeps the first: LevelDB-style filters of 20-100 keys then cost no
// allocation at all.
class ChunkList {
 public:
  explicit ChunkList(uint64_t max_chunk_hashes = 4096)
      : max_chunk_hashes_(max_chunk_hashes) {}

  void Add(uint64_t hash) {
    if (next_ == chunk_end_) AddChunk();
    *next_++ = hash;
    ++size_;
  }
  uint64_t size() const { return size_; }
  void Clear() {
    if (chunks_.size() > 1) chunks_.resize(1);
    next_ = chunks_.empty() ? nullptr : chunks_[0].hashes.get();
    chunk_end_ = chunks_.empty() ? nullptr : next_ + chunks_[0].capacity;
    size_ = 0;
  }
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    uint64_t left = size_;
    for (const Chunk& chunk : chunks_) {
      const uint64_t count = std::min<uint64_t>(left, chunk.capacity);
      for (uint64_t i = 0; i < count; ++i) fn(chunk.hashes[i]);
      left -= count;
    }
  }
  // ForEach, freeing each chunk once visited; leaves the list empty.
  template <typename Fn>
  void Drain(Fn&& fn) {
    ForEachChunkThenFree(std::forward<Fn>(fn));
    chunks_.clear();
    next_ = chunk_end_ = nullptr;
    size_ = 0;
  }

 private:
  static constexpr uint64_t kFirstChunkHashes = 256;  // 2 KB
  struct Chunk {
    std::unique_ptr<uint64_t[]> hashes;
    uint64_t capacity;
  };

  template <typename Fn>
  void ForEachChunkThenFree(Fn&& fn) {
    uint64_t left = size_;
    for (Chunk& chunk : chunks_) {
      const uint64_t count = std::min<uint64_t>(left, chunk.capacity);
      for (uint64_t i = 0; i < count; ++i) fn(chunk.hashes[i]);
      left -= count;
      chunk.hashes.reset();
    }
  }

  void AddChunk() {
    const uint64_t capacity =
        chunks_.empty()
            ? kFirstChunkHashes
            : std::min(2 * chunks_.back().capacity, max_chunk_hashes_);
    // Not value-initialised: every slot is written before it is read.
    chunks_.push_back(
        Chunk{std::unique_ptr<uint64_t[]>(new uint64_t[capacity]), capacity});
    next_ = chunks_.back().hashes.get();
    chunk_end_ = next_ + capacity;
  }

  uint64_t max_chunk_hashes_;
  std::vector<Chunk> chunks_;
  uint64_t* next_ = nullptr;       // where the next hash goes
  uint64_t* chunk_end_ = nullptr;  // end of the last chunk
  uint64_t size_ = 0;
};

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

// Hashes in a span, visited as HashList visits its own.
class SpanHashes {
 public:
  explicit SpanHashes(absl::Span<const uint64_t> hashes) : hashes_(hashes) {}
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (uint64_t hash : hashes_) fn(hash);
  }

 private:
  absl::Span<const uint64_t> hashes_;
};

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

  void AddKey(absl::string_view key) override {
    ++num_added_;
    const uint64_t hash = KeyHash(key);
    // A key added again right away (several versions of one user key) adds
    // nothing.
    if (hash == last_hash_ && hashes_.size() > 0) return;
    last_hash_ = hash;
    hashes_.Add(hash);
  }

  size_t NumAdded() const override { return num_added_; }

  void Finish(std::string* dst) override {
    AppendFilter(hashes_, hashes_.size(), bits_per_key_, num_probes_, dst);
    hashes_.Clear();
    num_added_ = 0;
  }

 private:
  const double bits_per_key_;
  const int num_probes_;
  HashList hashes_;
  uint64_t last_hash_ = 0;  // the last hash added, when hashes_ is not empty
  size_t num_added_ = 0;
};

}  // namespace

void AppendFilterFromHashes(absl::Span<const uint64_t> hashes,
                            double bits_per_key, int num_probes,
                            std::string* dst) {
  AppendFilter(SpanHashes(hashes), hashes.size(), bits_per_key, num_probes,
               dst);
}

std::unique_ptr<FilterBuilder> NewLocalBloomBuilder(double bits_per_key,
                                                    int num_probes) {
  return std::make_unique<LocalBloomBuilder>(bits_per_key, num_probes);
}

}  // namespace bloom_internal
}  // namespace sstfilter
