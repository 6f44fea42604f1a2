#include "bench/db/ribbon_sizing.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bench/db/lookups.h"
#include "bench/keys.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace bench {
namespace {

// Ribbon at every level: the sizing does not depend on the table's level.
constexpr int kRibbonEverywhere = -1;
// The search's bounds: a Ribbon filter stores fewer bits than its
// Bloom-equivalent setting, so X is at least the Bloom bits/key; three times
// that is far beyond any match.
constexpr double kMaxRatio = 3;
constexpr double kMillibit = 0.001;

// Bytes of the filter `policy` builds for keys Random16Key(0 .. keys - 1).
absl::StatusOr<size_t> FilterBytes(const rocksdb::FilterPolicy& policy,
                                   uint64_t keys) {
  rocksdb::BlockBasedTableOptions table;
  rocksdb::FilterBuildingContext context(table);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
      policy.GetBuilderWithContext(context));
  if (builder == nullptr) return absl::InternalError("no filter builder");
  char key[kMaxKeyBytes];
  for (uint64_t i = 0; i < keys; ++i) {
    builder->AddKey(rocksdb::Slice(key, Random16Key(i, key)));
  }
  std::unique_ptr<const char[]> buf;
  rocksdb::Status status;
  const rocksdb::Slice filter = builder->Finish(&buf, &status);
  if (!status.ok()) {
    return absl::InternalError("filter build: " + status.ToString());
  }
  return filter.size();
}

absl::StatusOr<size_t> RibbonBytes(double bits, uint64_t keys) {
  std::unique_ptr<const rocksdb::FilterPolicy> ribbon(
      rocksdb::NewRibbonFilterPolicy(bits, kRibbonEverywhere));
  return FilterBytes(*ribbon, keys);
}

}  // namespace

absl::StatusOr<double> RibbonBitsForBloomMemory(double bloom_bits_per_key,
                                                uint64_t keys_per_table) {
  std::unique_ptr<const rocksdb::FilterPolicy> bloom(
      rocksdb::NewBloomFilterPolicy(bloom_bits_per_key));
  const absl::StatusOr<size_t> target = FilterBytes(*bloom, keys_per_table);
  if (!target.ok()) return target.status();
  // Bisection on millibits: lo fits, hi does not (a filter's size grows with
  // X, in steps).
  double lo = bloom_bits_per_key;
  double hi = kMaxRatio * bloom_bits_per_key;
  absl::StatusOr<size_t> bytes = RibbonBytes(lo, keys_per_table);
  if (!bytes.ok()) return bytes.status();
  if (*bytes > *target) {
    return absl::InternalError(absl::StrFormat(
        "Ribbon at %g Bloom-equivalent bits/key takes %d bytes for %d keys, "
        "more than Bloom's %d",
        lo, *bytes, keys_per_table, *target));
  }
  while (hi - lo > kMillibit) {
    const double mid =
        static_cast<double>(static_cast<int64_t>((lo + hi) / 2 / kMillibit)) *
        kMillibit;
    if (mid <= lo) break;
    bytes = RibbonBytes(mid, keys_per_table);
    if (!bytes.ok()) return bytes.status();
    (*bytes <= *target ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace bench
}  // namespace sstfilter
