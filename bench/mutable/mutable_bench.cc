#include "bench/mutable/mutable_bench.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "bench/built_filter.h"
#include "bench/keys.h"
#include "bench/timing.h"
#include "filter/bloom/bloom.h"
#include "filter/filter_policy.h"
#include "filter/filter_spec.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace bench {
namespace {

constexpr KeyKind kKind = KeyKind::kRandom16;
constexpr int kWriterThreads = 2;

// Calls fn(chunk) on keys first .. first + count - 1, KeyChunk::kCapacity at a
// time.
template <typename Fn>
void ForEachChunk(uint64_t first, uint64_t count, KeyChunk* chunk, Fn fn) {
  for (uint64_t done = 0; done < count; done += KeyChunk::kCapacity) {
    chunk->Fill(kKind, first + done,
                std::min<uint64_t>(KeyChunk::kCapacity, count - done));
    fn(*chunk);
  }
}

// Thread CPU ns to make keys first .. first + count - 1, as the timed loops do.
double GenerateCpuNanos(uint64_t first, uint64_t count, KeyChunk* chunk) {
  uint64_t sum = 0;
  const double start = ThreadCpuNanos();
  ForEachChunk(first, count, chunk,
               [&](const KeyChunk& keys) { sum += keys[0].size(); });
  const double ns = ThreadCpuNanos() - start;
  KeepResult(sum);
  return ns;
}

struct Immutable {
  BuiltFilter filter;
  std::unique_ptr<FilterReader> reader;
  double build_ns_per_key = 0;
};

absl::StatusOr<Immutable> BuildImmutable(const FilterPolicy& policy, uint64_t n,
                                         KeyChunk* chunk) {
  Immutable built;
  const double generate_ns = GenerateCpuNanos(0, n, chunk);
  const double start = ThreadCpuNanos();
  std::unique_ptr<FilterBuilder> builder = policy.NewBuilder();
  ForEachChunk(0, n, chunk, [&](const KeyChunk& keys) {
    for (size_t i = 0; i < keys.size(); ++i) builder->AddKey(keys[i]);
  });
  builder->Finish(&built.filter.storage);
  built.build_ns_per_key =
      std::max(0.0, ThreadCpuNanos() - start - generate_ns) / n;
  built.filter.bytes = built.filter.storage;
  // Cache-aligned, as the mutable filter's words are.
  PlaceFilter(/*placement=*/0, /*arena=*/nullptr, &built.filter);
  built.reader = policy.NewReader(built.filter.bytes);
  return built;
}

// How FillOneThread adds its keys.
enum class AddMode {
  kAdd,                     // Add, one key per call
  kBatchedAdd,              // Add, kBatchSize keys per call
  kSingleWriterAdd,         // AddSingleWriter, one key per call
  kSingleWriterBatchedAdd,  // AddSingleWriter, kBatchSize keys per call
};

// Fills a fresh filter from one thread, in the given mode; *add_ns_per_key gets
// the CPU time.
absl::StatusOr<MutableBloomFilter> FillOneThread(const MutableBenchConfig& c,
                                                 AddMode mode, KeyChunk* chunk,
                                                 double* add_ns_per_key) {
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(c.spec.options, c.keys);
  if (!filter.ok()) return filter.status();
  const bool batched =
      mode == AddMode::kBatchedAdd || mode == AddMode::kSingleWriterBatchedAdd;
  const bool single_writer = mode == AddMode::kSingleWriterAdd ||
                             mode == AddMode::kSingleWriterBatchedAdd;
  const double generate_ns = GenerateCpuNanos(0, c.keys, chunk);
  uint64_t changed = 0;
  const double start = ThreadCpuNanos();
  ForEachChunk(0, c.keys, chunk, [&](const KeyChunk& keys) {
    if (!batched) {
      for (size_t i = 0; i < keys.size(); ++i) {
        changed += single_writer ? filter->AddSingleWriter(keys[i])
                                 : filter->Add(keys[i]);
      }
      return;
    }
    bool added[kBatchSize];
    for (size_t i = 0; i < keys.size(); i += kBatchSize) {
      const size_t n = std::min<size_t>(kBatchSize, keys.size() - i);
      const absl::Span<const absl::string_view> batch =
          absl::MakeConstSpan(keys.data() + i, n);
      if (single_writer) {
        filter->AddSingleWriter(batch, added);
      } else {
        filter->Add(batch, added);
      }
      for (size_t j = 0; j < n; ++j) changed += added[j];
    }
  });
  *add_ns_per_key =
      std::max(0.0, ThreadCpuNanos() - start - generate_ns) / c.keys;
  KeepResult(changed);
  return filter;
}

// Fills a fresh filter from kWriterThreads threads at once, each adding a
// contiguous share of the keys. *slowest_cpu_ns: the largest thread CPU time
// (minus key making); *wall_ns: from the common start to the last finish,
// minus the slowest key making.
absl::StatusOr<MutableBloomFilter> FillTwoThreads(const MutableBenchConfig& c,
                                                  double* slowest_cpu_ns,
                                                  double* wall_ns) {
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(c.spec.options, c.keys);
  if (!filter.ok()) return filter.status();
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  double cpu_ns[kWriterThreads] = {};
  double generate_ns[kWriterThreads] = {};
  Clock::time_point finished[kWriterThreads];
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriterThreads; ++t) {
    threads.emplace_back([&, t] {
      const uint64_t first = c.keys * t / kWriterThreads;
      const uint64_t count = c.keys * (t + 1) / kWriterThreads - first;
      KeyChunk chunk;
      generate_ns[t] = GenerateCpuNanos(first, count, &chunk);
      ready.fetch_add(1);
      while (!go.load()) std::this_thread::yield();
      uint64_t changed = 0;
      const double start = ThreadCpuNanos();
      ForEachChunk(first, count, &chunk, [&](const KeyChunk& keys) {
        for (size_t i = 0; i < keys.size(); ++i)
          changed += filter->Add(keys[i]);
      });
      cpu_ns[t] = std::max(0.0, ThreadCpuNanos() - start - generate_ns[t]);
      finished[t] = Clock::now();
      KeepResult(changed);
    });
  }
  while (ready.load() < kWriterThreads) std::this_thread::yield();
  const Clock::time_point start = Clock::now();
  go.store(true);
  for (std::thread& thread : threads) thread.join();
  *slowest_cpu_ns = *std::max_element(cpu_ns, cpu_ns + kWriterThreads);
  const Clock::time_point last =
      *std::max_element(finished, finished + kWriterThreads);
  *wall_ns = std::max(
      0.0, std::chrono::duration<double, std::nano>(last - start).count() -
               *std::max_element(generate_ns, generate_ns + kWriterThreads));
  return filter;
}

