// Reading any RocksDB 7.8.3 full filter: the 5-byte trailer says which format
// the body is (all of them are stored under one name,
// kRocksDbBuiltinFilterName), and the reader answers as RocksDB's
// BuiltinFilterPolicy::GetFilterBitsReader would.
//
// Example (a table reader, or the sst_probe tool):
//
//   absl::string_view filter = ...;  // a full filter block's contents
//   const auto info = sstfilter::DescribeRocksDbFilter(filter);
//   std::cout << sstfilter::RocksDbFilterFormatName(info.format)
//             << " k=" << info.num_probes << " (" << info.reason << ")\n";
//   std::unique_ptr<sstfilter::FilterReader> reader =
//       sstfilter::NewRocksDbFilterReader(filter);
//   if (!reader->MayMatch(key)) { /* the key is not in the table */ }
//
// Both functions are total: any bytes give an answer and nothing outside
// the filter is read. Where RocksDB 7.8.3 itself would read outside the filter
// or its result is undefined (four cases, in filter/rocksdb/README.md), the
// answer is "may match".
//
// What each format's reader does:
//   FastLocalBloom  probes as RocksDB (format_version 5); batched queries hash
//                   and prefetch a step of keys before probing them.
//                   ExpectedFpp: the filter's measured fill, line by line,
//                   (bits set / 512)^k averaged over up to 2^16 evenly spaced
//                   lines (exact for independent probes, which RocksDB's are
//                   to within 0.5%).
//   LegacyBloom     probes as RocksDB (format_version < 5), including lines of
//                   a size other than 64 bytes. ExpectedFpp: the fraction of
//                   2^16 evenly spread 32-bit hash values the filter matches
//                   (its probes are correlated, so no formula of the fill
//                   fits; sampling error about 4% relative at 1%).
//   Ribbon          Standard128Ribbon queried exactly as RocksDB does (its
//                   filters are read, not written); batched queries prefetch
//                   a step of keys' segments first. ExpectedFpp: RocksDB's
//                   estimate from the layout, 2^-columns weighted by the
//                   share of blocks with each column count.
//   AlwaysTrue      matches every key; ExpectedFpp 1.
//   AlwaysFalse     matches no key; ExpectedFpp 0.

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

// Parses the trailer: RocksDB 7.8.3's decision table, with the cases where
// RocksDB would read outside the filter made "AlwaysTrue".
RocksDbFilterInfo DescribeRocksDbFilter(absl::string_view filter);

// A reader for any RocksDB full filter. REQUIRES: filter outlives the reader.
std::unique_ptr<FilterReader> NewRocksDbFilterReader(absl::string_view filter);

namespace rocksdb_internal {
// One query without a reader object (FilterPolicy::KeyMayMatch): parses the
// trailer on every call and answers as NewRocksDbFilterReader(filter) would.
bool FilterMayMatch(absl::string_view filter, absl::string_view key);
}  // namespace rocksdb_internal

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_READER_H_
