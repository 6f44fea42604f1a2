#include "bench/harness.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "absl/strings/str_format.h"
#include "bench/block_timing.h"
#include "bench/turns.h"
#include "bench/workload.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bench {
namespace {

std::string Describe(const Workload& w, const FilterOptions& options) {
  std::string size =
      options.fpp.has_value()
          ? absl::StrFormat("fpp=%g", *options.fpp)
          : absl::StrFormat("bits/key=%g", *options.bits_per_key);
  if (w.num_filters > 1) {
    return absl::StrFormat("%s %dx%d keys %s", w.name, w.num_filters,
                           w.keys_per_filter, size);
  }
  return absl::StrFormat("%s %d keys %s", w.name, w.keys_per_filter, size);
}

// Bytes of one implementation's filters in a case: the configured bits/key, or
// the standard Bloom filter's for an fpp (the Bloom filters' size; the compact
// filters' is about 0.7 of it).
double FilterBytes(const Workload& w, const FilterOptions& options) {
  const double bits_per_key = options.bits_per_key.has_value()
                                  ? *options.bits_per_key
                                  : StandardBloomBitsPerKey(*options.fpp);
  return static_cast<double>(w.total_keys()) * bits_per_key / 8;
}

// Where --timing=auto interleaves: fixed sizes rather than this machine's
// caches, so that a command times a case the same way everywhere (and the C
// library's L3 figure is the whole package's on some AMD machines: 256 MB on
// an 8-complex EPYC, whose cores each see 32 MB).
constexpr double kAllFitInL2Bytes = 256 * 1024;  // half a 512 KB L2
constexpr double kMissesL3Bytes = 2 * kL3CacheBytes;

// Interleaving puts every implementation's filters, and their memory floors'
// buffers, in memory at once. That changes no figure where all of them fit in
// L2 together (10^4 keys), nor where each implementation's filters alone miss
// the L3 anyway (lsm6400, 10^8 keys). In between (10^6 keys: in L3 alone, not
// all together) each implementation is timed after the other, with the cache
// to itself as in a store.
bool Interleaves(Timing timing, const Workload& w, const FilterOptions& options,
                 size_t num_impls) {
  switch (timing) {
    case Timing::kInterleaved:
      return true;
    case Timing::kSequential:
      return false;
    case Timing::kAuto:
      break;
  }
  const double bytes = FilterBytes(w, options);
  return 2 * bytes * static_cast<double>(num_impls) <= kAllFitInL2Bytes ||
         bytes > kMissesL3Bytes;
}

// Medians field by field.
RepResult MedianOf(const std::vector<RepResult>& reps) {
  const auto median = [&reps](double RepResult::*field) {
    std::vector<double> values;
    for (const RepResult& r : reps) values.push_back(r.*field);
    return Median(std::move(values));
  };
  RepResult m;
  for (double RepResult::*field :
       {&RepResult::build_ns_per_key, &RepResult::bits_per_key,
        &RepResult::fp_rate, &RepResult::expected_fp_rate,
        &RepResult::query_ns_positive, &RepResult::query_ns_negative,
        &RepResult::query_ns_mixed, &RepResult::query_ns_dependent,
        &RepResult::query_ns_batched, &RepResult::memory_floor_ns,
        &RepResult::memory_floor_dependent_ns,
        &RepResult::memory_floor_batched_ns, &RepResult::huge_page_share}) {
    m.*field = median(field);
  }
  m.keys_checked = reps.front().keys_checked;
  m.line_offsets = reps.front().line_offsets;
  return m;
}

absl::Status RunCase(const BenchConfig& config, const Workload& workload,
                     const FilterOptions& options, int case_index,
                     const Progress& progress, std::vector<Row>* rows) {
  const std::string title = Describe(workload, options);
  progress(absl::StrFormat("%s: generating %d queries per set", title,
                           config.queries));
  CaseData data = MakeCaseData(workload, options, config.queries);
  data.placement = config.placement;
  data.huge_pages = config.huge_pages;

  std::vector<std::unique_ptr<ImplRunner>> runners;
  for (const ImplEntry* impl : config.impls) {
    absl::StatusOr<std::unique_ptr<ImplRunner>> runner =
        impl->make(options, config.drop_one_key);
    if (!runner.ok()) {
      return absl::Status(runner.status().code(),
                          std::string(impl->name) + ": " +
                              std::string(runner.status().message()));
    }
    runners.push_back(*std::move(runner));
  }

  const size_t num_impls = runners.size();
  const bool interleaved =
      Interleaves(config.timing, workload, options, runners.size());
  // Frees every implementation's filters, whatever happens.
  const auto release_all = [&runners] {
    for (const std::unique_ptr<ImplRunner>& runner : runners) {
      runner->Release();
    }
  };
  const auto failure = [&](size_t i, const absl::Status& status) {
    release_all();
    return absl::Status(status.code(),
                        absl::StrFormat("%s, %s: %s", config.impls[i]->name,
                                        title, status.message()));
  };
  std::vector<std::vector<RepResult>> results(num_impls);
  std::vector<double> hash_floors;
  for (int rep = 0; rep < config.reps; ++rep) {
    // The implementations take turns in an order rotated each rep: each builds
    // and checks its filters, then, sequential, is timed and frees them; or,
    // interleaved, all are timed together once all are built.
    std::vector<RepResult> rep_results(num_impls);
    std::vector<ImplRunner*> prepared;
    std::vector<RepResult*> prepared_results;
    std::vector<size_t> prepared_index;
    for (size_t step = 0; step < num_impls; ++step) {
      const size_t i = TurnOf(rep, step, num_impls);
      const Clock::time_point start = Clock::now();
      absl::Status status = runners[i]->Prepare(data, &rep_results[i]);
      if (!status.ok()) return failure(i, status);
      prepared.push_back(runners[i].get());
      prepared_results.push_back(&rep_results[i]);
      prepared_index.push_back(i);
      const bool last = step + 1 == num_impls;
      if (!interleaved || last) {
        double hash_floor_ns = kNotMeasured;
        size_t failed = 0;
        status =
            TimeRepetition(data, prepared, /*measure_speed=*/true, interleaved,
                           prepared_results, &hash_floor_ns, &failed);
        if (!status.ok()) return failure(prepared_index[failed], status);
        for (ImplRunner* runner : prepared) runner->Release();
        hash_floors.push_back(hash_floor_ns);
        prepared.clear();
        prepared_results.clear();
        prepared_index.clear();
      }
      progress(absl::StrFormat(
          "%s: rep %d/%d %-26s %6.1f s%s", title, rep + 1, config.reps,
          config.impls[i]->name, NanosSince(start) * 1e-9,
          interleaved ? (last ? " (built; all timed)" : " (built)") : ""));
    }
    for (size_t i = 0; i < num_impls; ++i) {
      results[i].push_back(rep_results[i]);
    }
  }

  const double hash_floor = Median(hash_floors);
  for (size_t i = 0; i < num_impls; ++i) {
    Row row;
    row.impl = config.impls[i]->name;
    row.details = runners[i]->Details();
    row.workload = workload.name;
    row.keys = workload.keys_per_filter;
    row.filters = workload.num_filters;
    row.key_bytes = data.key_bytes;
    row.bits_per_key_config = runners[i]->ConfiguredBitsPerKey();
    row.bits_per_key_requested = options.bits_per_key;
    row.fpp_config = options.fpp;
    row.has_batch = runners[i]->HasBatch();
    row.median = MedianOf(results[i]);
    row.hash_floor_ns = hash_floor;
    row.reps = config.reps;
    row.placement = config.placement;
    row.huge_pages = config.huge_pages;
    row.interleaved = interleaved;
    const bool inherited =
        std::any_of(results[i].begin(), results[i].end(),
                    [](const RepResult& r) { return r.check_inherited; });
    row.case_index = case_index;
    row.check = absl::StrFormat(
        "all %d added keys%s", workload.total_keys(),
        inherited ? " (later reps: identical filter bytes)" : "");
    rows->push_back(std::move(row));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<Row>> RunBench(const BenchConfig& config,
                                          const Progress& progress) {
  absl::StatusOr<std::vector<Workload>> workloads =
      ExpandWorkloads(config.workloads, config.keys, config.other_keys);
  if (!workloads.ok()) return workloads.status();
  // RunCase reports each step once: generating the queries, then each
  // implementation's turn in each rep. Counting them tells a user how far a
  // run of many minutes has come.
  const size_t steps_per_case =
      1 + static_cast<size_t>(config.reps) * config.impls.size();
  const size_t total_steps =
      config.filter_sizes.size() * workloads->size() * steps_per_case;
  size_t step = 0;
  const Clock::time_point start = Clock::now();
  const Progress counted = [&](const std::string& line) {
    progress(absl::StrFormat("[%d/%d, %.0f s] %s", ++step, total_steps,
                             NanosSince(start) * 1e-9, line));
  };
  std::vector<Row> rows;
  int case_index = 0;
  for (const FilterOptions& options : config.filter_sizes) {
    for (const Workload& workload : *workloads) {
      absl::Status status =
          RunCase(config, workload, options, case_index++, counted, &rows);
      if (!status.ok()) return status;
    }
  }
  return rows;
}

absl::StatusOr<std::vector<FppSeries>> SweepFpp(const BenchConfig& config,
                                                uint64_t keys, int first,
                                                int last,
                                                const Progress& progress) {
  const Workload workload{"random16", KeyKind::kRandom16, 1, keys};
  const CaseData data =
      MakeCaseData(workload, FilterOptions::BitsPerKey(first), config.queries);
  std::vector<FppSeries> series;
  for (const ImplEntry* impl : config.impls) {
    FppSeries s{impl->name, {}};
    for (int bits = first; bits <= last; ++bits) {
      absl::StatusOr<std::unique_ptr<ImplRunner>> runner =
          impl->make(FilterOptions::BitsPerKey(bits), config.drop_one_key);
      if (!runner.ok()) return runner.status();
      absl::StatusOr<RepResult> result =
          RunRepetition(runner->get(), data, /*measure_speed=*/false);
      if (!result.ok()) {
        return absl::Status(
            result.status().code(),
            absl::StrFormat("%s, FP sweep at %d bits/key: %s", impl->name, bits,
                            result.status().message()));
      }
      s.points.push_back({(*runner)->ConfiguredBitsPerKey(),
                          result->bits_per_key, result->fp_rate});
    }
    progress(absl::StrFormat("FP sweep %d..%d bits/key, %d keys: %s done",
                             first, last, keys, impl->name));
    series.push_back(std::move(s));
  }
  return series;
}

}  // namespace bench
}  // namespace sstfilter
