// Format version 2 of sstfilter's own families: a version-1 filter followed by
// a CRC32C of all its bytes, so that a reader handed damaged bytes answers "may
// match" instead of a wrong "no" (filter/format_version_2.md defines it). A
// reader object verifies the CRC once, when it is built; the one-call path
// (KeyMayMatch(key, filter)) verifies it only before answering "no".
//
// Internal to the filter families: each registers a CheckedFormat over its
// version-1 format and wraps its policies with NewCheckedPolicy.

#ifndef SSTFILTER_FILTER_INTERNAL_CHECKED_FILTER_H_
#define SSTFILTER_FILTER_INTERNAL_CHECKED_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace filter_internal {

// Second-to-last byte of a checked filter without and with its pad byte. No
// family's version-1 marker takes these values.
constexpr uint8_t kCheckedMarker = 0xC2;
constexpr uint8_t kCheckedPaddedMarker = 0xC3;
constexpr size_t kCrcBytes = 4;
// crc, M and k.
constexpr size_t kCheckedTrailerBytes = kCrcBytes + 2;

// Appends the pad, CRC, marker and k after the inner filter that occupies
// (*dst)[inner_start, dst->size()). REQUIRES: the inner filter is not empty.
void AppendCheckedTrailer(size_t inner_start, std::string* dst);

// The parts of a checked filter, before its CRC is verified.
struct CheckedParts {
  bool well_formed = false;  // size and marker are those of a checked filter
  absl::string_view inner;   // the version-1 filter
};
CheckedParts SplitCheckedFilter(absl::string_view filter);

// OkStatus iff the filter is well formed and its stored CRC matches its
// bytes; a DataLossError saying which otherwise.
absl::Status VerifyCheckedFilter(absl::string_view filter);

// The read side of a checked format: its own name, the inner format's readers.
class CheckedFormat final : public FilterFormat {
 public:
  // REQUIRES: name and inner outlive this object.
  CheckedFormat(const char* name, const FilterFormat& inner)
      : name_(name), inner_(inner) {}

  const char* Name() const override { return name_; }
  const FilterFormat& inner() const { return inner_; }

  // Verifies the CRC, then returns the inner format's reader of the inner
  // filter: queries cost what the inner format's do. A filter that fails the
  // check gives a reader that may match every key and reports a DataLossError
  // from Corruption().
  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override;

  // The inner format's answer; a "no" only after the CRC is verified.
  bool KeyMayMatch(absl::string_view key,
                   absl::string_view filter) const override;

  FilterFacts Describe(absl::string_view filter) const override;

  bool AnswersRanges() const override { return inner_.AnswersRanges(); }

  // VerifyCheckedFilter, with this format's name in the message.
  absl::Status Verify(absl::string_view filter) const override;

 private:
  const char* const name_;
  const FilterFormat& inner_;
};

// A policy that builds checked filters of format from inner's version-1
// filters. NumProbes() is kept when inner is Bloom-like (bloom_like_policy.h),
// and so is ToString() when a family's factory gave inner its spec.
// REQUIRES: format.inner() is inner->Format().
std::unique_ptr<const FilterPolicy> NewCheckedPolicy(
    std::unique_ptr<const FilterPolicy> inner, const CheckedFormat& format);

// What a family factory returns for options: inner unchanged when
// options.self_checksum is false, else inner wrapped in format. Passes an
// error through.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> WithSelfChecksum(
    const FilterOptions& options,
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> inner,
    const CheckedFormat& format);

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_CHECKED_FILTER_H_
