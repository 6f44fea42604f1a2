// A prefix extractor maps a key to the prefix a filter holds for it, so that
// a seek or an iteration over one prefix can skip every table without it. The
// built-in ones behave exactly as RocksDB's and carry RocksDB's names, so a
// table RocksDB wrote with NewFixedPrefixTransform(8) is read with
// NewFixedPrefixExtractor(8). filter/README.md has the rule for reading them.
//
//   std::unique_ptr<const sstfilter::PrefixExtractor> fixed =
//       sstfilter::NewFixedPrefixExtractor(8);
//   if (fixed->InDomain(key)) prefix = fixed->Transform(key);  // a view of key

#ifndef SSTFILTER_FILTER_PREFIX_EXTRACTOR_H_
#define SSTFILTER_FILTER_PREFIX_EXTRACTOR_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

// A key outside the domain has no prefix: nothing is added to a filter for it
// and a prefix question about it cannot be answered (it "may match").
// Thread safety: extractors are immutable; share one among any threads.
class PrefixExtractor {
 public:
  virtual ~PrefixExtractor() = default;

  // The name RocksDB records for this extractor in a table's properties.
  virtual const std::string& Name() const = 0;
  // Whether key has a prefix.
  virtual bool InDomain(absl::string_view key) const = 0;
  // key's prefix, a view of key. REQUIRES: InDomain(key).
  virtual absl::string_view Transform(absl::string_view key) const = 0;
};

// The value of "rocksdb.prefix.extractor.name" in a table written without a
// prefix extractor.
constexpr char kNoPrefixExtractorName[] = "nullptr";

// Fixed-length prefixes: keys shorter than length have none. Any length is
// accepted, as RocksDB's NewFixedPrefixTransform does (0: every key has the
// empty prefix).
std::unique_ptr<const PrefixExtractor> NewFixedPrefixExtractor(size_t length);

// Prefixes of at most cap bytes: every key has one (a shorter key is its own
// prefix), as RocksDB's NewCappedPrefixTransform.
std::unique_ptr<const PrefixExtractor> NewCappedPrefixExtractor(size_t cap);

// The extractor a table's "rocksdb.prefix.extractor.name" names:
// "rocksdb.FixedPrefix.<n>" or "rocksdb.CappedPrefix.<n>" (n decimal).
// NotFoundError naming the value for any other name (a custom extractor
// this library cannot reproduce, or "nullptr").
absl::StatusOr<std::unique_ptr<const PrefixExtractor>> PrefixExtractorFromName(
    absl::string_view name);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PREFIX_EXTRACTOR_H_
