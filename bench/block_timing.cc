#include "bench/block_timing.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_format.h"
#include "bench/keys.h"
#include "bench/timing.h"
#include "util/hash.h"

namespace sstfilter {
namespace bench {
namespace {

// A timed figure: its queries, where its median goes, and the memory floor
// timed beside it, if any.
struct FigureSpec {
  QueryFigure figure;
  const QuerySet CaseData::*queries;
  double RepResult::*query_ns;
  std::optional<MemoryAccess> floor;
  double RepResult::*floor_ns;
};

const FigureSpec kFigures[] = {
    {QueryFigure::kNegative, &CaseData::negative, &RepResult::query_ns_negative,
     MemoryAccess::kIndependent, &RepResult::memory_floor_ns},
    {QueryFigure::kPositive, &CaseData::positive, &RepResult::query_ns_positive,
     std::nullopt, nullptr},
    {QueryFigure::kMixed, &CaseData::mixed, &RepResult::query_ns_mixed,
     std::nullopt, nullptr},
    {QueryFigure::kDependent, &CaseData::mixed, &RepResult::query_ns_dependent,
     MemoryAccess::kDependent, &RepResult::memory_floor_dependent_ns},
    {QueryFigure::kBatched, &CaseData::batched, &RepResult::query_ns_batched,
     MemoryAccess::kBatched, &RepResult::memory_floor_batched_ns},
};

// Blocks an implementation runs in one turn before the next takes over: about
// 6 ms of out-of-cache queries, much shorter than the spells in which a shared
// machine keeps one speed, and long enough that the few blocks that refill
// the caches and page-walk caches after another implementation's turn do not
// move the median.
constexpr size_t kBlocksPerTurn = 64;

// ns per item of a region started at `start` over n items.
double PerItem(Clock::time_point start, double overhead, size_t n) {
  return (NanosSince(start) - overhead) / static_cast<double>(n);
}

// Times one figure for every runner; returns each runner's matches. With
// floors_in_turns each runner's memory floor follows its own turn of queries;
// otherwise the floors are timed after all the figure's queries, so that a
// floor's buffer never shares the cache with the filters being timed.
std::vector<uint64_t> TimeFigure(const CaseData& data, const FigureSpec& spec,
                                 const std::vector<ImplRunner*>& runners,
                                 bool time_floors, bool floors_in_turns,
                                 const std::vector<RepResult*>& results,
                                 std::vector<double>* hash_ns) {
  const QuerySet& queries = data.*spec.queries;
  const size_t num_runners = runners.size();
  std::vector<std::vector<double>> query_ns(num_runners);
  std::vector<std::vector<double>> floor_ns(num_runners);
  std::vector<uint64_t> hits(num_runners, 0);
  const double overhead = TimerOverheadNanos();
  uint64_t sink = 0;
  KeyChunk chunk;
  const auto time_floor_turn = [&](size_t r, size_t first, size_t end) {
    for (size_t start = first; start < end; start += kQueryBlock) {
      const size_t n = std::min(kQueryBlock, end - start);
      const Clock::time_point t = Clock::now();
      sink += runners[r]->LoadFloorLines(*spec.floor,
                                         data.random32.data() + start, n);
      floor_ns[r].push_back(PerItem(t, overhead, n));
    }
  };
  const bool floors = time_floors && spec.floor.has_value();
  const size_t turn_queries = kBlocksPerTurn * kQueryBlock;
  const size_t num_turns = (queries.size() + turn_queries - 1) / turn_queries;
  for (size_t turn = 0; turn < num_turns; ++turn) {
    const size_t first = turn * turn_queries;
    const size_t end = std::min(queries.size(), first + turn_queries);
    for (size_t step = 0; step < num_runners; ++step) {
      const size_t r = (step + turn) % num_runners;
      const bool run_queries =
          spec.figure != QueryFigure::kBatched || runners[r]->HasBatch();
      for (size_t start = first; run_queries && start < end;
           start += kQueryBlock) {
        const size_t n = std::min(kQueryBlock, end - start);
        chunk.FillIndexes(queries.kind, queries.indexes.data() + start, n);
        const absl::string_view* keys = chunk.data();
        const uint32_t* filters =
            queries.filters.empty() ? nullptr : queries.filters.data() + start;
        if (hash_ns != nullptr && step == 0) {
          const Clock::time_point t = Clock::now();
          for (size_t i = 0; i < n; ++i) sink += Hash64(keys[i]);
          hash_ns->push_back(PerItem(t, overhead, n));
        }
        const Clock::time_point t = Clock::now();
        hits[r] += runners[r]->RunQueries(spec.figure, keys, filters, n);
        query_ns[r].push_back(PerItem(t, overhead, n));
      }
      if (floors && floors_in_turns) time_floor_turn(r, first, end);
    }
  }
  for (size_t turn = 0; floors && !floors_in_turns && turn < num_turns;
       ++turn) {
    const size_t first = turn * turn_queries;
    const size_t end = std::min(queries.size(), first + turn_queries);
    for (size_t step = 0; step < num_runners; ++step) {
      time_floor_turn((step + turn) % num_runners, first, end);
    }
  }
  KeepResult(sink);
  for (size_t r = 0; r < num_runners; ++r) {
    results[r]->*spec.query_ns = Median(std::move(query_ns[r]));
    if (floors) {
      results[r]->*spec.floor_ns = Median(std::move(floor_ns[r]));
    }
  }
  return hits;
}

}  // namespace

absl::Status TimeRepetition(const CaseData& data,
                            const std::vector<ImplRunner*>& runners,
                            bool measure_speed, bool interleaved,
                            const std::vector<RepResult*>& results,
                            double* hash_floor_ns, size_t* failed) {
  std::vector<double> hash_ns;
  for (const FigureSpec& spec : kFigures) {
    const bool negative = spec.figure == QueryFigure::kNegative;
    if (!measure_speed && !negative) continue;
    const bool mixed = spec.figure == QueryFigure::kMixed;
    const std::vector<uint64_t> hits =
        TimeFigure(data, spec, runners, measure_speed, interleaved, results,
                   mixed ? &hash_ns : nullptr);
    const size_t asked = (data.*spec.queries).size();
    for (size_t r = 0; r < runners.size(); ++r) {
      if (negative) {
        results[r]->fp_rate =
            static_cast<double>(hits[r]) / static_cast<double>(asked);
        if (!measure_speed) results[r]->query_ns_negative = kNotMeasured;
      } else if (spec.figure == QueryFigure::kPositive && hits[r] != asked) {
        *failed = r;
        return absl::DataLossError(absl::StrFormat(
            "false negative: %d of %d added keys queried did not match",
            asked - hits[r], asked));
      }
    }
  }
  *hash_floor_ns = Median(std::move(hash_ns));
  return absl::OkStatus();
}

absl::StatusOr<RepResult> RunRepetition(ImplRunner* runner,
                                        const CaseData& data,
                                        bool measure_speed) {
  RepResult result;
  absl::Status status = runner->Prepare(data, &result);
  if (status.ok()) {
    double hash_floor_ns;
    size_t failed;
    status = TimeRepetition(data, {runner}, measure_speed,
                            /*interleaved=*/false, {&result}, &hash_floor_ns,
                            &failed);
  }
  runner->Release();
  if (!status.ok()) return status;
  return result;
}

}  // namespace bench
}  // namespace sstfilter
