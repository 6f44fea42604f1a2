// mutable_bench's measurements: for one key count, the mutable Bloom filter
// (inmemory/mutable/mutable_bloom.h) against the immutable native filter built
// from the same keys at the same fpp. Every added key is checked in both
// filters, and the filters filled in every way compared bit for bit, before
// any figure counts. The figures and how they are taken: README.md.

#ifndef SSTFILTER_BENCH_MUTABLE_MUTABLE_BENCH_H_
#define SSTFILTER_BENCH_MUTABLE_MUTABLE_BENCH_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "filter/policy_spec.h"
#include "inmemory/spec/inmemory_spec.h"

namespace sstfilter {
namespace bench {

struct MutableBenchConfig {
  uint64_t keys = 0;
  // The mutable filter's spec (the mutable family, sized, keys unset: keys
  // above gives them).
  InMemorySpec spec;
  // The immutable native filter it is compared with: the bloom family at the
  // same size.
  PolicySpec NativeSpec() const {
    return PolicySpec::Of("bloom", spec.options);
  }
  uint64_t queries = 0;  // absent keys per query figure; a multiple of 1024
  int reps = 3;
};

// Medians over the repetitions.
struct ImmutableFigures {
  double bits_per_key = 0;  // body and trailer
  double fp_rate = 0;       // over every absent key asked
  double build_ns_per_key = 0;
  double query_ns = 0;
  double batch_ns = 0;
};

struct MutableFigures {
  double bits_per_key = 0;  // the body (its 64-byte blocks)
  double fp_rate = 0;
  double add_ns_per_key = 0;  // one thread, CPU time
  double adds_per_second_1_thread = 0;
  double batch_add_ns_per_key = 0;  // one thread, kBatchSize keys per Add
  double single_writer_add_ns_per_key = 0;        // AddSingleWriter
  double single_writer_batch_add_ns_per_key = 0;  // batched AddSingleWriter
  double adds_per_second_2_threads = 0;       // CPU time of the slower thread
  double adds_per_second_2_threads_wall = 0;  // wall time
  double query_ns = 0;
  double batch_ns = 0;
};

struct SizeResult {
  MutableBenchConfig config;
  ImmutableFigures immutable;
  MutableFigures mutable_filter;
  uint64_t keys_checked = 0;  // added keys checked in each filter, per rep
};

// Runs config.reps interleaved repetitions. DataLossError when an added key
// does not match or the two-thread filter's bits differ; other errors when a
// filter cannot be made. progress gets one line per step.
absl::StatusOr<SizeResult> MeasureSize(
    const MutableBenchConfig& config,
    const std::function<void(const std::string&)>& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_MUTABLE_MUTABLE_BENCH_H_
