// NewRocksDbFilterReader: one reader per format DescribeRocksDbFilter finds.

#include "filter/rocksdb/rocksdb_reader.h"

#include <algorithm>

#include "filter/internal/verdict.h"
#include "filter/rocksdb/fast_local_bloom.h"
#include "filter/rocksdb/legacy_bloom.h"
#include "filter/rocksdb/ribbon.h"
#include "util/rocksdb_hash.h"

namespace sstfilter {

std::unique_ptr<FilterReader> NewRocksDbFilterReader(absl::string_view filter) {
  const RocksDbFilterInfo info = DescribeRocksDbFilter(filter);
  switch (info.format) {
    case RocksDbFilterFormat::kAlwaysFalse:
      return filter_internal::NewConstantReader(
          filter_internal::Verdict::kMatchNothing);
    case RocksDbFilterFormat::kFastLocalBloom:
      return rocksdb_internal::NewFastLocalBloomReader(
          filter.data(), info.num_lines, info.num_probes);
    case RocksDbFilterFormat::kLegacyBloom:
      return rocksdb_internal::NewLegacyBloomReader(
          filter.data(), info.num_lines, info.line_bytes, info.num_probes);
    case RocksDbFilterFormat::kRibbon:
      return rocksdb_internal::NewRibbonReader(
          filter.data(), info.body_bytes, info.ribbon_blocks, info.ribbon_seed);
    case RocksDbFilterFormat::kAlwaysTrue:
      break;
  }
  return filter_internal::NewConstantReader(
      filter_internal::Verdict::kMatchAll);
}

namespace rocksdb_internal {

bool FilterMayMatch(absl::string_view filter, absl::string_view key) {
  const RocksDbFilterInfo info = DescribeRocksDbFilter(filter);
  switch (info.format) {
    case RocksDbFilterFormat::kAlwaysFalse:
      return false;
    case RocksDbFilterFormat::kFastLocalBloom:
      return FastLocalBloomMayMatch(RocksDbHash64(key), info.num_probes,
                                    filter.data(), info.num_lines);
    case RocksDbFilterFormat::kLegacyBloom:
      return LegacyBloomMayMatch(RocksDbBloomHash(key), info.num_probes,
                                 filter.data(), info.num_lines,
                                 __builtin_ctz(info.line_bytes));
    case RocksDbFilterFormat::kRibbon:
      return RibbonMayMatch(
          MakeRibbonLayout(filter.data(), info.body_bytes, info.ribbon_blocks,
                           info.ribbon_seed),
          RocksDbHash64(key));
    case RocksDbFilterFormat::kAlwaysTrue:
      break;
  }
  return true;
}

}  // namespace rocksdb_internal
}  // namespace sstfilter
