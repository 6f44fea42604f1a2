#include "table/filter_summary.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "filter/bloom/bloom_format.h"
#include "filter/filter_policy.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "filter/rocksdb/rocksdb_bloom.h"
#include "filter/rocksdb/rocksdb_reader.h"
#include "table/filter_block.h"

namespace sstfilter {
namespace {

constexpr char kNativeName[] = "sstfilter.LocalBloom1";

// Keys in a standard Bloom filter of m bits with x set, k probes: the
// estimate n = -(m / k) ln(1 - x / m) (Swamidass and Baldi, 2007), the one
// Guava's approximateElementCount uses.
double EstimateKeys(absl::string_view body, int k) {
  const double m = 8.0 * static_cast<double>(body.size());
  double x = 0;
  for (char c : body) x += __builtin_popcount(static_cast<uint8_t>(c));
  if (m == 0 || k <= 0 || x >= m) return 0;
  return -(m / k) * std::log1p(-x / m);
}

// Fills the per-filter facts of the formats whose filters end in k.
void DescribeFilters(const FilterBlockReader& block, FilterSummary* s) {
  double keys = 0;
  uint64_t body_bits = 0;
  for (size_t i = 0; i < block.NumFilters(); ++i) {
    const absl::string_view filter = block.Filter(i);
    if (filter.size() < 2) continue;
    if (s->policy_name == kNativeName) {
      const bloom_internal::ParsedFilter parsed =
          bloom_internal::ParseFilter(filter);
      if (parsed.verdict != bloom_internal::Verdict::kProbe) continue;
      s->num_probes = parsed.num_probes;
      keys += static_cast<double>(parsed.num_keys);
      body_bits += 8 * parsed.layout.body_bytes;
    } else if (s->policy_name == kLevelDbBloomName) {
      const int k = static_cast<uint8_t>(filter.back());
      if (k < 1 || k > 30) continue;
      s->num_probes = k;
      keys += EstimateKeys(filter.substr(0, filter.size() - 1), k);
      body_bits += 8 * (filter.size() - 1);
      s->keys_estimated = true;
    } else if (s->policy_name == kRocksDbBuiltinFilterName) {
      // The key count comes from the table's properties (SummarizeFilter).
      const RocksDbFilterInfo info = DescribeRocksDbFilter(filter);
      s->format = RocksDbFilterFormatName(info.format);
      s->num_probes = info.num_probes;
    }
  }
  if (body_bits > 0 && keys > 0) {
    s->num_keys = keys;
    s->bits_per_key = static_cast<double>(body_bits) / keys;
  }
}

}  // namespace

FilterSummary SummarizeFilter(const TableFilter& table) {
  const TableFilterInfo& info = table.info();
  FilterSummary s;
  s.table_format =
      info.footer.format == TableFormat::kLevelDb ? "LevelDB" : "RocksDB";
  if (info.footer.format == TableFormat::kLevelDb &&
      info.properties.has_value()) {
    s.table_format = "RocksDB";  // format_version 0 writes LevelDB's footer
  }
  s.format_version = info.footer.format_version;
  if (!info.filter.has_value()) {
    s.note = "the table has no filter: every key may match";
    return s;
  }
  s.has_filter = true;
  s.policy_name = info.filter->policy_name;
  s.layout = info.filter->layout == FilterLayout::kFull ? "full" : "per-2 KB";
  s.filter_bytes = info.filter_block_bytes;
  s.num_filters = info.num_filters;
  if (s.policy_name == kNativeName) {
    s.format = "cache-local Bloom";
  } else if (s.policy_name == kLevelDbBloomName) {
    s.format = "LevelDB Bloom";
  } else {
    s.format = "RocksDB builtin";  // refined from the trailer below
  }
  const FilterBlockReader* block = table.filter_block();
  if (!table.corruption().ok() || block == nullptr) {
    s.note = absl::StrFormat("%s: every key may match",
                             table.corruption().message());
    return s;
  }
  s.expected_fpp = block->ExpectedFpp();
  DescribeFilters(*block, &s);
  const std::optional<TableProperties>& props = info.properties;
  if (props.has_value() && props->num_filter_entries.has_value()) {
    s.num_keys = static_cast<double>(*props->num_filter_entries);
    s.keys_estimated = false;
    if (*s.num_keys > 0) {
      s.bits_per_key = 8.0 * static_cast<double>(s.filter_bytes) / *s.num_keys;
    }
  }
  if (props.has_value() && props->whole_key_filtering == false) {
    s.note =
        "the filter holds key prefixes only (whole_key_filtering = "
        "false): every key may match";
    s.expected_fpp = 1.0;
  }
  return s;
}

}  // namespace sstfilter
