// mutable_bench's measurements: for one key count, the mutable Bloom filter
// (inmemory/mutable/mutable_bloom.h) against the immutable native filter built
// from the same keys at the same fpp.
//
//  - build: thread CPU ns per key for NewBloomFilterPolicy's builder to add
//    every key and finish, minus the time to make the keys (as filter_bench).
//  - add, 1 thread: thread CPU ns per MutableBloomFilter::Add over the same
//    keys, minus the time to make them; adds/s = 10^9 / that.
//  - batch add: the same with the batched Add, 32 keys per call (a write
//    batch), which prefetches each group's blocks before adding.
//  - 1-writer add, 1-writer batch: the same two with AddSingleWriter, for a
//    filter with one writer at a time (no locked instruction).
//  - adds/s, 2 threads: two threads add one half of the keys each to a fresh
//    filter at once; keys / the slower thread's CPU time (minus its key
//    making), and keys / the wall time of the two (which another job on the
//    machine also stretches).
//  - query, batch: ns per absent key, single MayMatch/MayContain calls back to
//    back, or batches of 32 (RocksDB's MultiGet batch). Every figure asks keys
//    never asked before (a fresh range of absent-key indexes per filter, mode
//    and repetition), made 1,024 at a time just before they are asked; the
//    median over those blocks of 1,024.
//
// Before any figure counts, every added key is checked in both filters
// (batched), and the filters filled by two threads, by batches and by the
// single-writer adds must hold exactly the bits of the one filled a key at a
// time: the bits do not depend on the order or the kind of the adds.
// The immutable filter is copied to a 64-byte-aligned buffer, where the mutable
// filter's words already are, so the two are compared on the same footing
// (filter_bench's --placement measures what misalignment costs).

#ifndef SSTFILTER_BENCH_MUTABLE_MUTABLE_BENCH_H_
#define SSTFILTER_BENCH_MUTABLE_MUTABLE_BENCH_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"

namespace sstfilter {
namespace bench {

struct MutableBenchConfig {
  uint64_t keys = 0;
  double fpp = 0.01;
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
