// What a table's filter holds for each key: the whole key, its prefix (for
// prefix seeks), or both (RocksDB's whole_key_filtering and
// prefix_extractor). A table records the choice in two properties, which
// table readers consult before asking the filter anything.
//
// FilterKeyAdder feeds a FilterBuilder as RocksDB's builder does, so that
// filters written here and by RocksDB hold the same strings: each whole key
// unless it repeats the one before, and each prefix of a key in the
// extractor's domain unless it repeats the prefix before.

#ifndef SSTFILTER_TABLE_FILTER_KEYS_H_
#define SSTFILTER_TABLE_FILTER_KEYS_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/prefix_extractor.h"

namespace sstfilter {

enum class FilterKeys {
  kWholeKeys,             // point lookups only (the default)
  kPrefixes,              // prefix seeks; point lookups probe the prefix
  kWholeKeysAndPrefixes,  // both
};

struct FilterBlockOptions {
  FilterKeys keys = FilterKeys::kWholeKeys;
  // Required unless keys is kWholeKeys (ignored then).
  std::shared_ptr<const PrefixExtractor> prefix_extractor;
};

// InvalidArgumentError naming the option when keys asks for prefixes but
// prefix_extractor is null.
absl::Status ValidateFilterBlockOptions(const FilterBlockOptions& options);

// The table properties that tell readers what the filter holds, as RocksDB
// records them (name, value).
std::vector<std::pair<std::string, std::string>> FilterKeysProperties(
    const FilterBlockOptions& options);

// Adds to a builder what the filter holds for each key, in key order. Shares
// ownership of the extractor.
class FilterKeyAdder {
 public:
  explicit FilterKeyAdder(const FilterBlockOptions& options);

  // Adds what the filter holds for user_key.
  void Add(absl::string_view user_key, FilterBuilder* builder);
  // Adds next_key's prefix (if it has one that differs from the last prefix
  // added), without remembering it: a partition cut just before next_key
  // holds it, so that a prefix seek, which finds its partition by the prefix
  // alone, finds it in the partition before next_key's too.
  void AddPrefixOfNext(absl::string_view next_key, FilterBuilder* builder);
  // Forgets the last key and prefix: a new filter starts.
  void Reset();

 private:
  const bool whole_keys_;
  const std::shared_ptr<const PrefixExtractor> extractor_;  // null: none
  std::string last_key_;
  std::string last_prefix_;
  bool have_last_key_ = false;
  bool have_last_prefix_ = false;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_FILTER_KEYS_H_
