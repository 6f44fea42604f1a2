// Tests of the harness: it catches false negatives on every query path, checks
// that RocksDB filters are of the kind asked for, and produces complete,
// plausible rows.

#include "bench/harness.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench/block_timing.h"
#include "bench/drop_one_key_peer.h"
#include "bench/impls.h"
#include "bench/measure.h"
#include "bench/report.h"
#include "bench/rocksdb_peer.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "util/hash.h"

namespace sstfilter {
namespace bench {
namespace {

// A test-only implementation: the filter is the sorted 64-bit hashes of the
// keys. It can lie about the first key added, on the single or the batched
// path.
enum class Lie { kNone, kSingle, kBatch };

class SortedHashAdapter {
 public:
  static constexpr bool kHasBatch = true;

  explicit SortedHashAdapter(Lie lie) : lie_(lie) {}

  class Builder {
   public:
    void Add(absl::string_view key) { hashes_.push_back(Hash64(key)); }
    absl::Status Finish(BuiltFilter* out) {
      std::sort(hashes_.begin(), hashes_.end());
      out->storage.assign(reinterpret_cast<const char*>(hashes_.data()),
                          hashes_.size() * sizeof(uint64_t));
      out->bytes = out->storage;
      return absl::OkStatus();
    }

   private:
    std::vector<uint64_t> hashes_;
  };

  class Reader {
   public:
    Reader(absl::string_view filter, Lie lie) : lie_(lie) {
      hashes_.resize(filter.size() / sizeof(uint64_t));
      std::memcpy(hashes_.data(), filter.data(), filter.size());
      first_ = hashes_.empty() ? 0 : hashes_.front();
    }
    bool MayMatch(absl::string_view key) const {
      return Match(key, lie_ == Lie::kSingle);
    }
    void MayMatchBatch(const absl::string_view* keys, int n,
                       bool* results) const {
      for (int i = 0; i < n; ++i)
        results[i] = Match(keys[i], lie_ == Lie::kBatch);
    }
    double ExpectedFpp(size_t) const { return 0.0; }

   private:
    // Lies about the smallest hash, which is one of the added keys.
    bool Match(absl::string_view key, bool lie) const {
      const uint64_t h = Hash64(key);
      if (lie && h == first_) return false;
      return std::binary_search(hashes_.begin(), hashes_.end(), h);
    }
    std::vector<uint64_t> hashes_;
    uint64_t first_;
    Lie lie_;
  };

  std::unique_ptr<Builder> NewBuilder() const {
    return std::make_unique<Builder>();
  }
  Reader NewReader(absl::string_view filter) const {
    return Reader(filter, lie_);
  }
  absl::Status CheckKind(absl::string_view) const { return absl::OkStatus(); }
  double ConfiguredBitsPerKey() const { return 64; }
  std::string Details() const { return "sorted hashes"; }

 private:
  Lie lie_;
};

CaseData SmallCase(size_t num_filters = 1) {
  const Workload w{"random16", KeyKind::kRandom16, num_filters, 2000};
  return MakeCaseData(w, FilterOptions::BitsPerKey(10), 1 << 14);
}

TEST(HarnessTest, HonestImplementationPasses) {
  Runner<SortedHashAdapter> runner(
      std::make_unique<SortedHashAdapter>(Lie::kNone));
  absl::StatusOr<RepResult> result = RunRepetition(&runner, SmallCase(), true);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->keys_checked, 2000u);
  EXPECT_EQ(result->fp_rate, 0.0);
  EXPECT_DOUBLE_EQ(result->bits_per_key, 64.0);
}

// --huge_pages: the filters move into an arena (at cache lines) and every
// figure is still measured; the share of bytes in huge pages is a fraction.
TEST(HarnessTest, HugePagesRunPlacesFiltersInTheArena) {
  Runner<SortedHashAdapter> runner(
      std::make_unique<SortedHashAdapter>(Lie::kNone));
  CaseData data = SmallCase(/*num_filters=*/64);
  data.huge_pages = true;
  absl::StatusOr<RepResult> result = RunRepetition(&runner, data, true);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->keys_checked, 64u * 2000u);
  EXPECT_EQ(result->line_offsets, (std::map<int, size_t>{{0, 64}}));
  EXPECT_GE(result->huge_page_share, 0.0);
  EXPECT_LE(result->huge_page_share, 1.0);
  EXPECT_TRUE(std::isfinite(result->memory_floor_ns));
}

TEST(HarnessTest, CatchesFalseNegativeOnSinglePath) {
  Runner<SortedHashAdapter> runner(
      std::make_unique<SortedHashAdapter>(Lie::kSingle));
  absl::StatusOr<RepResult> result = RunRepetition(&runner, SmallCase(), true);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(result.status().message().find("false negative"),
            std::string::npos);
}

TEST(HarnessTest, CatchesFalseNegativeOnBatchPath) {
  Runner<SortedHashAdapter> runner(
      std::make_unique<SortedHashAdapter>(Lie::kBatch));
  absl::StatusOr<RepResult> result = RunRepetition(&runner, SmallCase(), false);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss);
}