// Every added key, asked in batches of kBatchSize; DataLossError on a miss.
template <typename BatchQuery>
absl::Status CheckAddedKeys(const char* which, uint64_t n, KeyChunk* chunk,
                            BatchQuery query) {
  absl::Status status;
  uint64_t first = 0;
  ForEachChunk(0, n, chunk, [&](const KeyChunk& keys) {
    for (size_t i = 0; i < keys.size() && status.ok(); i += kBatchSize) {
      const size_t count = std::min<size_t>(kBatchSize, keys.size() - i);
      bool results[kBatchSize];
      query(absl::MakeConstSpan(keys.data() + i, count), results);
      for (size_t j = 0; j < count; ++j) {
        if (!results[j]) {
          status = absl::DataLossError(absl::StrFormat(
              "false negative: added key #%d did not match the %s filter",
              first + i + j, which));
          break;
        }
      }
    }
    first += keys.size();
  });
  return status;
}

// ns per absent key (median over blocks of KeyChunk::kCapacity) for
// body(keys, count), which returns its matches; adds them to *matches.
template <typename Body>
double TimeAbsent(uint64_t first, uint64_t count, KeyChunk* chunk,
                  uint64_t* matches, Body body) {
  const double overhead = TimerOverheadNanos();
  std::vector<double> per_key;
  ForEachChunk(first, count, chunk, [&](const KeyChunk& keys) {
    const Clock::time_point start = Clock::now();
    *matches += body(keys.data(), keys.size());
    per_key.push_back((NanosSince(start) - overhead) / keys.size());
  });
  return Median(std::move(per_key));
}

