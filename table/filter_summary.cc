#include "table/filter_summary.h"

#include <optional>
#include <string>

#include "absl/strings/str_format.h"
#include "filter/filter_format.h"
#include "table/filter_block.h"

namespace sstfilter {
namespace {

// Adds up what each filter of the block says about itself (FilterFormat::
// Describe), whatever its format.
void DescribeFilters(const FilterFormat& format, const FilterBlockReader& block,
                     FilterSummary* s) {
  double keys = 0;
  uint64_t body_bits = 0;
  bool counted_keys = false;
  for (size_t i = 0; i < block.NumFilters(); ++i) {
    const FilterFacts facts = format.Describe(block.Filter(i));
    if (!facts.kind.empty()) s->format = facts.kind;
    if (facts.num_probes.has_value()) s->num_probes = *facts.num_probes;
    if (facts.body_bits.has_value()) body_bits += *facts.body_bits;
    if (facts.num_keys.has_value()) {
      keys += *facts.num_keys;
      counted_keys = true;
      s->keys_estimated = s->keys_estimated || facts.keys_estimated;
    }
  }
  if (counted_keys && body_bits > 0 && keys > 0) {
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
  s.format = s.policy_name;  // refined by the filters' own bytes below
  const FilterBlockReader* block = table.filter_block();
  if (!table.corruption().ok() || block == nullptr ||
      table.format() == nullptr) {
    s.note = absl::StrFormat("%s: every key may match",
                             table.corruption().message());
    return s;
  }
  s.expected_fpp = block->ExpectedFpp();
  DescribeFilters(*table.format(), *block, &s);
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
