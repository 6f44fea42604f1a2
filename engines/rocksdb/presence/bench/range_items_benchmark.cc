// The whole-database range filter's probe (range_items.h RangeMayHoldKey) in
// isolation: for each key shape of util/key_shapes.h, a filter sized and
// filled as a presence filter at 1% with range items, asked empty ranges of
// up to 64 possible keys, correlated (just after a present key) or uniform.
// The ranges are drawn before timing, 2^18 of them per case, each asked once
// per pass, so no small set repeats.
//
// bazel run -c opt //engines/rocksdb/presence/bench:range_items_benchmark

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "benchmark/benchmark.h"
#include "engines/rocksdb/presence/range_items.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "util/key_shapes.h"

namespace sstfilter {
namespace presence_internal {
namespace {

using key_shapes::KeyNumber;
using key_shapes::KeyShape;

constexpr uint64_t kRanges = uint64_t{1} << 18;

// Inclusive ranges, all empty, one after another in one string as db_bench
// keeps its scans: a range's bounds are read from memory the previous range's
// left warm, not from scattered allocations.
struct Ranges {
  std::string bytes;
  std::vector<size_t> low_ends, high_ends;  // where each bound ends in bytes

  void Add(const std::string& low, const std::string& high) {
    bytes += low;
    low_ends.push_back(bytes.size());
    bytes += high;
    high_ends.push_back(bytes.size());
  }
  absl::string_view Low(size_t i) const {
    const size_t begin = i == 0 ? 0 : high_ends[i - 1];
    return absl::string_view(bytes).substr(begin, low_ends[i] - begin);
  }
  absl::string_view High(size_t i) const {
    return absl::string_view(bytes).substr(low_ends[i],
                                           high_ends[i] - low_ends[i]);
  }
};

struct Case {
  KeyAlphabets alphabets;
  std::unique_ptr<MutableBloomFilter> bits;
  Ranges ranges;
};

absl::StatusOr<std::unique_ptr<Case>> MakeCase(const KeyShape& shape,
                                               uint64_t keys, bool correlated) {
  constexpr double kFpp = 0.01;
  const absl::StatusOr<double> range_items = RangeItemsPerKey(kFpp);
  if (!range_items.ok()) return range_items.status();
  absl::StatusOr<MutableBloomFilter> bits = MutableBloomFilter::Create(
      FilterOptions::Fpp(kFpp),
      static_cast<uint64_t>(static_cast<double>(keys) * (1 + *range_items)));
  if (!bits.ok()) return bits.status();
  auto made = std::make_unique<Case>();
  made->bits = std::make_unique<MutableBloomFilter>(*std::move(bits));
  key_shapes::NumberDraws draws(42);
  const std::vector<KeyNumber> present =
      key_shapes::DrawKeyNumbers(shape, keys, &draws);
  for (KeyNumber number : present) {
    const std::string key = shape.key(number);
    made->bits->AddSingleWriter(key);
    AddRangeItemsSingleWriter(key, &made->alphabets, made->bits.get());
  }
  for (uint64_t i = 0; i < kRanges; ++i) {
    const key_shapes::NumberRange range = key_shapes::DrawEmptyRange(
        shape, present, key_shapes::kMaxRangeWidth, correlated, &draws);
    made->ranges.Add(shape.key(range.lo), shape.key(range.hi));
  }
  return made;
}

// range(0): key shape; range(1): 1 for correlated ranges; range(2): keys.
void BM_RangeMayHoldKey(benchmark::State& state) {
  const KeyShape& shape =
      key_shapes::KeyShapes()[static_cast<size_t>(state.range(0))];
  const absl::StatusOr<std::unique_ptr<Case>> made =
      MakeCase(shape, static_cast<uint64_t>(state.range(2)), state.range(1));
  if (!made.ok()) {
    state.SkipWithError(made.status().ToString().c_str());
    return;
  }
  const Case* c = made->get();
  uint64_t i = 0, matched = 0;
  for (auto _ : state) {
    const size_t at = i++ % kRanges;
    matched += RangeMayHoldKey(c->alphabets, *c->bits, c->ranges.Low(at),
                               c->ranges.High(at), /*hi_inclusive=*/true);
  }
  state.SetLabel(std::string(shape.name) +
                 (state.range(1) ? " correlated" : " uniform") + ", " +
                 std::to_string(c->bits->MemoryBytes() >> 10) + " KiB, " +
                 std::to_string(100.0 * matched / i) + "% matched");
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_RangeMayHoldKey)
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1}, {10000, 400000}})
    ->MinTime(0.5);

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
