// sstfilter's range filter: answers "may any key in [lo, hi] be in this
// table?", so that a short scan skips a table none of whose keys falls in the
// range, and "may this key be here?" as every filter does. At B bits per key
// a range of l key codes (range_key.h) matches wrongly with probability at
// most about l / 2^(B-2), whatever the keys and the queries.
// filter/range/README.md defines the format and its design.
//
//   std::unique_ptr<sstfilter::RangeFilterReader> reader =
//       sstfilter::NewRangeFilterReader(filter);  // a Grafite policy's
//   if (reader->RangeMayMatch("user0100", "user0199")) { /* read */ }

#ifndef SSTFILTER_FILTER_RANGE_RANGE_FILTER_H_
#define SSTFILTER_FILTER_RANGE_RANGE_FILTER_H_

#include <cstdint>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// The smallest and largest budget a range filter takes: below 3 bits per key
// the reduced universe is smaller than the key count and the filter matches
// almost every range; above 60 the universe no longer fits 64 bits.
constexpr double kMinRangeBitsPerKey = 3.0;
constexpr double kMaxRangeBitsPerKey = 60.0;

// The range filter's policy. Its Format() reads point queries; range
// queries go through NewRangeFilterReader. options.fpp is the target for
// ranges of options.max_range_length key codes (unset: single keys);
// options.bits_per_key the budget. Returns InvalidArgumentError, naming the
// value, for a budget outside [kMinRangeBitsPerKey, kMaxRangeBitsPerKey], an
// fpp outside (0, 1) or one that needs such a budget, a max_range_length of
// 0, or both or neither of bits_per_key and fpp.
//
// Build: 8 bytes per key added, then a sort; keys may come in any order and
// repeat. Name(): kCheckedGrafiteName (format version 2, with the CRC32C of
// filter/format_version_2.md) unless FilterOptions::self_checksum is false,
// then kGrafiteName (both in grafite_format.h; the keyed names are in
// keyed_grafite.h).
//
// codes: how keys become the codes the bound counts. kFirst8Bytes reads a
// key's first 8 bytes (range_key.h; formats kGrafiteName, kCheckedGrafiteName).
// kPerTable drops the common prefix of the table's keys of each length and
// codes each later position by the symbols those keys hold there, up to 256
// positions (spec param codes=table; formats kLengthKeyedGrafiteName,
// kCheckedLengthKeyedGrafiteName; kKeyedGrafiteName and
// kCheckedKeyedGrafiteName, one coder for all lengths, are read).
enum class RangeKeyCoding { kFirst8Bytes, kPerTable };
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewGrafiteFilterPolicy(
    const FilterOptions& options, RangeKeyCoding codes);
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewGrafiteFilterPolicy(
    const FilterOptions& options);  // kFirst8Bytes

// The bits per key options ask for (validated as above).
absl::StatusOr<double> RangeFilterBitsPerKey(const FilterOptions& options);

class RangeFilterReader : public FilterReader {
 public:
  // False only if no key k of the filter has lo <= k <= hi (bytewise).
  virtual bool RangeMayMatch(absl::string_view lo,
                             absl::string_view hi) const = 0;
  // False only if no key k has lo <= k < hi_exclusive: RocksDB's
  // [iterate_lower_bound, iterate_upper_bound).
  virtual bool RangeMayMatchBefore(absl::string_view lo,
                                   absl::string_view hi_exclusive) const = 0;
  // The same over key codes: may any key's code c have lo <= c <= hi? The
  // codes are range_key.h's, or for a keyed filter its coder's (those below
  // 2^64).
  virtual bool CodeRangeMayMatch(uint64_t lo, uint64_t hi) const = 0;
  // The longest range (in codes) the filter answers; longer ones match.
  virtual uint64_t max_range_length() const = 0;
  // The proven bound on the false-positive rate of a range of length codes:
  // length * n / r, capped at 1 (0 for an empty filter).
  virtual double RangeFppBound(uint64_t length) const = 0;
  // Keys (distinct codes) the filter holds.
  virtual uint64_t num_codes() const = 0;
};

// Whether name is a registered format that answers ranges
// (FilterFormat::AnswersRanges: the Grafite formats of either key coding),
// the formats NewRangeFilterReader reads.
bool IsRangeFilterFormat(absl::string_view name);

// A reader of a filter of either version, immutable and thread-safe. It
// accepts any bytes: too short to be a filter, it matches nothing; of an
// unknown format or with an inconsistent trailer, or a version-2 filter whose
// CRC fails, it may match everything (and Corruption() says why, for the
// CRC). The reader refers to filter, which must outlive it. A version-2
// filter's CRC32C is verified (a pass over its bytes) unless checksum is
// kTrusted, for bytes whose CRC the caller verified before (with the same call,
// or VerifyRangeFilter) and that have not changed since.
enum class RangeFilterChecksum { kVerify, kTrusted };
std::unique_ptr<RangeFilterReader> NewRangeFilterReader(
    absl::string_view filter,
    RangeFilterChecksum checksum = RangeFilterChecksum::kVerify);

// OK for a version-1 filter and for a version-2 filter whose CRC32C matches
// its bytes; the DataLossError NewRangeFilterReader's Corruption() would give
// otherwise.
absl::Status VerifyRangeFilter(absl::string_view filter);

// The same for a filter stored under a format name (IsRangeFilterFormat), as
// a table's property or metaindex key names it: prefer these whenever the
// name is known. Bytes alone cannot say which version they are, and a
// version-2 filter damaged below its trailer (cut to fewer bytes than an empty
// version-1 filter holds) reads as a version-1 filter that holds no key; the
// name says the bytes must be version 2, so such a filter is reported as a
// DataLossError and its reader matches everything. A name that is not a range
// filter format gives an InvalidArgumentError naming it, and a reader that
// matches everything.
std::unique_ptr<RangeFilterReader> NewRangeFilterReaderFor(
    absl::string_view format_name, absl::string_view filter,
    RangeFilterChecksum checksum = RangeFilterChecksum::kVerify);
absl::Status VerifyRangeFilterFor(absl::string_view format_name,
                                  absl::string_view filter);

// The formats, registered under their names.
const FilterFormat& GrafiteFormat();         // kGrafiteName
const FilterFormat& GrafiteCheckedFormat();  // kCheckedGrafiteName

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_RANGE_FILTER_H_
