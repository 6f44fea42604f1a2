// A description of a table's filter for people and scripts: its format, size,
// bits/key, probes and expected false-positive rate. sst_probe prints it.

#ifndef SSTFILTER_TABLE_FILTER_SUMMARY_H_
#define SSTFILTER_TABLE_FILTER_SUMMARY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "table/table_filter.h"

namespace sstfilter {

struct FilterSummary {
  std::string table_format;  // "LevelDB" or "RocksDB block-based"
  uint32_t format_version = 0;
  bool has_filter = false;
  std::string policy_name;    // as persisted in the metaindex
  std::string layout;         // "full", "per-2 KB" (base_lg from the block) or
                              // "partitioned"
  std::string format;         // the concrete filter format, e.g. FastLocalBloom
  size_t num_filters = 0;     // partitions, when partitioned
  uint64_t filter_bytes = 0;  // filter block contents; partitioned: the
                              // partitions' (trailers excluded)
  // Partitioned filters: the partition index's bytes, the smallest and
  // largest partition, and how many partitions the figures below describe
  // (those read so far: TableFilter::LoadAllPartitions reads them all).
  uint64_t partition_index_bytes = 0;
  uint64_t min_partition_bytes = 0;
  uint64_t max_partition_bytes = 0;
  size_t partitions_described = 0;
  // What the filter holds: whole keys, and prefixes cut by this extractor
  // (empty: none).
  bool whole_keys = true;
  std::string prefix_extractor;
  // Keys in the filter: exact from the filter or the table's properties, or
  // estimated from the fill of the bit array (keys_estimated).
  std::optional<double> num_keys;
  bool keys_estimated = false;
  std::optional<double> bits_per_key;
  int num_probes = 0;  // 0 when the filter does not say
  // Filters (of those described) whose format stores a checksum of the
  // filter's own bytes (format version 2, filter/format_version_2.md), and how
  // many of them do not match it.
  size_t checksummed_filters = 0;
  size_t checksum_mismatches = 0;
  double expected_fpp = 1.0;
  std::string note;  // why every key may match, when it does
};

FilterSummary SummarizeFilter(const TableFilter& table);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_FILTER_SUMMARY_H_
