#include "engines/redis/redis_bloom_meta.h"

#include <cmath>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom_format.h"
#include "util/bloom_math.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sstfilter {
namespace redis_internal {
namespace {

constexpr char kMagic[] = "SSTFRBF1";
constexpr size_t kMagicBytes = 8;
constexpr size_t kCrcOffset = kMetaBytes - 4;

absl::Status Bad(absl::string_view what) {
  return absl::DataLossError(
      absl::StrCat("RedisBloomFilter description: ", what));
}

}  // namespace

std::string EncodeMeta(const RedisBloomMeta& meta) {
  std::string out(kMagic, kMagicBytes);
  PutFixed64(&out, meta.body_bytes);
  PutFixed64(&out, meta.blocks_per_segment);
  PutFixed64(&out, meta.expected_keys);
  uint64_t bits;
  std::memcpy(&bits, &meta.bits_per_key, sizeof(bits));
  PutFixed64(&out, bits);
  out.push_back(static_cast<char>(meta.num_probes));
  out.push_back(meta.self_checksum ? 1 : 0);
  PutFixed32(&out, crc32c::Mask(crc32c::Value(out.data(), out.size())));
  return out;
}

absl::StatusOr<RedisBloomMeta> DecodeMeta(absl::string_view bytes) {
  if (bytes.size() != kMetaBytes) {
    return Bad(absl::StrCat(bytes.size(), " bytes, expected ", kMetaBytes));
  }
  if (bytes.substr(0, kMagicBytes) != absl::string_view(kMagic, kMagicBytes)) {
    return Bad("wrong magic (not a RedisBloomFilter, or another version)");
  }
  const uint32_t stored = crc32c::Unmask(DecodeFixed32(&bytes[kCrcOffset]));
  if (stored != crc32c::Value(bytes.data(), kCrcOffset)) {
    return Bad("CRC32C mismatch");
  }
  RedisBloomMeta meta;
  meta.body_bytes = DecodeFixed64(&bytes[8]);
  meta.blocks_per_segment = DecodeFixed64(&bytes[16]);
  meta.expected_keys = DecodeFixed64(&bytes[24]);
  const uint64_t bits = DecodeFixed64(&bytes[32]);
  std::memcpy(&meta.bits_per_key, &bits, sizeof(bits));
  meta.num_probes = static_cast<uint8_t>(bytes[40]);
  const uint8_t self_checksum = static_cast<uint8_t>(bytes[41]);
  if (meta.body_bytes < bloom::kBlockBytes || meta.body_bytes > kMaxBodyBytes) {
    return Bad(absl::StrCat("body of ", meta.body_bytes, " bytes outside [",
                            bloom::kBlockBytes, ", ", kMaxBodyBytes, "]"));
  }
  if (meta.blocks_per_segment == 0 ||
      meta.blocks_per_segment > kMaxSegmentBytes / bloom::kBlockBytes) {
    return Bad(absl::StrCat(meta.blocks_per_segment,
                            " blocks per segment outside [1, ",
                            kMaxSegmentBytes / bloom::kBlockBytes, "]"));
  }
  if (meta.expected_keys == 0) return Bad("expected_keys is 0");
  if (!(meta.bits_per_key >= bloom::kMinStoredBitsPerKey &&
        meta.bits_per_key <= bloom::kMaxStoredBitsPerKey)) {
    return Bad(absl::StrCat("bits/key ", meta.bits_per_key, " outside [",
                            bloom::kMinStoredBitsPerKey, ", ",
                            bloom::kMaxStoredBitsPerKey, "]"));
  }
  if (meta.num_probes < 1 || meta.num_probes > kMaxProbes) {
    return Bad(absl::StrCat("probe count ", meta.num_probes, " outside [1, ",
                            kMaxProbes, "]"));
  }
  if (self_checksum > 1) {
    return Bad(absl::StrCat("self_checksum byte ", self_checksum,
                            " is neither 0 nor 1"));
  }
  meta.self_checksum = self_checksum == 1;
  return meta;
}

}  // namespace redis_internal
}  // namespace sstfilter
