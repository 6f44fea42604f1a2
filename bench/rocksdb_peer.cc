#include "bench/rocksdb_peer.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_format.h"
#include "bench/fpp_math.h"
#include "rocksdb/filter_policy.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bench {
namespace {

// RocksDB full-filter trailer (table/block_based/filter_policy.cc, 7.8.3):
// 5 bytes after the filter body. The first byte is k (1..127) for legacy
// Bloom, or a marker for newer formats.
constexpr size_t kMetadataBytes = 5;       // bytes
constexpr uint8_t kNewBloomMarker = 0xFF;  // FastLocalBloom family
constexpr uint8_t kRibbonMarker = 0xFE;    // Standard128Ribbon
constexpr uint8_t kFastLocalSubImpl = 0;   // second byte of FastLocalBloom
constexpr int kProbesMask = 0x1F;          // third byte's low 5 bits: k
constexpr int kCacheLineBits = 512;        // bits per probed line, both Blooms
constexpr int kRibbonSlotsPerBlock = 128;  // slots per Standard128Ribbon block
constexpr int kFormatVersionLegacy = 4;    // format_version < 5: legacy Bloom
constexpr int kFormatVersionFast = 5;      // 7.8.3's default: FastLocalBloom
// bloom_before_level below every level: Ribbon everywhere, never Bloom.
constexpr int kRibbonAtEveryLevel = -1;

uint8_t Byte(absl::string_view s, size_t i) {
  return static_cast<uint8_t>(s[i]);
}

const char* KindName(RocksDbFilterKind kind) {
  switch (kind) {
    case RocksDbFilterKind::kFastLocalBloom:
      return "FastLocalBloom";
    case RocksDbFilterKind::kLegacyBloom:
      return "legacy Bloom";
    case RocksDbFilterKind::kRibbon:
      return "Standard128Ribbon";
  }
  return "?";
}

}  // namespace

absl::StatusOr<std::unique_ptr<RocksDbPeer>> RocksDbPeer::Create(
    RocksDbFilterKind kind, const FilterOptions& options) {
  absl::Status valid = ValidateFilterOptions(options);
  if (!valid.ok()) return valid;
  const double bits = PeerBitsPerKey(options);
  return std::unique_ptr<RocksDbPeer>(new RocksDbPeer(kind, bits));
}

RocksDbPeer::RocksDbPeer(RocksDbFilterKind kind, double bits_per_key)
    : kind_(kind), bits_per_key_(bits_per_key) {
  switch (kind) {
    case RocksDbFilterKind::kFastLocalBloom:
      table_options_.filter_policy.reset(
          rocksdb::NewBloomFilterPolicy(bits_per_key));
      table_options_.format_version = kFormatVersionFast;
      break;
    case RocksDbFilterKind::kLegacyBloom:
      table_options_.filter_policy.reset(
          rocksdb::NewBloomFilterPolicy(bits_per_key));
      table_options_.format_version = kFormatVersionLegacy;
      break;
    case RocksDbFilterKind::kRibbon:
      table_options_.filter_policy.reset(
          rocksdb::NewRibbonFilterPolicy(bits_per_key, kRibbonAtEveryLevel));
      table_options_.format_version = kFormatVersionFast;
      break;
  }
  // Exact-size filters, as in 7.8.3's default: sizes stay comparable across
  // peers.
  table_options_.optimize_filters_for_memory = false;
}

std::unique_ptr<RocksDbPeer::Builder> RocksDbPeer::NewBuilder() const {
  rocksdb::FilterBuildingContext context(table_options_);
  return std::make_unique<Builder>(
      table_options_.filter_policy->GetBuilderWithContext(context));
}

absl::Status RocksDbPeer::Builder::Finish(BuiltFilter* out) {
  rocksdb::Status status;
  rocksdb::Slice filter = builder_->Finish(&out->external, &status);
  if (!status.ok()) {
    return absl::InternalError("rocksdb filter construction: " +
                               status.ToString());
  }
  out->bytes = absl::string_view(filter.data(), filter.size());
  return absl::OkStatus();
}

RocksDbPeer::Reader RocksDbPeer::NewReader(absl::string_view filter) const {
  return Reader(kind_, filter,
                table_options_.filter_policy->GetFilterBitsReader(
                    rocksdb::Slice(filter.data(), filter.size())));
}

absl::Status RocksDbPeer::CheckKind(absl::string_view filter) const {
  bool ok = false;
  if (filter.size() > kMetadataBytes) {
    const size_t meta = filter.size() - kMetadataBytes;
    const uint8_t marker = Byte(filter, meta);
    switch (kind_) {
      case RocksDbFilterKind::kFastLocalBloom:
        ok = marker == kNewBloomMarker &&
             Byte(filter, meta + 1) == kFastLocalSubImpl;
        break;
      case RocksDbFilterKind::kLegacyBloom:
        ok = marker >= 1 && marker <= 127;  // a positive k
        break;
      case RocksDbFilterKind::kRibbon:
        ok = marker == kRibbonMarker;
        break;
    }
  }
  if (ok) return absl::OkStatus();
  return absl::InternalError(absl::StrFormat(
      "rocksdb: expected a %s filter, but its %d-byte trailer says otherwise "
      "(marker "
      "byte 0x%02x): wrong policy selection or a RocksDB other than 7.8.3",
      KindName(kind_), kMetadataBytes,
      filter.size() > kMetadataBytes
          ? Byte(filter, filter.size() - kMetadataBytes)
          : 0));
}

double RocksDbPeer::Reader::ExpectedFpp(size_t num_keys) const {
  if (filter_.size() <= kMetadataBytes || num_keys == 0) return 0.0;
  const size_t body = filter_.size() - kMetadataBytes;
  const double bits_per_key = body * 8.0 / static_cast<double>(num_keys);
  switch (kind_) {
    case RocksDbFilterKind::kFastLocalBloom: {
      const int k = Byte(filter_, body + 2) & kProbesMask;
      return CacheLocalBloomFpp(bits_per_key, k, kCacheLineBits);
    }
    case RocksDbFilterKind::kLegacyBloom: {
      const int k = Byte(filter_, body);
      return WithHash32Collisions(
          CacheLocalBloomFpp(bits_per_key, k, kCacheLineBits), num_keys);
    }
    case RocksDbFilterKind::kRibbon: {
      // Blocks hold r or r + 1 solution columns; a query fails each column with
      // probability 1/2.
      const uint32_t blocks = Byte(filter_, body + 2) |
                              (Byte(filter_, body + 3) << 8) |
                              (Byte(filter_, body + 4) << 16);
      if (blocks == 0) return 1.0;
      const double columns =
          body * 8.0 / (static_cast<double>(blocks) * kRibbonSlotsPerBlock);
      const double lower = std::floor(columns);
      const double upper_share = columns - lower;
      return (1.0 - upper_share) * std::exp2(-lower) +
             upper_share * std::exp2(-lower - 1);
    }
  }
  return 1.0;
}

std::string RocksDbPeer::Details() const {
  return absl::StrFormat("%s format_version=%d bits/key=%g", KindName(kind_),
                         table_options_.format_version, bits_per_key_);
}

std::string RocksDbPeer::Version() {
  return absl::StrFormat("%d.%d.%d", ROCKSDB_MAJOR, ROCKSDB_MINOR,
                         ROCKSDB_PATCH);
}

}  // namespace bench
}  // namespace sstfilter
