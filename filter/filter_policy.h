// sstfilter's build side: a filter policy is a format (filter_format.h, the
// read side) plus the sizing that builds filters of it from a table's keys.
// A reader's "no" is certain; its "maybe" is wrong at most with the
// configured false-positive probability.
//
//   std::unique_ptr<sstfilter::FilterBuilder> builder = policy->NewBuilder();
//   builder->AddKey("apple");
//   std::string filter;
//   builder->Finish(&filter);
//   policy->NewReader(filter)->MayMatch("apple");  // true: always

#ifndef SSTFILTER_FILTER_FILTER_POLICY_H_
#define SSTFILTER_FILTER_FILTER_POLICY_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_format.h"

namespace sstfilter {

// How large a filter to build. Set exactly one of the two fields.
struct FilterOptions {
  // Target false-positive probability, in (0, 1). The policy derives its
  // sizing from its own format's false-positive formula (documented with each
  // policy). A policy never silently misses its rate: an fpp its
  // layout cannot reach within kMaxBitsPerKey is an InvalidArgumentError
  // naming the value. Every policy written for new stores accepts any fpp
  // down to kMinGuaranteedFpp; a compatibility format may stop earlier, and
  // says so (RocksDB's legacy Bloom, whose probes repeat positions, cannot go
  // below about 1e-3).
  std::optional<double> fpp;
  // Filter size in bits per key, in [1, 100]. For callers migrating from
  // LevelDB's NewBloomFilterPolicy(bits_per_key) or RocksDB's
  // NewBloomFilterPolicy(bits_per_key).
  std::optional<double> bits_per_key;
  // Whether each filter stores a CRC32C of its own bytes (format version 2 of
  // sstfilter's own families, kCheckedLocalBloomName and the like;
  // filter/format_version_2.md). A reader then answers "may match" for a
  // damaged filter even in a host that does not verify its block checksums
  // (LevelDB unless paranoid_checks, RocksDB with verify_checksums = false),
  // where a damaged version-1 filter can answer a wrong "no". Unset: on for
  // sstfilter's own families. false: version 1, 6 or 7 bytes smaller per
  // filter. The LevelDB- and RocksDB-compatible policies write the engines'
  // bytes, which have no room for it: true is an InvalidArgumentError there.
  std::optional<bool> self_checksum;
  // Range filters only (a family whose format AnswersRanges(), the range
  // filter of filter/range/range_filter.h): the length, in key codes, of the
  // ranges fpp is a target for; unset: single keys. It changes the sizing an
  // fpp gives, never what a filter answers. Set for a family that answers no
  // ranges: InvalidArgumentError.
  std::optional<uint64_t> max_range_length;

  static FilterOptions Fpp(double p) {
    FilterOptions options;
    options.fpp = p;
    return options;
  }
  // A range filter's target: fpp p for ranges of max_range_length key codes.
  static FilterOptions RangeFpp(double p, uint64_t max_range_length) {
    FilterOptions options = Fpp(p);
    options.max_range_length = max_range_length;
    return options;
  }
  static FilterOptions BitsPerKey(double bits) {
    FilterOptions options;
    options.bits_per_key = bits;
    return options;
  }
};

// Valid ranges of FilterOptions.
constexpr double kMinBitsPerKey = 1.0;
constexpr double kMaxBitsPerKey = 100.0;
constexpr double kMinGuaranteedFpp = 1e-6;

// Returns OK when exactly one of fpp and bits_per_key is set and it is in
// range and max_range_length is unset, else InvalidArgumentError naming the
// offending value. Every policy factory of single keys checks its options
// with this first.
absl::Status ValidateFilterOptions(const FilterOptions& options);

// The same checks of fpp and bits_per_key alone, whatever max_range_length
// says: for range filters, which check that themselves.
absl::Status ValidateKeyFilterOptions(const FilterOptions& options);

// ValidateFilterOptions, plus an InvalidArgumentError naming format when
// self_checksum is true: for the policies whose format has no room for a
// checksum (the engines' own formats, the in-memory filters).
absl::Status ValidateCompatibleFilterOptions(const FilterOptions& options,
                                             absl::string_view format);

// Accumulates the keys of one filter. The sequence of calls must match the
// regexp
//   (AddKey* Finish)*
// Finish leaves the builder empty, ready for the next filter. A builder is
// used by one thread at a time.
class FilterBuilder {
 public:
  virtual ~FilterBuilder() = default;

