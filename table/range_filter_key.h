// Where a table keeps its range filter (filter/range/range_filter.h): under
// the name "sstfilter.range." + the filter's format name, for example
// "sstfilter.range." + kCheckedGrafiteName. sstfilter's table layer writes a
// meta block of that name (its metaindex entry points at it); in a RocksDB
// table, where a properties collector builds the filter, it is a user property
// of that name whose value is the filter's bytes. TableFilter reads either.

#ifndef SSTFILTER_TABLE_RANGE_FILTER_KEY_H_
#define SSTFILTER_TABLE_RANGE_FILTER_KEY_H_

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

inline constexpr absl::string_view kRangeFilterKeyPrefix = "sstfilter.range.";

inline std::string RangeFilterKey(absl::string_view format_name) {
  return absl::StrCat(kRangeFilterKeyPrefix, format_name);
}

// The format name of a range filter key, or "" when key is not one.
inline absl::string_view RangeFilterFormatName(absl::string_view key) {
  return absl::StartsWith(key, kRangeFilterKeyPrefix)
             ? key.substr(kRangeFilterKeyPrefix.size())
             : absl::string_view();
}

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_RANGE_FILTER_KEY_H_