TEST(HarnessTest, CatchesFalseNegativeInManyFilters) {
  Runner<DropOneKeyPeer<SortedHashAdapter>> runner(
      std::make_unique<DropOneKeyPeer<SortedHashAdapter>>(
          std::make_unique<SortedHashAdapter>(Lie::kNone)));
  absl::StatusOr<RepResult> result =
      RunRepetition(&runner, SmallCase(8), false);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss);
}

// Every registered implementation, wrapped so one added key reads "no", is
// caught.
TEST(HarnessTest, CatchesDroppedKeyInEveryRegisteredImplementation) {
  const CaseData data = SmallCase();
  for (const ImplEntry& entry : Registry()) {
    absl::StatusOr<std::unique_ptr<ImplRunner>> runner =
        entry.make(FilterOptions::BitsPerKey(10), /*drop_one_key=*/true);
    ASSERT_TRUE(runner.ok()) << entry.name;
    absl::StatusOr<RepResult> result =
        RunRepetition(runner->get(), data, false);
    ASSERT_FALSE(result.ok()) << entry.name;
    EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss)
        << entry.name;
  }
}

// A later rep whose filter bytes equal the checked ones inherits the check.
TEST(HarnessTest, IdenticalRepInheritsCheck) {
  const CaseData data = SmallCase();
  absl::StatusOr<std::unique_ptr<ImplRunner>> runner =
      FindImpl("lib:rocksdb.fastbloom")
          ->make(FilterOptions::BitsPerKey(10), false);
  ASSERT_TRUE(runner.ok());
  absl::StatusOr<RepResult> first = RunRepetition(runner->get(), data, false);
  absl::StatusOr<RepResult> second = RunRepetition(runner->get(), data, false);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_FALSE(first->check_inherited);
  EXPECT_TRUE(second->check_inherited);
}

// Each RocksDB adapter recognises its own filters and refuses the others'
// trailers.
TEST(RocksDbAdapterTest, CheckKindTellsTheFiltersApart) {
  const RocksDbFilterKind kinds[] = {RocksDbFilterKind::kFastLocalBloom,
                                     RocksDbFilterKind::kLegacyBloom,
                                     RocksDbFilterKind::kRibbon};
  std::vector<std::unique_ptr<RocksDbPeer>> adapters;
  std::vector<BuiltFilter> filters(3);
  KeyChunk chunk;
  chunk.Fill(KeyKind::kRandom16, 0, KeyChunk::kCapacity);
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<std::unique_ptr<RocksDbPeer>> adapter =
        RocksDbPeer::Create(kinds[i], FilterOptions::BitsPerKey(10));
    ASSERT_TRUE(adapter.ok());
    adapters.push_back(*std::move(adapter));
    std::unique_ptr<RocksDbPeer::Builder> builder = adapters[i]->NewBuilder();
    for (size_t k = 0; k < chunk.size(); ++k) builder->Add(chunk[k]);
    ASSERT_TRUE(builder->Finish(&filters[i]).ok());
  }
  for (int a = 0; a < 3; ++a) {
    for (int f = 0; f < 3; ++f) {
      EXPECT_EQ(adapters[a]->CheckKind(filters[f].bytes).ok(), a == f)
          << "adapter " << a << " filter " << f;
    }
  }
  EXPECT_FALSE(adapters[0]->CheckKind("").ok());
}

