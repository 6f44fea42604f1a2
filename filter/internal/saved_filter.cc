#include "filter/internal/saved_filter.h"

#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sstfilter {
namespace filter_internal {
namespace {

constexpr size_t kMagicBytes = sizeof(kSavedMagic) - 1;
constexpr size_t kVersionOffset = kMagicBytes;
constexpr size_t kKindOffset = kVersionOffset + 1;
constexpr size_t kZerosOffset = kKindOffset + 1;
static_assert(kZerosOffset + 2 == kSavedTotalOffset &&
              kSavedTotalOffset + 8 == kSavedHeaderBytes);

// The stored form of the CRC of saved[0, crc_at).
uint32_t SavedCrc(absl::string_view saved, size_t crc_at) {
  return crc32c::Mask(crc32c::Value(saved.data(), crc_at));
}

// The class whose Save wrote a kind byte, or the byte when no class did.
std::string KindWords(uint8_t kind) {
  if (kind < static_cast<uint8_t>(SavedKind::kMutableBloom) ||
      kind > static_cast<uint8_t>(SavedKind::kCountingBloom)) {
    return absl::StrCat("unknown kind ", kind);
  }
  return SavedClassName(static_cast<SavedKind>(kind));
}

}  // namespace

const char* SavedClassName(SavedKind kind) {
  switch (kind) {
    case SavedKind::kMutableBloom:
      return "MutableBloomFilter";
    case SavedKind::kScalableBloom:
      return "ScalableBloomFilter";
    case SavedKind::kCountingBloom:
      return "CountingBloomFilter";
  }
  return "filter";
}

absl::Status SavedDataLoss(SavedKind kind, absl::string_view what) {
  return absl::DataLossError(
      absl::StrCat("saved ", SavedClassName(kind), ": ", what));
}

void StartSaved(SavedKind kind, std::string* dst) {
  dst->append(kSavedMagic, kMagicBytes);
  dst->push_back(static_cast<char>(kSavedFormatVersion));
  dst->push_back(static_cast<char>(kind));
  dst->append(2, '\0');
  PutFixed64(dst, 0);  // the total, set by FinishSaved
}

void FinishSaved(std::string* dst) {
  EncodeFixed64(&(*dst)[kSavedTotalOffset], dst->size() + kSavedCrcBytes);
  PutFixed32(dst, SavedCrc(*dst, dst->size()));
}

absl::StatusOr<absl::string_view> OpenSaved(SavedKind kind,
                                            absl::string_view saved) {
  if (saved.empty()) return SavedDataLoss(kind, "no bytes");
  if (saved.size() < kSavedHeaderBytes) {
    return SavedDataLoss(kind, absl::StrCat("truncated: ", saved.size(),
                                            " bytes, fewer than the ",
                                            kSavedHeaderBytes, "-byte header"));
  }
  if (std::memcmp(saved.data(), kSavedMagic, kMagicBytes) != 0) {
    return SavedDataLoss(
        kind, absl::StrCat("not a saved filter: it begins \"",
                           absl::CHexEscape(saved.substr(0, kMagicBytes)),
                           "\", not \"", kSavedMagic, "\""));
  }
  const uint8_t version = static_cast<uint8_t>(saved[kVersionOffset]);
  if (version != kSavedFormatVersion) {
    return SavedDataLoss(kind, absl::StrCat("unsupported version ", version));
  }
  const uint8_t stored_kind = static_cast<uint8_t>(saved[kKindOffset]);
  if (stored_kind != static_cast<uint8_t>(kind)) {
    return SavedDataLoss(
        kind,
        absl::StrCat("wrong kind: ", KindWords(stored_kind), " bytes given to ",
                     SavedClassName(kind), "::Restore"));
  }
  if (saved[kZerosOffset] != 0 || saved[kZerosOffset + 1] != 0) {
    return SavedDataLoss(kind, "nonzero reserved header bytes");
  }
  const uint64_t total = DecodeFixed64(saved.data() + kSavedTotalOffset);
  if (saved.size() < total) {
    return SavedDataLoss(kind, absl::StrCat("truncated: ", saved.size(),
                                            " bytes, header says ", total));
  }
  if (saved.size() > total) {
    return SavedDataLoss(
        kind, absl::StrCat(saved.size(), " bytes, header says ", total,
                           ": trailing bytes"));
  }
  if (total < kSavedMinBytes) {
    return SavedDataLoss(kind, absl::StrCat("header says ", total,
                                            " bytes, fewer than header and "
                                            "CRC take (",
                                            kSavedMinBytes, ")"));
  }
  const size_t crc_at = saved.size() - kSavedCrcBytes;
  if (DecodeFixed32(saved.data() + crc_at) != SavedCrc(saved, crc_at)) {
    return SavedDataLoss(kind, "CRC32C mismatch");
  }
  return saved.substr(kSavedHeaderBytes, crc_at - kSavedHeaderBytes);
}

void PutSavedDouble(std::string* dst, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  PutFixed64(dst, bits);
}

absl::Status SavedFieldsEnd(SavedKind kind, const SavedFieldReader& in) {
  if (in.left() == 0) return absl::OkStatus();
  return SavedDataLoss(kind,
                       absl::StrCat(in.left(), " bytes after the last field"));
}

uint8_t SavedFieldReader::Byte() {
  const absl::string_view byte = Bytes(1);
  return byte.empty() ? 0 : static_cast<uint8_t>(byte[0]);
}

uint64_t SavedFieldReader::Fixed64() {
  const absl::string_view bytes = Bytes(8);
  return bytes.empty() ? 0 : DecodeFixed64(bytes.data());
}

double SavedFieldReader::Double() {
  const uint64_t bits = Fixed64();
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

absl::string_view SavedFieldReader::Bytes(uint64_t n) {
  if (n > rest_.size()) {
    overran_ = true;
    rest_ = absl::string_view();
    return absl::string_view();
  }
  const absl::string_view bytes = rest_.substr(0, n);
  rest_.remove_prefix(n);
  return bytes;
}

bool SavedFieldReader::Zeros(size_t n) {
  const absl::string_view bytes = Bytes(n);
  for (char c : bytes) {
    if (c != 0) return false;
  }
  return true;
}

}  // namespace filter_internal
}  // namespace sstfilter
