// One repetition of one implementation on one case: build and check its
// filters, and run the queries and memory-floor loads that block_timing.h
// times. An adapter (leveldb_adapter.h, rocksdb_adapter.h,
// sstfilter_adapter.h) presents each library in the shape Runner below
// takes. What each figure means: filter_bench.md ("What the table says").

#ifndef SSTFILTER_BENCH_MEASURE_H_
#define SSTFILTER_BENCH_MEASURE_H_

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "bench/built_filter.h"
#include "bench/keys.h"
#include "bench/timing.h"
#include "bench/workload.h"
#include "util/hash.h"

namespace sstfilter {
namespace bench {

struct RepResult {
  double build_ns_per_key = kNotMeasured;
  // Filter bytes (trailers included) * 8 / keys.
  double bits_per_key = kNotMeasured;
  double fp_rate = kNotMeasured;
  double expected_fp_rate = kNotMeasured;
  double query_ns_positive = kNotMeasured;
  double query_ns_negative = kNotMeasured;
  double query_ns_mixed = kNotMeasured;
  double query_ns_dependent = kNotMeasured;
  double query_ns_batched = kNotMeasured;  // NaN: no batch API
  double memory_floor_ns = kNotMeasured;
  double memory_floor_dependent_ns = kNotMeasured;
  double memory_floor_batched_ns = kNotMeasured;
  // With --huge_pages: the share of the filters' bytes the kernel backs with
  // huge pages (FilterArena::HugePageBytes); else 0.
  double huge_page_share = 0;
  uint64_t keys_checked = 0;  // added keys queried by the false-negative check
  // Filter bytes identical to an earlier, fully checked filter set.
  bool check_inherited = false;
  // Filters by their first byte's offset from a cache line.
  std::map<int, size_t> line_offsets;
};

// The figures a repetition times, each over its own query set.
enum class QueryFigure {
  kNegative,   // absent keys, back to back (also the false-positive count)
  kPositive,   // added keys, back to back; every one must match
  kMixed,      // half and half, back to back
  kDependent,  // the mixed queries, each fenced (QueryFence)
  kBatched,    // kBatchSize keys per call to the batch API
};

// How the memory floor touches its lines: like single queries (independent
// loads the CPU may overlap), like dependent queries (each load completes
// before the next starts), or like batches (kBatchSize prefetches, then the
// loads).
enum class MemoryAccess { kIndependent, kDependent, kBatched };

// A buffer the size of an implementation's filters, for its memory floors:
// one random 64-byte line per query, loaded as one figure's queries load
// theirs. In a FilterArena when huge_pages, as the filters then are.
class MemoryFloorBuffer {
 public:
  MemoryFloorBuffer(size_t bytes, bool huge_pages);

  // Loads the line of each of random32[0..n) (a multiply-shift onto the
  // buffer's lines); returns their sum, for KeepResult.
  uint64_t LoadLines(MemoryAccess access, const uint32_t* random32,
                     size_t n) const;

 private:
  std::vector<uint64_t> heap_;
  std::optional<FilterArena> arena_;
  const uint64_t* words_ = nullptr;
  size_t lines_ = 0;
};

// One implementation's repetitions, type-erased so the registry can hold any
// adapter. A repetition is Prepare, then any number of untimed calls that the
// caller times (block_timing.h interleaves them with other implementations'),
// then Release. Remembers the digest of the last fully checked filter set
// across repetitions.
class ImplRunner {
 public:
  virtual ~ImplRunner() = default;

  // Builds every filter of the workload (build time, bits/key and placement
  // into *result), makes the readers, queries every added key, and sets up the
  // memory floor's buffer; the readers stay until Release. A false negative is
  // a DataLossError; a filter of the wrong kind an InternalError.
  virtual absl::Status Prepare(const CaseData& data, RepResult* result) = 0;
  // The n queries of one figure (keys[i] asks filter filters[i], or the only
  // filter when filters is null); returns how many matched. For kBatched, n
  // is a multiple of kBatchSize and each batch asks one filter.
  // REQUIRES: Prepare succeeded, no Release since.
  virtual uint64_t RunQueries(QueryFigure figure, const absl::string_view* keys,
                              const uint32_t* filters, size_t n) const = 0;
  // The memory floor's loads for n queries; returns their sum.
  // REQUIRES: as RunQueries.
  virtual uint64_t LoadFloorLines(MemoryAccess access, const uint32_t* random32,
                                  size_t n) const = 0;
  // Frees the filters, readers and floor buffer of the repetition.
  virtual void Release() = 0;