// Measured FP rates sit near the expected rate where the math is exact
// (deterministic keys, so this cannot flake: 2^20 absent keys give a relative
// sd of about 1%).
TEST(HarnessTest, RowsAreCompleteAndPlausible) {
  BenchConfig config;
  for (const ImplEntry& entry : Registry()) config.impls.push_back(&entry);
  config.workloads = {"random16"};
  config.keys = {100000};
  config.filter_sizes = {FilterOptions::BitsPerKey(10)};
  config.reps = 1;
  config.queries = 1 << 20;
  std::vector<std::string> progress;
  absl::StatusOr<std::vector<Row>> rows = RunBench(
      config, [&](const std::string& line) { progress.push_back(line); });
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), Registry().size());
  EXPECT_FALSE(progress.empty());
  for (const Row& row : *rows) {
    const RepResult& m = row.median;
    SCOPED_TRACE(row.impl);
    EXPECT_EQ(m.keys_checked, 100000u);
    for (double v :
         {m.build_ns_per_key, m.query_ns_positive, m.query_ns_negative,
          m.query_ns_mixed, m.query_ns_dependent, m.memory_floor_ns,
          m.memory_floor_dependent_ns, m.memory_floor_batched_ns,
          row.hash_floor_ns}) {
      EXPECT_TRUE(std::isfinite(v) && v > 0);
    }
    EXPECT_EQ(std::isnan(m.query_ns_batched), row.impl == "lib:leveldb.bloom");
    if (row.impl == "burr") {
      // The compact filter spends 10 bits/key on about 0.1%, and its rate is
      // exact (2^-columns on each block): about 1,000 false positives here,
      // a relative sd of 3%.
      EXPECT_GT(m.fp_rate, 0.0005);
      EXPECT_LT(m.fp_rate, 0.002);
      EXPECT_NEAR(m.fp_rate, m.expected_fp_rate, 0.1 * m.expected_fp_rate);
    } else {
      EXPECT_GT(m.fp_rate, 0.005);
      EXPECT_LT(m.fp_rate, 0.02);
    }
    // The formulas are tight for RocksDB's filters; LevelDB's 32-bit double
    // hashing and RocksDB's legacy Bloom do measurably worse than their Bloom
    // math.
    if (row.impl == "lib:rocksdb.fastbloom" ||
        row.impl == "lib:rocksdb.ribbon") {
      EXPECT_NEAR(m.fp_rate, m.expected_fp_rate, 0.05 * m.expected_fp_rate);
    }
    if (row.impl == "lib:rocksdb.ribbon") {
      EXPECT_LT(m.bits_per_key, 8.0);
    } else {
      EXPECT_NEAR(m.bits_per_key, 10.0, 0.1);
    }
  }
}

// Every step of a run is one progress line, numbered out of the run's total:
// per case, generating its queries, then each implementation in each rep.
TEST(HarnessTest, ProgressNumbersEveryStep) {
  BenchConfig config;
  config.impls = {FindImpl("bloom"), FindImpl("lib:leveldb.bloom")};
  config.workloads = {"random16", "varlen"};
  config.keys = {1000};
  config.other_keys = {1000, 2000};
  config.filter_sizes = {FilterOptions::BitsPerKey(10)};
  config.reps = 2;
  config.queries = 1 << 12;
  std::vector<std::string> progress;
  absl::StatusOr<std::vector<Row>> rows = RunBench(
      config, [&](const std::string& line) { progress.push_back(line); });
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->size(), 3u * 2u);
  const size_t total = 3 * (1 + 2 * 2);
  ASSERT_EQ(progress.size(), total);
  for (size_t i = 0; i < total; ++i) {
    const std::string prefix = absl::StrFormat("[%d/%d, ", i + 1, total);
    EXPECT_EQ(progress[i].rfind(prefix, 0), 0u) << progress[i];
  }
  EXPECT_NE(progress[4].find("random16 1000 keys"), std::string::npos);
  EXPECT_NE(progress[5].find("varlen 1000 keys"), std::string::npos);
  EXPECT_NE(progress[5].find("generating"), std::string::npos);
  EXPECT_NE(progress.back().find("varlen 2000 keys"), std::string::npos);
}

TEST(HarnessTest, FalseNegativeStopsTheRun) {
  BenchConfig config;
  config.impls = {FindImpl("lib:rocksdb.ribbon")};
  config.workloads = {"varlen"};
  config.keys = {1000};
  config.other_keys = {1000};
  config.filter_sizes = {FilterOptions::BitsPerKey(10)};
  config.queries = 1 << 12;
  config.drop_one_key = true;
  absl::StatusOr<std::vector<Row>> rows =
      RunBench(config, [](const std::string&) {});
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(rows.status().message().find("lib:rocksdb.ribbon"),
            std::string::npos);
}

