// sstfilter's read side: a filter format reads the bytes a policy's builder
// wrote (filter_policy.h is the build side), for any filter of its persisted
// name whatever options built it, taking its parameters from the filter's own
// bytes. Formats are found by name in the registry (format_registry.h).
//
//   const sstfilter::FilterFormat* format =
//       sstfilter::FindFilterFormat(stored_name);  // the name the table kept
//   if (format == nullptr) { /* a filter this library cannot read */ }
//   if (format->NewReader(filter_bytes)->MayMatch(key)) { /* read it */ }

#ifndef SSTFILTER_FILTER_FILTER_FORMAT_H_
#define SSTFILTER_FILTER_FILTER_FORMAT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sstfilter {

// Answers membership queries against one filter's bytes. Construction parses
// the filter once; queries are then cheap. Accepts any bytes: a malformed
// filter gives a safe answer (see each format's notes), never a crash or a
// read outside the buffer.
//
// REQUIRES: the filter bytes passed to FilterFormat::NewReader outlive the
// reader. Thread safety: a reader is immutable and may be shared across
// threads.
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

  // The false-positive probability this filter is expected to have, from its
  // format's formula and the parameters in its bytes. 0 for a filter that
  // matches nothing, 1 for one that matches everything (including unreadable
  // filters).
  virtual double ExpectedFpp() const = 0;

  // What FilterFormat::Verify said of this reader's bytes when the reader was
  // made: OkStatus, or a DataLossError when they failed a check that their
  // format stores (the CRC32C of sstfilter's version-2 formats); such a
  // reader may match every key. Readers check once, at construction.
  virtual absl::Status Corruption() const;
};

// What one filter's bytes say about it, for tools that describe a table's
// filter (sst_probe). Each format fills what it stores or can estimate.
struct FilterFacts {
  std::string kind;  // the concrete format, e.g. "FastLocalBloom"; "" unknown
  std::optional<double> num_keys;  // stored, or estimated (keys_estimated)
  bool keys_estimated = false;
  std::optional<uint64_t> body_bits;  // the bits that hold keys
  std::optional<int> num_probes;      // Bloom formats: probes per key
  // Whether the format stores a checksum of the filter's bytes; whether it
  // matches is FilterFormat::Verify's answer, the one integrity check.
  bool checksummed = false;
};

// A filter format: its persisted name and its reader. Immutable, so it may be
// shared across threads. Each family's README documents its format's trailer.
class FilterFormat {
 public:
  virtual ~FilterFormat() = default;

  // The name persisted beside each filter (LevelDB's and RocksDB's metaindex
  // key holds it). It changes whenever the bytes of a filter would change
  // meaning, so a reader never misreads a filter of another format.
  virtual const char* Name() const = 0;

  // Never fails: unreadable bytes give a reader with a safe answer (too short
  // to be a filter: matches nothing; inconsistent metadata: may match
  // everything). The reader reads filter in place, at any address.
  // REQUIRES: filter outlives the returned reader.
  virtual std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const = 0;

  // One query against a filter's bytes (LevelDB's KeyMayMatch): answers
  // exactly as NewReader(filter)->MayMatch(key), the one query path, which
  // is what the default does. A format overrides it only to answer without
  // making a reader (LevelDB asks this once per lookup); the contract suite
  // checks that both agree. Parses the filter on every call; prefer
  // NewReader when asking one filter many times.
  virtual bool KeyMayMatch(absl::string_view key,
                           absl::string_view filter) const;

  // The expected false-positive probability of the filter in these bytes
  // (FilterReader::ExpectedFpp).
  double ExpectedFpp(absl::string_view filter) const;

  // What the filter's bytes say about it; any bytes give an answer (an
  // unreadable filter: no field set). The default knows nothing.
  virtual FilterFacts Describe(absl::string_view filter) const;

  // Whether this format's filters also answer "may any key in [lo, hi] be
  // here?" (a range filter's, read by NewRangeFilterReader in
  // filter/range/range_filter.h). False for point-only formats.
  virtual bool AnswersRanges() const { return false; }

  // A DataLossError when the filter fails a check its format stores (the
  // CRC32C of sstfilter's version-2 formats), OkStatus otherwise, and always
  // for formats that store none. NewReader(filter)->Corruption() says the
  // same; this builds no reader.
  virtual absl::Status Verify(absl::string_view filter) const;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_FORMAT_H_
