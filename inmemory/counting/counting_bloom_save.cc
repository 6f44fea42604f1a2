// CountingBloomFilter::Save and Restore: sizes, counts and the counter blocks
// in the saved filter envelope (filter/internal/saved_filter.h); the layout is
// in inmemory/counting/README.md, "Saving and restoring".

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/filter_policy.h"
#include "filter/internal/saved_filter.h"
#include "inmemory/counting/counting_bloom.h"
#include "inmemory/counting/counting_layout.h"
#include "util/bloom_math.h"
#include "util/coding.h"

namespace sstfilter {

using counting_internal::kBlockBytes;
using counting_internal::kCountersPerBlock;
using counting_internal::kSaturated;
using filter_internal::SavedDataLoss;
using filter_internal::SavedFieldReader;
using filter_internal::SavedKind;

namespace {

constexpr SavedKind kKind = SavedKind::kCountingBloom;
// The fields before the counters: expected keys (8), keys (8), saturated
// counters (8), probes (1), zeros (kHeadZeros), blocks (8).
constexpr size_t kHeadZeros = 7;
constexpr size_t kHeadBytes = 8 + 8 + 8 + 1 + kHeadZeros + 8;

// The blocks Create makes for expected_keys keys at c counters per key.
long double BlocksAt(uint64_t expected_keys, double counters_per_key) {
  return std::max(1.0L, std::ceil(static_cast<long double>(expected_keys) *
                                  counters_per_key / kCountersPerBlock));
}

// What the counters hold: how many are saturated, and their sum.
struct CounterTotals {
  uint64_t saturated = 0;
  uint64_t sum = 0;
};

CounterTotals Totals(absl::string_view counters) {
  CounterTotals totals;
  for (char c : counters) {
    const int low = static_cast<uint8_t>(c) & 0xf;
    const int high = static_cast<uint8_t>(c) >> 4;
    totals.saturated += (low == kSaturated) + (high == kSaturated);
    totals.sum += low + high;
  }
  return totals;
}

}  // namespace

std::string CountingBloomFilter::Save() const {
  std::string saved;
  saved.reserve(filter_internal::kSavedMinBytes + kHeadBytes + MemoryBytes());
  filter_internal::StartSaved(kKind, &saved);
  PutFixed64(&saved, expected_keys_);
  PutFixed64(&saved, num_keys_);
  PutFixed64(&saved, num_saturated_);
  saved.push_back(static_cast<char>(num_probes_));
  saved.append(kHeadZeros, '\0');
  PutFixed64(&saved, blocks_.size());
  // The blocks byte for byte: counter c of a block is a nibble of byte c / 2
  // (counting_layout.h), whatever the machine's byte order.
  saved.append(reinterpret_cast<const char*>(blocks_.data()), MemoryBytes());
  filter_internal::FinishSaved(&saved);
  return saved;
}

absl::StatusOr<CountingBloomFilter> CountingBloomFilter::Restore(
    absl::string_view saved) {
  const absl::StatusOr<absl::string_view> fields =
      filter_internal::OpenSaved(kKind, saved);
  if (!fields.ok()) return fields.status();
  const auto error = [](const auto&... what) {
    return SavedDataLoss(kKind, absl::StrCat(what...));
  };
  SavedFieldReader in(*fields);
  const uint64_t expected_keys = in.Fixed64();
  const uint64_t num_keys = in.Fixed64();
  const uint64_t num_saturated = in.Fixed64();
  const int num_probes = in.Byte();
  const bool zeros = in.Zeros(kHeadZeros);
  const uint64_t num_blocks = in.Fixed64();
  if (in.overran()) {
    return error("truncated: ", fields->size(), " bytes, fewer than the ",
                 kHeadBytes, " of the sizes and counts");
  }
  if (expected_keys == 0) return error("expected keys 0, at least 1 needed");
  if (num_probes < kMinProbes || num_probes > kMaxProbes) {
    return error("probe count ", num_probes, " outside [", kMinProbes, ", ",
                 kMaxProbes, "]");
  }
  if (!zeros) return error("nonzero reserved bytes");
  // Create gives max(1, ceil(expected_keys * c / 128)) blocks for some c in
  // [kMinBitsPerKey, kMaxBitsPerKey] counters per key, within kMaxBytes.
  const long double fewest = BlocksAt(expected_keys, kMinBitsPerKey);
  const long double most = std::min(BlocksAt(expected_keys, kMaxBitsPerKey),
                                    static_cast<long double>(kMaxBytes) /
                                        static_cast<long double>(kBlockBytes));
  if (!(num_blocks >= fewest && num_blocks <= most)) {
    return error(num_blocks, " blocks, outside the ",
                 static_cast<uint64_t>(fewest), " to ",
                 static_cast<uint64_t>(most), " that ", expected_keys,
                 " keys at ", kMinBitsPerKey, " to ", kMaxBitsPerKey,
                 " counters/key make");
  }
  // num_blocks <= kMaxBytes / kBlockBytes: no product overflows.
  const uint64_t counter_bytes = num_blocks * kBlockBytes;
  if (counter_bytes != in.left()) {
    return error(counter_bytes, " bytes of counters expected, ", in.left(),
                 " present");
  }
  const absl::string_view counters = in.Bytes(counter_bytes);
  const CounterTotals totals = Totals(counters);
  if (totals.saturated != num_saturated) {
    return error(num_saturated, " saturated counters recorded, ",
                 totals.saturated, " at ", kSaturated);
  }
  // Without saturation every Add added k and every Remove took k away.
  if (num_saturated == 0 &&
      static_cast<unsigned __int128>(num_keys) * num_probes != totals.sum) {
    return error("counters sum to ", totals.sum, ", not ", num_keys,
                 " keys times ", num_probes, " probes");
  }
  // Checked: allocating the counters costs no more than the input.
  CountingBloomFilter filter(num_blocks, num_probes, expected_keys);
  std::memcpy(filter.blocks_.data(), counters.data(), counter_bytes);
  filter.num_keys_ = num_keys;
  filter.num_saturated_ = num_saturated;
  return filter;
}

}  // namespace sstfilter