struct QueryFigures {
  double single_ns = 0;
  double batch_ns = 0;
  uint64_t matches = 0;
};

// One filter's query figures over the repetitions.
struct QuerySeries {
  std::vector<double> single_ns;
  std::vector<double> batch_ns;
  uint64_t matches = 0;

  void Add(const QueryFigures& rep) {
    single_ns.push_back(rep.single_ns);
    batch_ns.push_back(rep.batch_ns);
    matches += rep.matches;
  }
};

// Single and batched absent queries, each on its own fresh range of keys:
// series 2 * impl and 2 * impl + 1 of repetition rep.
template <typename Single, typename Batch>
QueryFigures TimeQueries(const MutableBenchConfig& c, int rep, int impl,
                         KeyChunk* chunk, Single single, Batch batch) {
  QueryFigures figures;
  const auto first = [&](int series) {
    return kAbsentBase + (static_cast<uint64_t>(rep) * 4 + series) * c.queries;
  };
  figures.single_ns =
      TimeAbsent(first(2 * impl), c.queries, chunk, &figures.matches,
                 [&](const absl::string_view* keys, size_t n) {
                   uint64_t sum = 0;
                   for (size_t i = 0; i < n; ++i) sum += single(keys[i]);
                   return sum;
                 });
  figures.batch_ns =
      TimeAbsent(first(2 * impl + 1), c.queries, chunk, &figures.matches,
                 [&](const absl::string_view* keys, size_t n) {
                   uint64_t sum = 0;
                   bool results[kBatchSize];
                   for (size_t i = 0; i < n; i += kBatchSize) {
                     const size_t m = std::min<size_t>(kBatchSize, n - i);
                     batch(absl::MakeConstSpan(keys + i, m), results);
                     for (size_t j = 0; j < m; ++j) sum += results[j];
                   }
                   return sum;
                 });
  return figures;
}

}  // namespace