// Runners timed together each get every figure, and their answers are the
// ones each gives alone: interleaving changes when a query runs, never what
// it answers.
TEST(BlockTimingTest, InterleavedRunnersGetEveryFigure) {
  const CaseData data = SmallCase(/*num_filters=*/4);
  std::vector<std::unique_ptr<ImplRunner>> owned;
  for (const char* name :
       {"bloom", "lib:rocksdb.fastbloom", "lib:leveldb.bloom"}) {
    absl::StatusOr<std::unique_ptr<ImplRunner>> runner =
        FindImpl(name)->make(FilterOptions::BitsPerKey(10), false);
    ASSERT_TRUE(runner.ok()) << name;
    owned.push_back(*std::move(runner));
  }
  std::vector<ImplRunner*> runners;
  std::vector<RepResult> together(owned.size());
  for (size_t i = 0; i < owned.size(); ++i) {
    ASSERT_TRUE(owned[i]->Prepare(data, &together[i]).ok());
    runners.push_back(owned[i].get());
  }
  double hash_floor_ns = kNotMeasured;
  size_t failed = 99;
  std::vector<RepResult*> results;
  for (RepResult& r : together) results.push_back(&r);
  ASSERT_TRUE(TimeRepetition(data, runners, /*measure_speed=*/true,
                             /*interleaved=*/true, results, &hash_floor_ns,
                             &failed)
                  .ok());
  EXPECT_EQ(failed, 99u);
  EXPECT_TRUE(std::isfinite(hash_floor_ns) && hash_floor_ns > 0);
  for (size_t i = 0; i < owned.size(); ++i) {
    owned[i]->Release();
    SCOPED_TRACE(i);
    const RepResult& r = together[i];
    for (double v : {r.query_ns_positive, r.query_ns_negative, r.query_ns_mixed,
                     r.query_ns_dependent, r.memory_floor_ns,
                     r.memory_floor_dependent_ns, r.memory_floor_batched_ns}) {
      EXPECT_TRUE(std::isfinite(v) && v > 0);
    }
    EXPECT_EQ(std::isnan(r.query_ns_batched), i == 2);  // LevelDB: no batch
    absl::StatusOr<RepResult> alone =
        RunRepetition(owned[i].get(), data, /*measure_speed=*/false);
    ASSERT_TRUE(alone.ok());
    EXPECT_EQ(r.fp_rate, alone->fp_rate);
    EXPECT_GT(r.fp_rate, 0.0);
  }
}

// A false negative among the timed queries names the runner that gave it.
TEST(BlockTimingTest, NamesTheRunnerWithAFalseNegative) {
  const CaseData data = SmallCase();
  Runner<SortedHashAdapter> honest(
      std::make_unique<SortedHashAdapter>(Lie::kNone));
  Runner<SortedHashAdapter> liar(
      std::make_unique<SortedHashAdapter>(Lie::kSingle));
  std::vector<RepResult> results(2);
  ASSERT_TRUE(honest.Prepare(data, &results[0]).ok());
  ASSERT_TRUE(liar.Prepare(data, &results[1]).ok());  // checks by batch
  double hash_floor_ns;
  size_t failed = 99;
  const absl::Status status =
      TimeRepetition(data, {&honest, &liar}, /*measure_speed=*/true,
                     /*interleaved=*/true, {&results[0], &results[1]},
                     &hash_floor_ns, &failed);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(failed, 1u);
  honest.Release();
  liar.Release();
}

// --timing: auto times a case whose filters all fit in L2 together
// interleaved, and one that fits in cache only alone sequentially; either mode
// gives the same answers, and the row says which one timed it.
TEST(HarnessTest, TimingModes) {
  BenchConfig config;
  config.impls = {FindImpl("bloom"), FindImpl("lib:rocksdb.fastbloom")};
  config.workloads = {"random16"};
  config.filter_sizes = {FilterOptions::BitsPerKey(10)};
  config.reps = 2;
  config.queries = 1 << 14;
  const auto run = [&config](Timing timing, uint64_t keys) {
    config.timing = timing;
    config.keys = {keys};
    absl::StatusOr<std::vector<Row>> rows =
        RunBench(config, [](const std::string&) {});
    EXPECT_TRUE(rows.ok()) << rows.status();
    EXPECT_EQ(rows.value_or(std::vector<Row>()).size(), 2u);
    return rows.value_or(std::vector<Row>(2));
  };
  // 2 implementations x (filters + floor buffer) of 6 KB, then of 125 KB.
  const std::vector<Row> small_auto = run(Timing::kAuto, 5000);
  const std::vector<Row> large_auto = run(Timing::kAuto, 100000);
  const std::vector<Row> sequential = run(Timing::kSequential, 5000);
  const std::vector<Row> interleaved = run(Timing::kInterleaved, 100000);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(small_auto[i].interleaved);
    EXPECT_FALSE(large_auto[i].interleaved);
    EXPECT_FALSE(sequential[i].interleaved);
    EXPECT_TRUE(interleaved[i].interleaved);
    EXPECT_EQ(small_auto[i].median.fp_rate, sequential[i].median.fp_rate);
    EXPECT_EQ(large_auto[i].median.fp_rate, interleaved[i].median.fp_rate);
    EXPECT_TRUE(std::isfinite(interleaved[i].median.query_ns_dependent));
    EXPECT_TRUE(std::isfinite(small_auto[i].hash_floor_ns));
  }
}

