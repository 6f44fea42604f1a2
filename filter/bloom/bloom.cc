// The native cache-local Bloom filter policy: builder, readers (scalar and
// AVX2), policy. Format in bloom_format.h and filter/bloom/README.md; sizing in
// bloom_sizing.h.

#include "filter/bloom/bloom.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_hash.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/bloom/bloom_probe.h"
#include "filter/bloom/bloom_sizing.h"

namespace sstfilter {
namespace bloom_internal {

bool CpuHasAvx2() {
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
  // __builtin_cpu_init first: this may run from another library's static
  // initialiser, before libgcc has filled in the CPU model.
  static const bool has_avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has_avx2;
#else
  return false;
#endif
}

bool ProbePathAvailable(ProbePath path) {
  return path == ProbePath::kScalar || CpuHasAvx2();
}

ProbePath BestProbePath() {
  return CpuHasAvx2() ? ProbePath::kAvx2 : ProbePath::kScalar;
}

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
template <int kFixedProbes>
void AddHashesImpl(const HashList& hashes, int k, const BodyLayout& layout,
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
void AddHashes(const HashList& hashes, int k, const BodyLayout& layout,
               char* body) {
  switch (k) {
#define SSTFILTER_BLOOM_ADD_CASE(n) \
  case n:                           \
    return AddHashesImpl<n>(hashes, k, layout, body);
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
      return AddHashesImpl<0>(hashes, k, layout, body);
  }
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
    const uint64_t num_keys = hashes_.size();
    const uint64_t body_bytes = BodyBytes(num_keys, bits_per_key_);
    const size_t start = dst->size();
    // Room for the trailer too: appending it must not reallocate (and copy)
    // the body. Geometric growth when filters are appended one after another.
    const size_t needed =
        start + body_bytes + kMaxVarintBytes + kFixedTrailerBytes;
    if (dst->capacity() < needed) {
      dst->reserve(std::max(needed, 2 * dst->capacity()));
    }
    dst->resize(start + body_bytes, 0);
    if (num_keys > 0) {
      AddHashes(hashes_, num_probes_, MakeBodyLayout(body_bytes),
                &(*dst)[start]);
    }
    AppendTrailer(num_keys, num_probes_, dst);
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
  for (size_t i = 0; i < count; ++i) {
    const uint64_t hash = KeyHash(keys[i]);
    slots[i].block =
        BlockIndex(hash, filter.layout.body_bits, filter.layout.num_blocks);
    slots[i].probe_hash = ProbeHash(hash);
    // A block is one cache line only if the caller's buffer is 64-byte aligned;
    // otherwise it spans two, and both are needed (the AVX2 path loads all of
    // it). Prefetching its last byte too costs little when aligned and halves
    // the misses when not.
    const char* block = filter.body + slots[i].block * kBlockBytes;
    __builtin_prefetch(block, /*rw=*/0, /*locality=*/1);
    __builtin_prefetch(block + last_byte, /*rw=*/0, /*locality=*/1);
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

#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
__attribute__((target("avx2"), always_inline)) inline bool Avx2Probe(
    const ParsedFilter& filter, uint64_t block, uint32_t probe_hash) {
  const char* data = filter.body + block * kBlockBytes;
  if (block < filter.layout.regular_blocks) {
    return Avx2ProbeRegularBlock(probe_hash, filter.num_probes, data);
  }
  return ScalarProbeBlock(probe_hash, filter.num_probes,
                          filter.layout.last_block_bits, data);
}

__attribute__((target("avx2"), always_inline)) inline bool Avx2MayMatch(
    const ParsedFilter& filter, absl::string_view key) {
  const uint64_t hash = KeyHash(key);
  return Avx2Probe(
      filter,
      BlockIndex(hash, filter.layout.body_bits, filter.layout.num_blocks),
      ProbeHash(hash));
}

__attribute__((target("avx2"), noinline)) bool Avx2MayMatchOutOfLine(
    const ParsedFilter& filter, absl::string_view key) {
  return Avx2MayMatch(filter, key);
}
#endif  // SSTFILTER_BLOOM_HAVE_AVX2_PATH

// Shared by the readers of a well-formed filter.
class LocalBloomReaderBase : public FilterReader {
 public:
  explicit LocalBloomReaderBase(const ParsedFilter& filter) : filter_(filter) {}

  // The formula's estimate; never 0, which the API reserves for a filter that
  // matches nothing (the estimate underflows for very sparse bodies, and a
  // crafted body can match keys it was not built from).
  double ExpectedFpp() const override {
    return std::max(
        FilterFpp(filter_.layout, filter_.num_keys, filter_.num_probes),
        std::numeric_limits<double>::min());
  }

 protected:
  const ParsedFilter filter_;
};

class ScalarReader final : public LocalBloomReaderBase {
 public:
  using LocalBloomReaderBase::LocalBloomReaderBase;

  bool MayMatch(absl::string_view key) const override {
    return ScalarMayMatch(filter_, key);
  }

  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    BatchSlot slots[kQueryBatch];
    for (size_t start = 0; start < keys.size(); start += kQueryBatch) {
      const size_t count = std::min(kQueryBatch, keys.size() - start);
      PrepareBatch(filter_, keys.data() + start, count, slots);
      for (size_t i = 0; i < count; ++i) {
        results[start + i] =
            ScalarProbe(filter_, slots[i].block, slots[i].probe_hash);
      }
    }
  }
};

#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
class Avx2Reader final : public LocalBloomReaderBase {
 public:
  using LocalBloomReaderBase::LocalBloomReaderBase;

  __attribute__((target("avx2"))) bool MayMatch(
      absl::string_view key) const override {
    return Avx2MayMatch(filter_, key);
  }

  __attribute__((target("avx2"))) void MayMatch(
      absl::Span<const absl::string_view> keys, bool* results) const override {
    BatchSlot slots[kQueryBatch];
    for (size_t start = 0; start < keys.size(); start += kQueryBatch) {
      const size_t count = std::min(kQueryBatch, keys.size() - start);
      PrepareBatch(filter_, keys.data() + start, count, slots);
      for (size_t i = 0; i < count; ++i) {
        results[start + i] =
            Avx2Probe(filter_, slots[i].block, slots[i].probe_hash);
      }
    }
  }
};
#endif  // SSTFILTER_BLOOM_HAVE_AVX2_PATH

// A filter that matches nothing (no keys) or everything (unreadable).
class ConstantReader final : public FilterReader {
 public:
  explicit ConstantReader(bool answer) : answer_(answer) {}

  bool MayMatch(absl::string_view) const override { return answer_; }

  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    std::fill(results, results + keys.size(), answer_);
  }

  double ExpectedFpp() const override { return answer_ ? 1.0 : 0.0; }

 private:
  const bool answer_;
};

class LocalBloomPolicy final : public FilterPolicy {
 public:
  LocalBloomPolicy(const BloomSizing& sizing, ProbePath path)
      : sizing_(sizing), path_(path) {}

  const char* Name() const override { return kLocalBloomName; }
  double BitsPerKey() const override { return sizing_.bits_per_key; }
  int NumProbes() const override { return sizing_.num_probes; }

  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return std::make_unique<LocalBloomBuilder>(sizing_.bits_per_key,
                                               sizing_.num_probes);
  }

  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    const ParsedFilter parsed = ParseFilter(filter);
    switch (parsed.verdict) {
      case Verdict::kMatchNothing:
        return std::make_unique<ConstantReader>(false);
      case Verdict::kMatchAll:
        return std::make_unique<ConstantReader>(true);
      case Verdict::kProbe:
        break;
    }
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
    if (path_ == ProbePath::kAvx2) return std::make_unique<Avx2Reader>(parsed);
#endif
    return std::make_unique<ScalarReader>(parsed);
  }

