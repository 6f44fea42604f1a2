// What RocksDB's table_filter costs per table a scan reaches
// (engines/rocksdb/rocksdb_range_filter.h): nanoseconds per TableMayHoldRange
// on one table's properties, against the range filter's own query on a reader
// built once, for tables of 5 * 10^4 and 10^6 keys at 16 bits/key. The
// properties hold RocksDB's own user properties before the filter, as a real
// table's do. "unnamed" tables have no db_session_id, so their filter's CRC is
// checked on every call; "threads:2" asks one table from two threads, as
// concurrent scans do. Each query is a fresh empty-or-not range of 16 codes.
//
//   bazel run -c opt //bench/range:rocksdb_range_filter_benchmark

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "engines/rocksdb/rocksdb_range_filter.h"
#include "filter/range/range_filter.h"
#include "filter/range/range_key.h"
#include "filter/testing/filter_test_util.h"
#include "rocksdb/table_properties.h"
#include "table/range_filter_key.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr uint64_t kRangeCodes = 16;
constexpr size_t kQueries = 1 << 16;

rocksdb::TableProperties PropertiesOf(uint64_t keys, bool named) {
  const std::unique_ptr<const FilterPolicy> policy =
      *NewGrafiteFilterPolicy(FilterOptions::BitsPerKey(16));
  std::unique_ptr<FilterBuilder> builder = policy->NewBuilder();
  for (const std::string& key : test::Keys16(0, 0, keys)) builder->AddKey(key);
  std::string filter;
  builder->Finish(&filter);
  rocksdb::TableProperties properties;
  // What RocksDB 7.8.3's block-based tables add to every table.
  properties.user_collected_properties = {
      {"rocksdb.block.based.table.index.type", std::string(4, '\0')},
      {"rocksdb.block.based.table.prefix.filtering", "0"},
      {"rocksdb.block.based.table.whole.key.filtering", "1"},
      {RangeFilterKey(policy->Name()), std::move(filter)},
  };
  if (named) {
    properties.db_session_id = "7DCJ2JM5Q4VE6AOXWB2X";
    properties.orig_file_number = 12;
  }
  return properties;
}

// Fresh [lower, upper) pairs of kRangeCodes codes each.
std::vector<std::pair<std::string, std::string>> Queries() {
  test::Random random(28);
  std::vector<std::pair<std::string, std::string>> queries;
  for (size_t i = 0; i < kQueries; ++i) {
    const uint64_t code = random.Next64() >> 1;
    queries.emplace_back(KeyOfRangeCode(code),
                         KeyOfRangeCode(code + kRangeCodes));
  }
  return queries;
}

void BM_FilterQuery(benchmark::State& state) {
  const rocksdb::TableProperties properties =
      PropertiesOf(static_cast<uint64_t>(state.range(0)), true);
  const std::unique_ptr<RangeFilterReader> reader = NewRangeFilterReader(
      properties.user_collected_properties.rbegin()->second);
  const auto queries = Queries();
  size_t i = 0;
  for (auto _ : state) {
    const auto& [lower, upper] = queries[i++ % kQueries];
    benchmark::DoNotOptimize(reader->RangeMayMatchBefore(lower, upper));
  }
}

void TableFilterCase(benchmark::State& state, bool named) {
  const rocksdb::TableProperties properties =
      PropertiesOf(static_cast<uint64_t>(state.range(0)), named);
  const auto queries = Queries();
  size_t i = 0;
  for (auto _ : state) {
    const auto& [lower, upper] = queries[i++ % kQueries];
    benchmark::DoNotOptimize(TableMayHoldRange(properties, lower, upper));
  }
}
void BM_TableMayHoldRange(benchmark::State& state) {
  TableFilterCase(state, true);
}
void BM_TableMayHoldRangeUnnamed(benchmark::State& state) {
  TableFilterCase(state, false);
}

BENCHMARK(BM_FilterQuery)->Arg(50'000)->Arg(1'000'000);
BENCHMARK(BM_TableMayHoldRange)->Arg(50'000)->Arg(1'000'000);
// Scans on two threads ask the same table.
BENCHMARK(BM_TableMayHoldRange)->Arg(50'000)->Threads(2);
BENCHMARK(BM_TableMayHoldRangeUnnamed)->Arg(50'000)->Arg(1'000'000);

}  // namespace
}  // namespace sstfilter
