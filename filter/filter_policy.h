// sstfilter's filter policy API: the contract between an LSM table
// builder/reader and a filter format.
//
// A FilterPolicy turns the keys of one SSTable (or of one 2 KB stretch of data
// blocks, in LevelDB's layout) into a filter: a byte string whose last byte is
// the number of probes. A table reader asks the filter before reading a data
// block. "No" is certain and saves a disk read; "maybe" is wrong at most with
// the configured false-positive probability.
//
// Example (NewBloomFilterPolicy is in filter/bloom/bloom.h):
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
//   if (!policy.ok()) return policy.status();
//   std::unique_ptr<sstfilter::FilterBuilder> builder =
//       (*policy)->NewBuilder();
//   builder->AddKey("apple");
//   builder->AddKey("banana");
//   std::string filter;
//   builder->Finish(&filter);
//   std::unique_ptr<sstfilter::FilterReader> reader =
//       (*policy)->NewReader(filter);
//   reader->MayMatch("apple");   // true: an added key always matches
//   reader->MayMatch("cherry");  // false, except with probability ~1%
//
// Thread safety: a FilterPolicy and a FilterReader are immutable and may be
// shared across threads. A FilterBuilder is used by one thread at a time.

#ifndef SSTFILTER_FILTER_FILTER_POLICY_H_
#define SSTFILTER_FILTER_FILTER_POLICY_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sstfilter {

// How large a filter to build. Set exactly one of the two fields.
struct FilterOptions {
  // Target false-positive probability, in (0, 1). The policy derives bits/key
  // and the number of probes from its own false-positive formula (documented
  // with each policy). A policy never silently misses its rate: an fpp its
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

  static FilterOptions Fpp(double p) {
    FilterOptions options;
    options.fpp = p;
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

// Returns OK when exactly one field is set and it is in range, else
// InvalidArgumentError naming the offending value. Every policy factory checks
// its options with this first.
absl::Status ValidateFilterOptions(const FilterOptions& options);

// Accumulates the keys of one filter. The sequence of calls must match the
// regexp
//   (AddKey* Finish)*
// Finish leaves the builder empty, ready for the next filter.
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

// Answers membership queries against one filter's bytes. Construction parses
// the filter once; queries are then cheap. Accepts any bytes: a malformed
// filter gives a safe answer (see each policy's format notes), never a crash or
// a read outside the buffer.
//
// REQUIRES: the filter bytes passed to FilterPolicy::NewReader outlive the
// reader.
class FilterReader {
 public:
  virtual ~FilterReader() = default;

  // Returns false only if key was certainly not added to the filter.
  virtual bool MayMatch(absl::string_view key) const = 0;

  // Batched form: results[i] = MayMatch(keys[i]). Implementations may overlap
  // the memory accesses of the keys, which is much faster for filters that do
  // not fit in cache. REQUIRES: results points to keys.size() writable bools.
  virtual void MayMatch(absl::Span<const absl::string_view> keys,
                        bool* results) const;

  // The false-positive probability this filter is expected to have, from the
  // policy's formula and the filter's own size and probe count. 0 for a filter
  // that matches nothing, 1 for one that matches everything (including
  // unreadable filters).
  virtual double ExpectedFpp() const = 0;
};

// A filter format and its parameters. Immutable; outlives the builders and
// readers it creates only for its own bookkeeping (they do not refer to it).
class FilterPolicy {
 public:
  virtual ~FilterPolicy() = default;

  // The format's name. Persist it beside the filter: it changes whenever the
  // bytes of a filter would change meaning, so a reader can refuse a filter it
  // does not understand.
  virtual const char* Name() const = 0;

  // Configured bits per key (a filter also holds a few bytes of trailer).
  virtual double BitsPerKey() const = 0;

  // Number of probes (hash functions) per key, as stored in the filter's last
  // byte.
  virtual int NumProbes() const = 0;

  virtual std::unique_ptr<FilterBuilder> NewBuilder() const = 0;

  // Never fails: unreadable bytes give a reader with a safe answer. The
  // reader reads filter in place, at any address; a policy may be faster when
  // filter starts on a cache line (the native Bloom filter: see bloom.h).
  // REQUIRES: filter outlives the returned reader.
  virtual std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const = 0;

  // LevelDB-style convenience: appends the filter for keys to *dst.
  virtual void CreateFilter(absl::Span<const absl::string_view> keys,
                            std::string* dst) const;

  // LevelDB-style convenience: one query against a filter's bytes. Parses the
  // filter on every call; prefer NewReader when asking one filter many times.
  virtual bool KeyMayMatch(absl::string_view key,
                           absl::string_view filter) const;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_POLICY_H_
