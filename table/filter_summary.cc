#include "table/filter_summary.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/filter_format.h"
#include "table/filter_block.h"

namespace sstfilter {
namespace {

// Adds up what each filter says about itself (FilterFormat::Describe),
// whatever its format.
void DescribeFilters(const FilterFormat& format,
                     const std::vector<absl::string_view>& filters,
                     FilterSummary* s) {
  double keys = 0;
  uint64_t body_bits = 0;
  bool counted_keys = false;
  for (absl::string_view filter : filters) {
    const FilterFacts facts = format.Describe(filter);
    if (!facts.kind.empty()) s->format = facts.kind;
    if (facts.num_probes.has_value()) s->num_probes = *facts.num_probes;
    if (facts.checksummed) {
      ++s->checksummed_filters;
      s->checksum_mismatches += !format.Verify(filter).ok();
    }
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

// The partitions' sizes, and what the ones read so far say.
void SummarizePartitions(const TableFilter& table, FilterSummary* s) {
  const TableFilterInfo& info = table.info();
  s->partition_index_bytes = info.filter_block_bytes;
  s->filter_bytes = 0;
  for (size_t i = 0; i < info.partitions.size(); ++i) {
    const uint64_t size = info.partitions[i].handle.size;
    s->filter_bytes += size;
    s->min_partition_bytes =
        i == 0 ? size : std::min(s->min_partition_bytes, size);
    s->max_partition_bytes = std::max(s->max_partition_bytes, size);
  }
  std::vector<absl::string_view> read;
  double fpp_weighted = 0;
  uint64_t read_bytes = 0;
  for (size_t i = 0; i < info.partitions.size(); ++i) {
    const absl::string_view partition = table.partition_contents(i);
    if (partition.empty()) continue;
    read.push_back(partition);
    fpp_weighted += table.format()->ExpectedFpp(partition) * partition.size();
    read_bytes += partition.size();
  }
  s->partitions_described = read.size();
  if (read.empty()) return;
  s->expected_fpp = fpp_weighted / static_cast<double>(read_bytes);
  DescribeFilters(*table.format(), read, s);
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
  s.layout = FilterLayoutName(info.filter->layout);
  if (info.filter->layout == FilterLayout::kPerDataRange) s.layout = "per-2 KB";
  s.filter_bytes = info.filter_block_bytes;
  s.num_filters = info.num_filters;
  s.format = s.policy_name;  // refined by the filters' own bytes below
  s.whole_keys = info.whole_keys;
  s.prefix_extractor = info.prefix_extractor.value_or("");
  const absl::Status corruption = table.corruption();
  const bool partitioned = info.filter->layout == FilterLayout::kPartitioned;
  if (partitioned && table.format() != nullptr) SummarizePartitions(table, &s);
  const FilterBlockReader* block = table.filter_block();
  if (!corruption.ok() || table.format() == nullptr ||
      (block == nullptr && !partitioned)) {
    s.note = absl::StrFormat("%s: %s may match", corruption.message(),
                             partitioned && !info.partitions.empty()
                                 ? "the keys of that partition"
                                 : "every key");
    return s;
  }
  if (block != nullptr) {
    s.expected_fpp = block->ExpectedFpp();
    std::vector<absl::string_view> filters;
    for (size_t i = 0; i < block->NumFilters(); ++i) {
      filters.push_back(block->Filter(i));
    }
    DescribeFilters(*table.format(), filters, &s);
  }
  const std::optional<TableProperties>& props = info.properties;
  if (props.has_value() && props->num_filter_entries.has_value()) {
    s.num_keys = static_cast<double>(*props->num_filter_entries);
    s.keys_estimated = false;
    if (*s.num_keys > 0) {
      s.bits_per_key = 8.0 * static_cast<double>(s.filter_bytes) / *s.num_keys;
    }
  }
  if (!info.prefix_note.empty()) {
    s.note = info.prefix_note;
  } else if (!s.whole_keys) {
    s.note =
        "the filter holds key prefixes only (whole_key_filtering = false): a "
        "key is asked through its prefix";
  }
  if (partitioned && s.partitions_described < s.num_filters) {
    const std::string described =
        absl::StrFormat("figures describe the %d of %d partitions read",
                        s.partitions_described, s.num_filters);
    s.note = s.note.empty() ? described : absl::StrCat(s.note, "; ", described);
  }
  return s;
}

}  // namespace sstfilter