  // Adds a key. Duplicate keys are allowed and cost nothing in accuracy.
  virtual void AddKey(absl::string_view key) = 0;

  // Number of AddKey calls since the last Finish.
  virtual size_t NumAdded() const = 0;

  // Appends the filter for the keys added since the last Finish to *dst, then
  // resets.
  virtual void Finish(std::string* dst) = 0;
};

// A filter format and the sizing that builds its filters. Immutable, so it may
// be shared across threads; the builders and readers it creates do not refer
// to it. Every factory (NewBloomFilterPolicy, ...) has the signature of
// PolicyFactoryFunction below and checks its options with
// ValidateFilterOptions first.
class FilterPolicy {
 public:
  virtual ~FilterPolicy() = default;

  // The format this policy builds. Its readers read every filter of its
  // name, whatever options built it.
  virtual const FilterFormat& Format() const = 0;

  // Format().Name(): persist it beside the filter.
  const char* Name() const { return Format().Name(); }

  // Bits of filter per distinct key this policy's sizing chose, without the
  // format's few bytes of fixed trailer. For memory budgets and for hosts
  // that ask how many keys fit in a filter of a given size.
  virtual double BitsPerKey() const = 0;

  virtual std::unique_ptr<FilterBuilder> NewBuilder() const = 0;

  // A builder of the same filters, for a host that builds some only to
  // measure their size and never stores them (the RocksDB adapter sizing
  // filter partitions). NewBuilder() unless the policy's builders report
  // what they build to the host, which a sizing build must not do (the
  // hybrid policy's HybridCounters).
  virtual std::unique_ptr<FilterBuilder> NewSizingBuilder() const {
    return NewBuilder();
  }

  // Format().NewReader(filter) unless a wrapper adds to it. Never fails.
  // REQUIRES: filter outlives the returned reader.
  virtual std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const;

  // LevelDB-style convenience over NewBuilder: appends the filter for keys
  // to *dst.
  void CreateFilter(absl::Span<const absl::string_view> keys,
                    std::string* dst) const;

  // LevelDB-style convenience: Format().KeyMayMatch(key, filter), one query
  // against a filter's bytes. There is one query path, the format's reader
  // (FilterReader::MayMatch); this and FilterFormat::KeyMayMatch answer
  // exactly as it does. Parses the filter on every call; prefer NewReader when
  // asking one filter many times.
  bool KeyMayMatch(absl::string_view key, absl::string_view filter) const;

  // The spec string that names this policy (filter/filter_spec.h): its family
  // and every option it was given, in canonical form, for options files, tools
  // and logs. NewFilterPolicyFromString(ToString()) builds a policy with the
  // same Name(), BitsPerKey(), ToString() and filter bytes. A policy that no
  // registered family made (a wrapper) describes itself; the default is
  // Name(). Options a spec cannot carry (HybridOptions::counters) are left out.
  virtual std::string ToString() const;

 protected:
  // A policy that describes itself: ToString() is Name() unless overridden.
  FilterPolicy() = default;
  // A policy a family's factory made: ToString() is spec, the factory's
  // PolicySpec::ToString().
  explicit FilterPolicy(std::string spec) : spec_(std::move(spec)) {}
  // A wrapper of wrapped: ToString() is wrapped's spec, if a factory gave it
  // one.
  FilterPolicy(const FilterPolicy& wrapped) = default;

 private:
  const std::string spec_;  // empty: describes itself
};

// The signature of every policy factory (NewBloomFilterPolicy, ...).
using PolicyFactoryFunction =
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> (*)(
        const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_POLICY_H_