  bool KeyMayMatch(absl::string_view key,
                   absl::string_view filter) const override {
    const ParsedFilter parsed = ParseFilter(filter);
    if (parsed.verdict != Verdict::kProbe)
      return parsed.verdict == Verdict::kMatchAll;
#if SSTFILTER_BLOOM_HAVE_AVX2_PATH
    if (path_ == ProbePath::kAvx2) return Avx2MayMatchOutOfLine(parsed, key);
#endif
    return ScalarMayMatch(parsed, key);
  }

 private:
  const BloomSizing sizing_;
  const ProbePath path_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewBloomFilterPolicyWithPath(const FilterOptions& options, ProbePath path) {
  if (absl::Status status = ValidateFilterOptions(options); !status.ok())
    return status;
  BloomSizing sizing;
  if (options.fpp.has_value()) {
    absl::StatusOr<BloomSizing> from_fpp = SizeForFpp(*options.fpp);
    if (!from_fpp.ok()) return from_fpp.status();
    sizing = *from_fpp;
  } else {
    sizing = SizeForBitsPerKey(*options.bits_per_key);
  }
  if (!ProbePathAvailable(path)) path = ProbePath::kScalar;
  return std::unique_ptr<const FilterPolicy>(
      new LocalBloomPolicy(sizing, path));
}

}  // namespace bloom_internal

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBloomFilterPolicy(
    const FilterOptions& options) {
  return bloom_internal::NewBloomFilterPolicyWithPath(
      options, bloom_internal::BestProbePath());
}

}  // namespace sstfilter
