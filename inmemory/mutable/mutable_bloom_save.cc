// MutableBloomFilter::Save and Restore: the shape and the words in the saved
// filter envelope (filter/internal/saved_filter.h); the layout is in
// inmemory/mutable/README.md, "Saving and restoring".

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom_format.h"
#include "filter/filter_policy.h"
#include "filter/internal/saved_filter.h"
#include "inmemory/mutable/atomic_block.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "util/bloom_math.h"
#include "util/coding.h"

namespace sstfilter {

using filter_internal::SavedDataLoss;
using filter_internal::SavedFieldReader;
using filter_internal::SavedKind;
using mutable_internal::CacheAlignedWords;
using mutable_internal::kWordsPerBlock;

namespace {

// The shape's fields: expected keys (8), bits/key (8), probes (1), flags (1),
// zeros (kShapeZeros), blocks (8).
constexpr size_t kShapeZeros = 6;
// Bit 0 of the flags: Freeze writes format version 2 (self_checksum).
constexpr uint8_t kSelfChecksumFlag = 1;

}  // namespace

void MutableBloomFilter::AppendSavedFields(std::string* dst) const {
  static_assert(8 + 8 + 1 + 1 + kShapeZeros + 8 == kSavedShapeBytes);
  PutFixed64(dst, expected_keys_);
  filter_internal::PutSavedDouble(dst, bits_per_key_);
  dst->push_back(static_cast<char>(num_probes_));
  dst->push_back(static_cast<char>(self_checksum_ ? kSelfChecksumFlag : 0));
  dst->append(kShapeZeros, '\0');
  PutFixed64(dst, num_blocks_);
  // One relaxed load per word, as Freeze reads them.
  const size_t body = dst->size();
  dst->resize(body + MemoryBytes());
  const std::atomic<uint64_t>* words = words_.data();
  for (uint64_t w = 0; w < words_.size(); ++w) {
    EncodeFixed64(&(*dst)[body + w * 8],
                  words[w].load(std::memory_order_relaxed));
  }
}

absl::StatusOr<MutableBloomFilter> MutableBloomFilter::ReadSavedFields(
    SavedKind kind, absl::string_view context, SavedFieldReader* in) {
  const auto error = [&](const auto&... what) {
    return SavedDataLoss(kind, absl::StrCat(context, what...));
  };
  const size_t available = in->left();
  const uint64_t expected_keys = in->Fixed64();
  const double bits_per_key = in->Double();
  const int num_probes = in->Byte();
  const uint8_t flags = in->Byte();
  const bool zeros = in->Zeros(kShapeZeros);
  const uint64_t num_blocks = in->Fixed64();
  if (in->overran()) {
    return error("truncated: ", available, " bytes, fewer than the ",
                 kSavedShapeBytes, " of a filter's shape");
  }
  if (expected_keys == 0) return error("expected keys 0, at least 1 needed");
  // Written so that NaN fails.
  if (!(bits_per_key >= kMinBitsPerKey && bits_per_key <= kMaxBitsPerKey)) {
    return error("bits/key ", bits_per_key, " outside [", kMinBitsPerKey, ", ",
                 kMaxBitsPerKey, "]");
  }
  if (num_probes < kMinProbes || num_probes > kMaxProbes) {
    return error("probe count ", num_probes, " outside [", kMinProbes, ", ",
                 kMaxProbes, "]");
  }
  if ((flags & ~kSelfChecksumFlag) != 0) {
    return error("unknown flags 0x", absl::Hex(flags));
  }
  if (!zeros) return error("nonzero reserved bytes in the shape");
  const absl::StatusOr<uint64_t> blocks =
      BodyBlocks(expected_keys, bits_per_key);
  if (!blocks.ok()) return error(blocks.status().message());
  if (num_blocks != *blocks) {
    return error(num_blocks, " blocks, but ", expected_keys, " keys at ",
                 bits_per_key, " bits/key make ", *blocks);
  }
  // At most 2^34 blocks (kMaxMutableBloomBytes): no product overflows.
  const uint64_t body_bytes = num_blocks * bloom::kBlockBytes;
  if (body_bytes > in->left()) {
    return error("truncated: a body of ", body_bytes, " bytes, ", in->left(),
                 " left");
  }
  // The body is in hand: allocating it costs no more than the input.
  absl::StatusOr<CacheAlignedWords> words =
      CacheAlignedWords::Allocate(num_blocks * kWordsPerBlock);
  if (!words.ok()) return words.status();
  const absl::string_view body = in->Bytes(body_bytes);
  std::atomic<uint64_t>* out = words->data();
  for (uint64_t w = 0; w < words->size(); ++w) {
    out[w].store(DecodeFixed64(body.data() + w * 8), std::memory_order_relaxed);
  }
  return MutableBloomFilter(bits_per_key, num_probes, expected_keys,
                            (flags & kSelfChecksumFlag) != 0,
                            *std::move(words));
}

std::string MutableBloomFilter::Save() const {
  std::string saved;
  saved.reserve(filter_internal::kSavedMinBytes + kSavedShapeBytes +
                MemoryBytes());
  filter_internal::StartSaved(SavedKind::kMutableBloom, &saved);
  AppendSavedFields(&saved);
  filter_internal::FinishSaved(&saved);
  return saved;
}

absl::StatusOr<MutableBloomFilter> MutableBloomFilter::Restore(
    absl::string_view saved) {
  constexpr SavedKind kKind = SavedKind::kMutableBloom;
  const absl::StatusOr<absl::string_view> fields =
      filter_internal::OpenSaved(kKind, saved);
  if (!fields.ok()) return fields.status();
  SavedFieldReader in(*fields);
  absl::StatusOr<MutableBloomFilter> filter = ReadSavedFields(kKind, "", &in);
  if (!filter.ok()) return filter.status();
  if (absl::Status end = filter_internal::SavedFieldsEnd(kKind, in);
      !end.ok()) {
    return end;
  }
  return filter;
}

}  // namespace sstfilter
