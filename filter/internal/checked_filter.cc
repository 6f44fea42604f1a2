#include "filter/internal/checked_filter.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/bloom_like_policy.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sstfilter {
namespace filter_internal {
namespace {

bool IsPowerOfTwo(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// The stored form of the CRC of every byte of a checked filter but the CRC's
// own four: the inner filter, the pad, then M and k. Masked as LevelDB and
// RocksDB mask block CRCs, since the filter is itself inside a block whose
// CRC the host may compute. Computed at every reader's creation, which RocksDB
// does per filter partition it loads: crc32c::Extend folds with carry-less
// multiplication where the CPU can.
uint32_t CheckedCrc(absl::string_view filter) {
  const size_t crc_at = filter.size() - kCheckedTrailerBytes;
  uint32_t crc = crc32c::Value(filter.data(), crc_at);
  crc = crc32c::Extend(crc, filter.data() + crc_at + kCrcBytes, 2);
  return crc32c::Mask(crc);
}

bool CrcMatches(absl::string_view filter) {
  const size_t crc_at = filter.size() - kCheckedTrailerBytes;
  return DecodeFixed32(filter.data() + crc_at) == CheckedCrc(filter);
}

// Answers "may match" to every key and reports why.
class CorruptFilterReader final : public FilterReader {
 public:
  explicit CorruptFilterReader(absl::Status corruption)
      : corruption_(std::move(corruption)) {}

  bool MayMatch(absl::string_view) const override { return true; }
  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    std::fill(results, results + keys.size(), true);
  }
  double ExpectedFpp() const override { return 1.0; }
  absl::Status Corruption() const override { return corruption_; }

 private:
  const absl::Status corruption_;
};

class CheckedBuilder final : public FilterBuilder {
 public:
  explicit CheckedBuilder(std::unique_ptr<FilterBuilder> inner)
      : inner_(std::move(inner)) {}

  void AddKey(absl::string_view key) override { inner_->AddKey(key); }
  size_t NumAdded() const override { return inner_->NumAdded(); }
  void Finish(std::string* dst) override {
    const size_t start = dst->size();
    inner_->Finish(dst);
    AppendCheckedTrailer(start, dst);
  }

 private:
  const std::unique_ptr<FilterBuilder> inner_;
};

class CheckedPolicy final : public FilterPolicy {
 public:
  CheckedPolicy(std::unique_ptr<const FilterPolicy> inner,
                const CheckedFormat& format)
      : FilterPolicy(*inner), inner_(std::move(inner)), format_(format) {}

  const FilterFormat& Format() const override { return format_; }
  double BitsPerKey() const override { return inner_->BitsPerKey(); }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return std::make_unique<CheckedBuilder>(inner_->NewBuilder());
  }
  std::unique_ptr<FilterBuilder> NewSizingBuilder() const override {
    return std::make_unique<CheckedBuilder>(inner_->NewSizingBuilder());
  }

 private:
  const std::unique_ptr<const FilterPolicy> inner_;
  const CheckedFormat& format_;
};

class CheckedBloomLikePolicy final : public BloomLikeFilterPolicy {
 public:
  CheckedBloomLikePolicy(std::unique_ptr<const FilterPolicy> inner,
                         const CheckedFormat& format)
      : BloomLikeFilterPolicy(*AsBloomLike(*inner)),
        num_probes_(AsBloomLike(*inner)->NumProbes()),
        checked_(std::move(inner), format) {}

  const FilterFormat& Format() const override { return checked_.Format(); }
  double BitsPerKey() const override { return checked_.BitsPerKey(); }
  int NumProbes() const override { return num_probes_; }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return checked_.NewBuilder();
  }
  std::unique_ptr<FilterBuilder> NewSizingBuilder() const override {
    return checked_.NewSizingBuilder();
  }

 private:
  const int num_probes_;
  const CheckedPolicy checked_;
};

}  // namespace

