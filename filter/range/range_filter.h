// sstfilter's range filter: answers "may any key in [lo, hi] be in this
// table?", so that a short scan skips a table none of whose keys falls in the
// scanned range, and "may this key be here?" as every other filter does. It
// follows Grafite (Costa, Ferragina and Vinciguerra, "Grafite: Taming
// Adversarial Queries with Optimal Range Filters", SIGMOD 2024): the keys'
// codes are hashed into a reduced universe [0, r) by a hash that keeps
// neighbouring codes neighbours, and the sorted hashes are stored with
// Elias-Fano coding. A range of length l (l key codes) then matches wrongly
// with probability at most l * n / r, whatever the keys and the queries
// (correlated ranges, just after a present key, included): with B bits per
// key, about l / 2^(B-2). Queries cost two hash evaluations and one
// successor search; no query reads more than about 200 bytes of the filter.
//
// Keys are byte strings; the filter sees each through RangeKeyCode
// (range_key.h), the big-endian value of its first 8 bytes, zero-padded. Keys
// that share their first 8 bytes are one code to the filter: a range between
// two of them matches when any of them is present. A range longer than
// max_range_length() codes answers "may match": its bound would say nothing.
//
// Example:
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewGrafiteFilterPolicy(
//           sstfilter::FilterOptions::BitsPerKey(16));
//   if (!policy.ok()) return policy.status();
//   std::string filter;
//   (*policy)->CreateFilter(sorted_or_not_keys, &filter);
//   std::unique_ptr<sstfilter::RangeFilterReader> reader =
//       sstfilter::NewRangeFilterReader(filter);
//   if (reader->RangeMayMatch("user0100", "user0199")) { /* read */ }
//
// Sizing: bits_per_key = B (at least kMinRangeBitsPerKey) gives
// r = n * 2^(B - 2 - overhead) (the Elias-Fano cost of n values in [0, r) is
// 2 + log2(r / n) bits each; the overhead is the select index, 1/8 bit per
// key). fpp = p with max_range_length = L gives the B whose bound for ranges
// of L codes is p. Build: 8 bytes per key added, then a sort. Duplicate keys
// and keys in any order are accepted.
//
// Format: filter/range/README.md. Name(): kCheckedGrafiteName (format
// version 2, with the CRC32C of filter/format_version_2.md) with
// FilterOptions::self_checksum unset (the default) or true; kGrafiteName
// with self_checksum false. Both constants are in grafite_format.h.
//
// Readers are immutable and thread-safe, and accept any bytes: too short to be
// a filter -> matches nothing; unknown format or inconsistent trailer -> may
// match everything; a version-2 filter whose CRC fails -> may match
// everything, and Corruption() says why.

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
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewGrafiteFilterPolicy(
    const FilterOptions& options);

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
  // The same over key codes: may any key's code c have lo <= c <= hi?
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
// (FilterFormat::AnswersRanges; today kGrafiteName and kCheckedGrafiteName),
// the formats NewRangeFilterReader reads.
bool IsRangeFilterFormat(absl::string_view name);

// A reader of a filter of either version, accepting any bytes (see above).
// The reader refers to filter, which must outlive it. A version-2 filter's
// CRC32C is verified (a pass over its bytes) unless checksum is kTrusted,
// for bytes whose CRC the caller verified before (with the same call, or
// VerifyRangeFilter) and that have not changed since.
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