  virtual bool HasBatch() const = 0;
  virtual double ConfiguredBitsPerKey() const = 0;
  virtual std::string Details() const = 0;
};

// Waits until every earlier instruction has completed before any later one
// starts (x86 LFENCE). A data dependency alone does not serialize queries: a
// filter's answer usually comes from a branch, which the CPU predicts and runs
// past while the cache miss is outstanding.
inline void QueryFence() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_lfence();
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}
uint64_t DigestFilters(const std::vector<BuiltFilter>& filters);
// Threads for the false-negative check of total keys: every hardware thread
// for large workloads, one for small ones (thread start-up would dominate).
size_t CheckThreads(uint64_t total_keys);
// Thread CPU ns to make every added key of w, chunk by chunk, as a build does.
double GenerateKeysCpuNanos(const Workload& w, KeyChunk* chunk);

// Queries per timed block. Their keys (16 KB of random16 keys) are made just
// before the block, outside the timed region, so a query finds its key in
// cache, as a real lookup does.
constexpr size_t kQueryBlock = KeyChunk::kCapacity;  // a multiple of kBatchSize
static_assert(kQueryBlock % kBatchSize == 0, "batches must not span blocks");

// The ImplRunner of an adapter of this shape, with no virtual calls of its
// own, so that the loops pay only the library's own dispatch (the timer reads
// the clock around a whole block, outside the one virtual call per block):
//
//   class Adapter {
//     static constexpr bool kHasBatch;  // the library has a batch API
//     class Builder {
//       void Add(string_view key);
//       absl::Status Finish(BuiltFilter* out);
//     };
//     class Reader {
//       bool MayMatch(string_view key) const;
//       void MayMatchBatch(const string_view* keys, int n, bool* out) const;
//       double ExpectedFpp(size_t num_keys) const;
//     };
//     std::unique_ptr<Builder> NewBuilder() const;
//     Reader NewReader(string_view filter) const;  // movable
//     absl::Status CheckKind(string_view filter) const;  // what we asked for?
//     double ConfiguredBitsPerKey() const;
//     std::string Details() const;
//   };
template <typename Adapter>
class Runner final : public ImplRunner {
 public:
  explicit Runner(std::unique_ptr<Adapter> adapter)
      : adapter_(std::move(adapter)) {}

  bool HasBatch() const override { return Adapter::kHasBatch; }
  double ConfiguredBitsPerKey() const override {
    return adapter_->ConfiguredBitsPerKey();
  }
  std::string Details() const override { return adapter_->Details(); }

  absl::Status Prepare(const CaseData& data, RepResult* result) override {
    Release();
    const Workload& w = data.workload;
    // Declared before the filters and readers, which point into it.
    if (data.huge_pages) arena_.emplace();
    filters_.resize(w.num_filters);

    // Build, timed in this thread's CPU time (which other processes on a
    // shared machine do not inflate): the whole loop, minus a pass that makes
    // the same keys alone.
    KeyChunk chunk;
    const double generate_ns = GenerateKeysCpuNanos(w, &chunk);
    const double build_start = ThreadCpuNanos();
    for (size_t f = 0; f < w.num_filters; ++f) {
      std::unique_ptr<typename Adapter::Builder> builder =
          adapter_->NewBuilder();
      for (uint64_t j = 0; j < w.keys_per_filter; j += KeyChunk::kCapacity) {
        chunk.Fill(
            w.kind, w.first_index(f) + j,
            std::min<uint64_t>(KeyChunk::kCapacity, w.keys_per_filter - j));
        for (size_t i = 0; i < chunk.size(); ++i) builder->Add(chunk[i]);
      }
      absl::Status finished = builder->Finish(&filters_[f]);
      if (!finished.ok()) return finished;
    }
    const double build_ns = ThreadCpuNanos() - build_start;
    result->build_ns_per_key = std::max(0.0, build_ns - generate_ns) /
                               static_cast<double>(w.total_keys());
    size_t total_bytes = 0;
    for (BuiltFilter& filter : filters_) {
      absl::Status kind = adapter_->CheckKind(filter.bytes);
      if (!kind.ok()) return kind;
      total_bytes += filter.bytes.size();
      PlaceFilter(data.placement, arena_.has_value() ? &*arena_ : nullptr,
                  &filter);
      ++result->line_offsets[static_cast<int>(
          reinterpret_cast<uintptr_t>(filter.bytes.data()) % kCacheLineBytes)];
    }
    result->bits_per_key =
        total_bytes * 8.0 / static_cast<double>(w.total_keys());
    if (arena_.has_value()) {
      result->huge_page_share = std::min(
          1.0, static_cast<double>(arena_->HugePageBytes()) /
                   static_cast<double>(std::max<size_t>(1, total_bytes)));
    }

    // Readers side by side, as a table cache holds its tables' filter readers:
    // a query's only pointer chasing is the library's own.
    readers_.reserve(filters_.size());
    double expected = 0;
    for (const BuiltFilter& filter : filters_) {
      readers_.push_back(adapter_->NewReader(filter.bytes));
      expected += readers_.back().ExpectedFpp(w.keys_per_filter);
    }
    result->expected_fp_rate = expected / static_cast<double>(filters_.size());

    // Every added key must match before any figure counts. A filter set whose
    // bytes equal the last fully checked one answers identically, so it
    // inherits that check.
    const uint64_t digest = DigestFilters(filters_);
    if (checked_digest_.has_value() && *checked_digest_ == digest) {
      result->check_inherited = true;
    } else {
      absl::Status checked = CheckAllKeys(w, readers_);
      if (!checked.ok()) return checked;
      checked_digest_ = digest;
    }
    result->keys_checked = w.total_keys();
    floor_.emplace(total_bytes, data.huge_pages);
    return absl::OkStatus();
  }

