// The trailer of RocksDB 7.8.3's full filters, parsed: DescribeRocksDbFilter
// is the decision table of BuiltinFilterPolicy::GetBuiltinFilterBitsReader,
// GetBloomBitsReader and GetRibbonBitsReader (table/block_based/
// filter_policy.cc at v7.8.3), in the same order. It departs from RocksDB only
// where RocksDB would read outside the filter or compute with undefined
// behaviour; those cases answer "may match" and say so in their reason.

#include "filter/rocksdb/rocksdb_format.h"

#include <cstdint>

#include "filter/rocksdb/rocksdb_reader.h"
#include "util/coding.h"

namespace sstfilter {

const char* RocksDbFilterFormatName(RocksDbFilterFormat format) {
  switch (format) {
    case RocksDbFilterFormat::kAlwaysFalse:
      return "AlwaysFalse";
    case RocksDbFilterFormat::kAlwaysTrue:
      return "AlwaysTrue";
    case RocksDbFilterFormat::kFastLocalBloom:
      return "FastLocalBloom";
    case RocksDbFilterFormat::kLegacyBloom:
      return "LegacyBloom";
    case RocksDbFilterFormat::kRibbon:
      return "Ribbon";
  }
  return "?";
}

namespace {

using rocksdb_internal::ByteAt;

// RocksDB takes the filter's length as a uint32_t; no writer produces 4 GB
// filters (FastLocalBloom stops at 0xffffffc0 body bytes, legacy Bloom at
// 0xffff0000 bits, Ribbon at 2^24 blocks).
constexpr uint64_t kMaxFilterBytes = 0xffffffff;  // bytes
// The legacy reader builds a mask of (line bytes * 8) bits as (1 << bits) - 1
// in an int: lines of 2^28 bytes or more overflow it.
constexpr uint64_t kMaxLegacyLineBytes = uint64_t{1} << 27;  // bytes

RocksDbFilterInfo AlwaysTrue(RocksDbFilterInfo info, const char* reason) {
  info.format = RocksDbFilterFormat::kAlwaysTrue;
  info.reason = reason;
  return info;
}

// Marker 0xFF: sub-implementation, block size and k, two reserved bytes.
RocksDbFilterInfo DescribeNewBloom(const char* p, RocksDbFilterInfo info) {
  namespace internal = rocksdb_internal;
  const size_t trailer = info.body_bytes;
  const uint8_t sub_impl = ByteAt(p, trailer + 1);
  const uint8_t block_and_probes = ByteAt(p, trailer + 2);
  const int log2_block_bytes = (block_and_probes >> internal::kBlockSizeShift) +
                               internal::kMinLog2BlockBytes;
  info.num_probes = block_and_probes & internal::kProbesFieldMask;
  if (info.num_probes < internal::kFastLocalBloomMinProbes ||
      info.num_probes > internal::kFastLocalBloomMaxProbes) {
    return AlwaysTrue(info, "marker 0xFF with k = 0 or 31 (reserved)");
  }
  if (ByteAt(p, trailer + 3) != 0 || ByteAt(p, trailer + 4) != 0) {
    return AlwaysTrue(info,
                      "marker 0xFF with nonzero last two bytes (reserved for a "
                      "hash seed)");
  }
  if (sub_impl != internal::kFastLocalBloomSubImpl) {
    return AlwaysTrue(info, "marker 0xFF with a reserved sub-implementation");
  }
  if (log2_block_bytes != internal::kLog2CacheLineBytes) {
    return AlwaysTrue(info, "marker 0xFF with a reserved block size");
  }
  // RocksDB probes floor(body / 64) lines and, with none, reads 64 bytes from
  // the start of a shorter body: past its end.
  if (info.body_bytes < internal::kCacheLineBytes) {
    return AlwaysTrue(info,
                      "FastLocalBloom body shorter than one 64-byte line "
                      "(RocksDB would read past it)");
  }
  info.format = RocksDbFilterFormat::kFastLocalBloom;
  info.reason = "marker 0xFF, sub-implementation 0, 64-byte lines";
  info.line_bytes = internal::kCacheLineBytes;
  info.num_lines =
      static_cast<uint32_t>(info.body_bytes / internal::kCacheLineBytes);
  return info;
}

// Marker 0xFE: hash seed, then a 24-bit block count.
RocksDbFilterInfo DescribeRibbon(const char* p, RocksDbFilterInfo info) {
  const size_t trailer = info.body_bytes;
  info.ribbon_seed = ByteAt(p, trailer + 1);
  info.ribbon_blocks = ByteAt(p, trailer + 2) |
                       (uint32_t{ByteAt(p, trailer + 3)} << 8) |
                       (uint32_t{ByteAt(p, trailer + 4)} << 16);
  if (info.ribbon_blocks < rocksdb_internal::kRibbonMinBlocks) {
    return AlwaysTrue(info,
                      "Ribbon with fewer than 2 blocks (reserved: 0 has a "
                      "shorter encoding, 1 is not supported)");
  }
  info.format = RocksDbFilterFormat::kRibbon;
  info.reason = "marker 0xFE (Standard128Ribbon)";
  return info;
}

// First byte 1..127: k, then the fixed32 number of lines. The line size is
// whatever divides the body into that many lines, if it is a power of two.
RocksDbFilterInfo DescribeLegacyBloom(const char* p, RocksDbFilterInfo info) {
  info.num_probes = info.marker;
  const uint64_t lines = DecodeFixed32(p + info.body_bytes + 1);
  const uint64_t body = info.body_bytes;
  info.num_lines = static_cast<uint32_t>(lines);
  if (lines * rocksdb_internal::kCacheLineBytes != body) {
    // RocksDB compares lines * 64 with the body in 32 bits: a line count that
    // only matches modulo 2^32 would have it probe far past the body.
    if (((lines * rocksdb_internal::kCacheLineBytes) & kMaxFilterBytes) ==
        body) {
      return AlwaysTrue(info,
                        "legacy Bloom line count matches the body only modulo "
                        "2^32 (RocksDB would read past it)");
    }
    if (lines == 0 || body % lines != 0) {
      return AlwaysTrue(info,
                        "legacy Bloom line count does not divide the body");
    }
    const uint64_t line_bytes = body / lines;
    if ((line_bytes & (line_bytes - 1)) != 0) {
      return AlwaysTrue(info, "legacy Bloom line size is not a power of two");
    }
    if (line_bytes > kMaxLegacyLineBytes) {
      return AlwaysTrue(info,
                        "legacy Bloom line of 256 MB or more (RocksDB's bit "
                        "mask overflows an int)");
    }
    info.line_bytes = static_cast<uint32_t>(line_bytes);
    info.format = RocksDbFilterFormat::kLegacyBloom;
    info.reason = "probe count 1..127, lines of a non-native size";
    return info;
  }
  info.line_bytes = rocksdb_internal::kCacheLineBytes;
  info.format = RocksDbFilterFormat::kLegacyBloom;
  info.reason = "probe count 1..127, 64-byte lines";
  return info;
}

}  // namespace

RocksDbFilterInfo DescribeRocksDbFilter(absl::string_view filter) {
  RocksDbFilterInfo info;
  info.filter_bytes = filter.size();
  if (filter.size() <= rocksdb_internal::kTrailerBytes) {
    info.format = RocksDbFilterFormat::kAlwaysFalse;
    info.reason =
        "5 bytes or fewer: no keys (RocksDB writes 5 bytes, or none, for an "
        "empty key set)";
    return info;
  }
  info.body_bytes = filter.size() - rocksdb_internal::kTrailerBytes;
  const char* p = filter.data();
  info.marker = ByteAt(p, info.body_bytes);
  if (filter.size() > kMaxFilterBytes) {
    return AlwaysTrue(info,
                      "4 GB or more (RocksDB would truncate the length to 32 "
                      "bits)");
  }
  if (info.marker == rocksdb_internal::kZeroProbesMarker) {
    return AlwaysTrue(info, "zero probes");
  }
  if (info.marker == rocksdb_internal::kNewBloomMarker) {
    return DescribeNewBloom(p, info);
  }
  if (info.marker == rocksdb_internal::kRibbonMarker) {
    return DescribeRibbon(p, info);
  }
  if (info.marker > rocksdb_internal::kLegacyBloomMaxProbes) {
    return AlwaysTrue(info, "reserved marker 0x80..0xFD");
  }
  return DescribeLegacyBloom(p, info);
}

}  // namespace sstfilter