void AppendCheckedTrailer(size_t inner_start, std::string* dst) {
  const size_t inner_bytes = dst->size() - inner_start;
  const char k = dst->back();
  // LevelDB gives each filter a slice [offset[i], offset[i+1]) of its filter
  // block and answers an empty slice "no" without asking the policy. One bit
  // flipped in an offset empties a slice only when its length is a power of
  // two, so no checked filter has such a length.
  const bool pad = IsPowerOfTwo(inner_bytes + kCheckedTrailerBytes);
  if (pad) dst->push_back('\0');
  const size_t crc_at = dst->size();
  dst->append(kCrcBytes, '\0');
  dst->push_back(
      static_cast<char>(pad ? kCheckedPaddedMarker : kCheckedMarker));
  dst->push_back(k);
  const absl::string_view filter(dst->data() + inner_start,
                                 dst->size() - inner_start);
  EncodeFixed32(&(*dst)[crc_at], CheckedCrc(filter));
}

CheckedParts SplitCheckedFilter(absl::string_view filter) {
  CheckedParts parts;
  if (filter.size() < kCheckedTrailerBytes + 1) return parts;
  const uint8_t marker = static_cast<uint8_t>(filter[filter.size() - 2]);
  if (marker != kCheckedMarker && marker != kCheckedPaddedMarker) return parts;
  const size_t pad = marker == kCheckedPaddedMarker ? 1 : 0;
  if (filter.size() < kCheckedTrailerBytes + pad + 1) return parts;
  parts.well_formed = true;
  parts.inner = filter.substr(0, filter.size() - kCheckedTrailerBytes - pad);
  return parts;
}

absl::Status VerifyCheckedFilter(absl::string_view filter) {
  if (!SplitCheckedFilter(filter).well_formed) {
    return absl::DataLossError(absl::StrCat(
        "checked filter of ", filter.size(),
        " bytes: too short or no checked-filter marker before its last byte"));
  }
  if (!CrcMatches(filter)) {
    return absl::DataLossError(absl::StrFormat(
        "checked filter of %d bytes: stored CRC32C 0x%08x, computed 0x%08x",
        filter.size(),
        DecodeFixed32(filter.data() + filter.size() - kCheckedTrailerBytes),
        CheckedCrc(filter)));
  }
  return absl::OkStatus();
}

absl::Status CheckedFormat::Verify(absl::string_view filter) const {
  absl::Status status = VerifyCheckedFilter(filter);
  if (status.ok()) return status;
  return absl::DataLossError(absl::StrCat(name_, ": ", status.message()));
}

std::unique_ptr<FilterReader> CheckedFormat::NewReader(
    absl::string_view filter) const {
  absl::Status status = Verify(filter);
  if (!status.ok()) return std::make_unique<CorruptFilterReader>(status);
  return inner_.NewReader(SplitCheckedFilter(filter).inner);
}

bool CheckedFormat::KeyMayMatch(absl::string_view key,
                                absl::string_view filter) const {
  const CheckedParts parts = SplitCheckedFilter(filter);
  if (!parts.well_formed) return true;
  if (inner_.KeyMayMatch(key, parts.inner)) return true;
  return !CrcMatches(filter);
}

FilterFacts CheckedFormat::Describe(absl::string_view filter) const {
  const CheckedParts parts = SplitCheckedFilter(filter);
  FilterFacts facts;
  if (parts.well_formed) facts = inner_.Describe(parts.inner);
  facts.checksummed = true;
  return facts;
}

std::unique_ptr<const FilterPolicy> NewCheckedPolicy(
    std::unique_ptr<const FilterPolicy> inner, const CheckedFormat& format) {
  if (AsBloomLike(*inner) != nullptr) {
    return std::make_unique<CheckedBloomLikePolicy>(std::move(inner), format);
  }
  return std::make_unique<CheckedPolicy>(std::move(inner), format);
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> WithSelfChecksum(
    const FilterOptions& options,
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> inner,
    const CheckedFormat& format) {
  if (!inner.ok() || !options.self_checksum.value_or(true)) return inner;
  return NewCheckedPolicy(*std::move(inner), format);
}

}  // namespace filter_internal
}  // namespace sstfilter
