// Fuzzes PresenceFilteredDB against RocksDB itself: the input is an operation
// sequence (engines/rocksdb/presence/differential_run.h: one byte picks an
// operation, the next ones its column family, keys and options; missing bytes
// read as zero), applied to one database that lives for the whole run in a
// memory Env, so that an input costs microseconds to a few milliseconds. Any
// lookup the wrapper answers unlike RocksDB at the same moment aborts with the
// operations that led to it.
//
// The database carries over from input to input, so a crash input replays
// only on a database that went through the same inputs before it: rerun the
// run's corpus in order, or the input alone, which reproduces a failure its
// own operations cause (every key is compared only every kFullCheckEvery
// inputs). Reopening, checkpoints, imports and waiting for rebuilds run on
// one request in kCostlyEvery; saves, maintenance and prefix extractor
// changes on one in kMaintenanceEvery. That keeps the rate above 1,000 inputs
// a second under ASan with another fuzzer beside it on two cores.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engines/rocksdb/presence/differential_run.h"
#include "rocksdb/env.h"
#include "tests/fuzz/fuzz_checks.h"

namespace sstfilter {
namespace {

using presence_testing::DifferentialOptions;
using presence_testing::DifferentialRun;
using presence_testing::OperationBytes;

// Operations one input applies at most: few, so that an input stays well
// under the millisecond .ci/run allows it under ASan beside another fuzzer.
constexpr size_t kOperationsPerInput = 3;
// One costly operation runs per this many requests, and one maintenance
// operation (a flush, a compaction, an ingestion, a save, a SetOptions) per
// this many.
constexpr int kCostlyEvery = 128;
constexpr int kMaintenanceEvery = 32;
// Seeks an iterate operation makes: one, so that an input stays cheap under
// ASan (each seek opens three iterators).
constexpr int kSeeksPerIterate = 1;
// Every this many inputs, every key of every column family is compared; more
// often, the comparison takes a large share of the run.
constexpr uint64_t kFullCheckEvery = 256;

DifferentialRun* Run() {
  // The Env outlives the database: statics are destroyed in reverse order,
  // and the run closes its database (joining RocksDB's threads) at exit.
  static rocksdb::Env* const env = rocksdb::NewMemEnv(rocksdb::Env::Default());
  static const std::unique_ptr<DifferentialRun> run = [] {
    DifferentialOptions options;
    options.env = env;
    options.directory = "/presence_differential_fuzzer";
    options.costly_every = kCostlyEvery;
    options.maintenance_every = kMaintenanceEvery;
    options.seeks_per_iterate = kSeeksPerIterate;
    absl::StatusOr<std::unique_ptr<DifferentialRun>> opened =
        DifferentialRun::Open(options);
    fuzz::AbortIfError(opened.status(), "opening the database");
    return *std::move(opened);
  }();
  return run.get();
}

// Seeds: short sequences that reach each kind of operation.
std::vector<fuzz::Seed> Seeds() {
  std::vector<fuzz::Seed> seeds;
  for (uint8_t operation = 0; operation < 25; ++operation) {
    std::string bytes;
    for (int repeat = 0; repeat < 4; ++repeat) {
      // The operation, then bytes that vary its family, keys and options,
      // then a Get and a MultiGet to compare.
      bytes += static_cast<char>(operation);
      bytes += absl::StrCat(repeat, "\x03\x11\x25\x07\x42");
      bytes += "\x07\x01\x00\x05";
      bytes += "\x09\x00\x01\x06\x01\x02\x03\x04\x05\x06";
    }
    seeds.push_back({absl::StrCat("operation_", operation), bytes});
  }
  return seeds;
}

[[maybe_unused]] const bool kSeedsRegistered =
    (fuzz::RegisterSeedGenerator(&Seeds), true);

}  // namespace
}  // namespace sstfilter

// The database lives across inputs and keeps allocating (memtables, caches,
// background work), so nearly every input ends with more blocks than it
// began with, and libFuzzer would run a full LeakSanitizer scan of the heap
// after each: 70% of the time. Leak checking stays with the corpus replay
// (bazel test under ASan), which checks at exit. libFuzzer reads its flags
// after this hook, so the flag is appended here, where a flag given on the
// command line later in argv still wins.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  static std::vector<char*> arguments;
  arguments.assign(*argv, *argv + *argc);
  static char no_leak_scans[] = "-detect_leaks=0";
  arguments.insert(arguments.begin() + 1, no_leak_scans);
  arguments.push_back(nullptr);
  *argc = static_cast<int>(arguments.size()) - 1;
  *argv = arguments.data();
  return 0;
}

// RocksDB's Env::Default() keeps its thread pool to the end of the process;
// a pool thread's thread_local destructor list is still allocated when
// LeakSanitizer looks at exit.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:__cxa_thread_atexit_impl\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static uint64_t inputs = 0;
  sstfilter::presence_testing::DifferentialRun* run = sstfilter::Run();
  sstfilter::presence_testing::OperationBytes bytes(
      absl::string_view(reinterpret_cast<const char*>(data), size));
  sstfilter::fuzz::AbortIfError(
      run->Apply(&bytes, sstfilter::kOperationsPerInput),
      "the wrapper answered unlike RocksDB");
  if (++inputs % sstfilter::kFullCheckEvery == 0) {
    sstfilter::fuzz::AbortIfError(run->CheckAllKeys(),
                                  "a full comparison of every key");
  }
  return 0;
}