TEST(MedianTest, IgnoresNotMeasured) {
  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({4, 1, 2, 3}), 2.5);
  EXPECT_EQ(Median({kNotMeasured, 5, 1}), 3);
  EXPECT_TRUE(std::isnan(Median({kNotMeasured})));
}

Row SampleRow(const std::string& impl, double build) {
  Row row;
  row.impl = impl;
  row.workload = "random16";
  row.keys = 1000;
  row.key_bytes = 16;
  row.bits_per_key_config = 10;
  row.reps = 3;
  row.median.build_ns_per_key = build;
  row.median.query_ns_mixed = 10;
  row.median.bits_per_key = 10;
  return row;
}

TEST(ReportTest, TableHasRatiosAgainstFastBloom) {
  std::ostringstream out;
  PrintTable({SampleRow("lib:rocksdb.fastbloom", 20),
              SampleRow("lib:leveldb.bloom", 50)},
             out);
  const std::string table = out.str();
  EXPECT_NE(table.find("medians of 3 interleaved repetitions"),
            std::string::npos);
  EXPECT_NE(table.find("without AVX2"), std::string::npos);
  EXPECT_NE(table.find("xbuild"), std::string::npos);
  EXPECT_NE(table.find("2.50"), std::string::npos);  // 50 / 20
  EXPECT_NE(table.find("lib:leveldb.bloom"), std::string::npos);
}

TEST(ReportTest, JsonHasEveryField) {
  std::ostringstream out;
  PrintJson({SampleRow("lib:leveldb.bloom", 50)}, out);
  const std::string json = out.str();
  for (const char* field :
       {"impl", "workload", "keys", "key_bytes", "bits_per_key_config",
        "bits_per_key", "fp_rate", "expected_fp_rate", "build_ns_per_key",
        "query_ns_positive", "query_ns_negative", "query_ns_mixed",
        "query_ns_batched", "hash_floor_ns", "memory_floor_ns", "huge_pages",
        "huge_page_share", "timing", "reps"}) {
    EXPECT_NE(json.find(std::string("\"") + field + "\":"), std::string::npos)
        << field;
  }
  EXPECT_NE(json.find("\"query_ns_batched\":null"), std::string::npos);
  EXPECT_EQ(std::count(json.begin(), json.end(), '\n'), 1);
}

// Every line parses back as JSON with the row's values: strings escaped
// whatever they hold, figures to six significant digits, unmeasured ones null.
TEST(ReportTest, JsonRowsParseBack) {
  Row row = SampleRow("lib:leveldb.bloom", 50);
  row.details = "k=\"6\" \\ tab\t newline\n \x01 end";
  row.fpp_config = 0.01;
  row.median.fp_rate = 0.0123456789;
  std::ostringstream out;
  PrintJson({row, SampleRow("lib:rocksdb.fastbloom", 20)}, out);
  std::istringstream lines(out.str());
  std::vector<nlohmann::json> parsed;
  for (std::string line; std::getline(lines, line);) {
    parsed.push_back(nlohmann::json::parse(line, /*cb=*/nullptr,
                                           /*allow_exceptions=*/false));
    ASSERT_FALSE(parsed.back().is_discarded()) << line;
  }
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[0]["impl"], "lib:leveldb.bloom");
  EXPECT_EQ(parsed[0]["details"], row.details);
  EXPECT_EQ(parsed[0]["keys"], 1000);
  EXPECT_EQ(parsed[0]["fpp_config"], 0.01);
  EXPECT_EQ(parsed[0]["fp_rate"], 0.0123457);
  EXPECT_EQ(parsed[0]["build_ns_per_key"], 50);
  EXPECT_TRUE(parsed[0]["query_ns_batched"].is_null());
  EXPECT_EQ(parsed[1]["impl"], "lib:rocksdb.fastbloom");
  EXPECT_TRUE(parsed[1]["fpp_config"].is_null());
}

}  // namespace
}  // namespace bench
}  // namespace sstfilter