absl::StatusOr<SizeResult> MeasureSize(
    const MutableBenchConfig& config,
    const std::function<void(const std::string&)>& progress) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewFilterPolicyFromSpec(config.NativeSpec());
  if (!policy.ok()) return policy.status();
  const uint64_t n = config.keys;
  KeyChunk chunk;
  SizeResult result;
  result.config = config;
  std::vector<double> build, add, batch_add, single_writer_add,
      single_writer_batch_add, adds_2, adds_2_wall;
  QuerySeries immutable_queries;
  QuerySeries mutable_queries;
  for (int rep = 0; rep < config.reps; ++rep) {
    progress(absl::StrFormat("%d keys: repetition %d of %d", n, rep + 1,
                             config.reps));
    // Alternate which filter goes first, so that drift in the machine's speed
    // reaches both alike.
    const bool immutable_first = rep % 2 == 0;
    absl::StatusOr<Immutable> immutable;
    absl::StatusOr<MutableBloomFilter> one_thread =
        absl::UnknownError("not built");
    double add_ns = 0;
    if (immutable_first) immutable = BuildImmutable(**policy, n, &chunk);
    one_thread = FillOneThread(config, AddMode::kAdd, &chunk, &add_ns);
    if (!immutable_first) immutable = BuildImmutable(**policy, n, &chunk);
    if (!immutable.ok()) return immutable.status();
    if (!one_thread.ok()) return one_thread.status();
    double batch_add_ns = 0;
    absl::StatusOr<MutableBloomFilter> batched =
        FillOneThread(config, AddMode::kBatchedAdd, &chunk, &batch_add_ns);
    if (!batched.ok()) return batched.status();
    double single_writer_ns = 0;
    absl::StatusOr<MutableBloomFilter> single_writer = FillOneThread(
        config, AddMode::kSingleWriterAdd, &chunk, &single_writer_ns);
    if (!single_writer.ok()) return single_writer.status();
    double single_writer_batch_ns = 0;
    absl::StatusOr<MutableBloomFilter> single_writer_batched =
        FillOneThread(config, AddMode::kSingleWriterBatchedAdd, &chunk,
                      &single_writer_batch_ns);
    if (!single_writer_batched.ok()) return single_writer_batched.status();
    double slowest_cpu_ns = 0;
    double wall_ns = 0;
    absl::StatusOr<MutableBloomFilter> two_threads =
        FillTwoThreads(config, &slowest_cpu_ns, &wall_ns);
    if (!two_threads.ok()) return two_threads.status();

    // No figure counts before every added key matches in both filters, and
    // the order of the adds left no trace in the bits.
    absl::Status checked = CheckAddedKeys(
        "immutable", n, &chunk,
        [&](absl::Span<const absl::string_view> keys, bool* results) {
          immutable->reader->MayMatch(keys, results);
        });
    if (checked.ok()) {
      checked = CheckAddedKeys(
          "mutable", n, &chunk,
          [&](absl::Span<const absl::string_view> keys, bool* results) {
            one_thread->MayContain(keys, results);
          });
    }
    if (!checked.ok()) return checked;
    const std::string bits = one_thread->Freeze();
    if (two_threads->Freeze() != bits || batched->Freeze() != bits ||
        single_writer->Freeze() != bits ||
        single_writer_batched->Freeze() != bits) {
      return absl::DataLossError(
          "the filters filled by two threads, by batches or by a single "
          "writer differ from the one filled by Add one key at a time");
    }
    result.keys_checked = n;

    build.push_back(immutable->build_ns_per_key);
    add.push_back(add_ns);
    batch_add.push_back(batch_add_ns);
    single_writer_add.push_back(single_writer_ns);
    single_writer_batch_add.push_back(single_writer_batch_ns);
    adds_2.push_back(slowest_cpu_ns > 0 ? n * 1e9 / slowest_cpu_ns
                                        : kNotMeasured);
    adds_2_wall.push_back(wall_ns > 0 ? n * 1e9 / wall_ns : kNotMeasured);

    const FilterReader& reader = *immutable->reader;
    const MutableBloomFilter& filter = *one_thread;
    const auto time_immutable = [&] {
      immutable_queries.Add(TimeQueries(
          config, rep, /*impl=*/0, &chunk,
          [&](absl::string_view key) { return reader.MayMatch(key); },
          [&](absl::Span<const absl::string_view> keys, bool* results) {
            reader.MayMatch(keys, results);
          }));
    };
    const auto time_mutable = [&] {
      mutable_queries.Add(TimeQueries(
          config, rep, /*impl=*/1, &chunk,
          [&](absl::string_view key) { return filter.MayContain(key); },
          [&](absl::Span<const absl::string_view> keys, bool* results) {
            filter.MayContain(keys, results);
          }));
    };
    if (immutable_first) {
      time_immutable();
      time_mutable();
    } else {
      time_mutable();
      time_immutable();
    }
    if (rep == 0) {
      result.immutable.bits_per_key = 8.0 * immutable->filter.bytes.size() / n;
      result.mutable_filter.bits_per_key = 8.0 * filter.MemoryBytes() / n;
    }
  }
  const double asked = 2.0 * config.queries * config.reps;
  result.immutable.fp_rate = immutable_queries.matches / asked;
  result.immutable.build_ns_per_key = Median(build);
  result.immutable.query_ns = Median(immutable_queries.single_ns);
  result.immutable.batch_ns = Median(immutable_queries.batch_ns);
  MutableFigures& m = result.mutable_filter;
  m.fp_rate = mutable_queries.matches / asked;
  m.add_ns_per_key = Median(add);
  m.adds_per_second_1_thread = 1e9 / m.add_ns_per_key;
  m.batch_add_ns_per_key = Median(batch_add);
  m.single_writer_add_ns_per_key = Median(single_writer_add);
  m.single_writer_batch_add_ns_per_key = Median(single_writer_batch_add);
  m.adds_per_second_2_threads = Median(adds_2);
  m.adds_per_second_2_threads_wall = Median(adds_2_wall);
  m.query_ns = Median(mutable_queries.single_ns);
  m.batch_ns = Median(mutable_queries.batch_ns);
  return result;
}

}  // namespace bench
}  // namespace sstfilter
