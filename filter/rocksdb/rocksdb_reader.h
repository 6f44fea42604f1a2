// Reading any RocksDB full filter: the 5-byte trailer says which format the
// body is (all are stored under kRocksDbBuiltinFilterName), and the reader
// answers as RocksDB's BuiltinFilterPolicy::GetFilterBitsReader would.
// filter/rocksdb/README.md has the decision table and each reader's rules.
//
//   const auto info = sstfilter::DescribeRocksDbFilter(filter);
//   std::cout << sstfilter::RocksDbFilterFormatName(info.format) << "\n";
//   if (!sstfilter::NewRocksDbFilterReader(filter)->MayMatch(key)) {
//     /* the key is not in the table */
//   }

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_READER_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"

namespace sstfilter {

enum class RocksDbFilterFormat {
  kAlwaysFalse,     // too short to hold a key: matches nothing
  kAlwaysTrue,      // zero probes, reserved or inconsistent metadata
  kFastLocalBloom,  // marker 0xFF, sub-implementation 0 (format_version 5)
  kLegacyBloom,     // first trailer byte k in 1..127 (format_version < 5)
  kRibbon,          // marker 0xFE (Standard128Ribbon)
};

// "AlwaysFalse", "AlwaysTrue", "FastLocalBloom", "LegacyBloom" or "Ribbon".
const char* RocksDbFilterFormatName(RocksDbFilterFormat format);

// What a filter's trailer says. Fields that do not apply to the format are 0.
struct RocksDbFilterInfo {
  RocksDbFilterFormat format = RocksDbFilterFormat::kAlwaysFalse;
  // Why the filter reads as this format, e.g. "marker 0xFF, sub-implementation
  // 0" or "reserved marker": a static string.
  const char* reason = "";
  size_t filter_bytes = 0;  // the whole filter
  size_t body_bytes = 0;    // before the 5-byte trailer (0 if there is none)
  uint8_t marker = 0;       // first trailer byte (0 if there is no trailer)
  int num_probes = 0;       // k, for a Bloom filter (and a malformed one)
  uint32_t num_lines = 0;   // Bloom: lines probed (a key's probes share one)
  uint32_t line_bytes = 0;  // Bloom: bytes per line (64, except legacy filters
                            // written where cache lines are longer)
  uint32_t ribbon_blocks = 0;  // Ribbon: 128-slot blocks
  uint32_t ribbon_seed = 0;    // Ribbon: ordinal hash seed, 0..255
};

// Parses the trailer: RocksDB's decision table, with the cases where RocksDB
// would read outside the filter or its result is undefined made "AlwaysTrue"
// (may match). Total: any bytes give an answer and nothing outside the
// filter is read; the same holds for the readers below.
RocksDbFilterInfo DescribeRocksDbFilter(absl::string_view filter);

// A reader for any RocksDB full filter, querying as RocksDB does. Its
// ExpectedFpp is, for FastLocalBloom, computed from the filter's fill; for
// legacy Bloom, sampled (no formula of the fill fits its correlated probes);
// for Ribbon, RocksDB's estimate from the layout; 1 for AlwaysTrue and 0 for
// AlwaysFalse. REQUIRES: filter outlives the reader.
std::unique_ptr<FilterReader> NewRocksDbFilterReader(absl::string_view filter);

namespace rocksdb_internal {
// One query without a reader object (FilterPolicy::KeyMayMatch): parses the
// trailer on every call and answers as NewRocksDbFilterReader(filter) would.
bool FilterMayMatch(absl::string_view filter, absl::string_view key);
}  // namespace rocksdb_internal

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_READER_H_