  uint64_t RunQueries(QueryFigure figure, const absl::string_view* keys,
                      const uint32_t* filters, size_t n) const override {
    switch (figure) {
      case QueryFigure::kDependent:
        return CountDependent(keys, filters, n);
      case QueryFigure::kBatched:
        return CountBatched(keys, filters, n);
      default:
        return CountSingle(keys, filters, n);
    }
  }

  uint64_t LoadFloorLines(MemoryAccess access, const uint32_t* random32,
                          size_t n) const override {
    return floor_->LoadLines(access, random32, n);
  }

  void Release() override {
    floor_.reset();
    readers_.clear();
    filters_.clear();
    arena_.reset();  // last: the filters and readers point into it
  }

 private:
  using Reader = typename Adapter::Reader;

  // Queries every added key of every filter, through the batch API where there
  // is one. Not timed, so it uses every core (readers are immutable).
  absl::Status CheckAllKeys(const Workload& w,
                            const std::vector<Reader>& readers) {
    const uint64_t total = w.total_keys();
    const size_t threads = CheckThreads(total);
    std::vector<absl::Status> statuses(threads);
    std::vector<std::thread> workers;
    for (size_t t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        statuses[t] = CheckKeyRange(w, readers, total * t / threads,
                                    total * (t + 1) / threads);
      });
    }
    for (std::thread& worker : workers) worker.join();
    for (const absl::Status& status : statuses) {
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }

  // Checks the added keys at positions [begin, end) of the workload (filter by
  // filter, position p being key p % n of filter p / n).
  static absl::Status CheckKeyRange(const Workload& w,
                                    const std::vector<Reader>& readers,
                                    uint64_t begin, uint64_t end) {
    KeyChunk chunk;
    const uint64_t n = w.keys_per_filter;
    for (uint64_t p = begin; p < end;) {
      const size_t f = p / n;
      const uint64_t j = p % n;
      const size_t count =
          std::min<uint64_t>({KeyChunk::kCapacity, n - j, end - p});
      chunk.Fill(w.kind, w.first_index(f) + j, count);
      for (size_t i = 0; i < count; i += kBatchSize) {
        const int m = static_cast<int>(std::min<size_t>(kBatchSize, count - i));
        bool results[kBatchSize];
        if (Adapter::kHasBatch) {
          readers[f].MayMatchBatch(chunk.data() + i, m, results);
        } else {
          for (int b = 0; b < m; ++b) {
            results[b] = readers[f].MayMatch(chunk[i + b]);
          }
        }
        for (int b = 0; b < m; ++b) {
          if (!results[b]) {
            return absl::DataLossError(
                absl::StrFormat("false negative: added key #%d of filter %d "
                                "(%d bytes) did not match",
                                j + i + b, f, chunk[i + b].size()));
          }
        }
      }
      p += count;
    }
    return absl::OkStatus();
  }

  // Each returns how many of the n queries matched.
  uint64_t CountSingle(const absl::string_view* keys, const uint32_t* filters,
                       size_t n) const {
    uint64_t sum = 0;
    if (filters == nullptr) {
      const Reader* reader = &readers_[0];
      for (size_t i = 0; i < n; ++i) sum += reader->MayMatch(keys[i]);
    } else {
      for (size_t i = 0; i < n; ++i) {
        sum += readers_[filters[i]].MayMatch(keys[i]);
      }
    }
    return sum;
  }

  // Each query completes before the next begins (QueryFence), so no two
  // overlap, even where the answer comes from a predicted branch.
  uint64_t CountDependent(const absl::string_view* keys,
                          const uint32_t* filters, size_t n) const {
    uint64_t sum = 0;
    for (size_t i = 0; i < n; ++i) {
      const Reader* reader =
          filters == nullptr ? &readers_[0] : &readers_[filters[i]];
      sum += reader->MayMatch(keys[i]);
      QueryFence();
    }
    return sum;
  }

  uint64_t CountBatched(const absl::string_view* keys, const uint32_t* filters,
                        size_t n) const {
    uint64_t sum = 0;
    bool results[kBatchSize];
    for (size_t i = 0; i + kBatchSize <= n; i += kBatchSize) {
      const Reader* reader =
          filters == nullptr ? &readers_[0] : &readers_[filters[i]];
      reader->MayMatchBatch(keys + i, kBatchSize, results);
      for (int b = 0; b < kBatchSize; ++b) sum += results[b];
    }
    return sum;
  }

  std::unique_ptr<Adapter> adapter_;
  std::optional<uint64_t> checked_digest_;
  // One repetition's state, from Prepare to Release. The arena is declared
  // first so that it is destroyed last.
  std::optional<FilterArena> arena_;
  std::vector<BuiltFilter> filters_;
  std::vector<Reader> readers_;
  std::optional<MemoryFloorBuffer> floor_;
};

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_MEASURE_H_
