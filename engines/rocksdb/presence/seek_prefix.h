// The one prefix every key an iterator's seek can return must have, so that
// a filter holding every key's prefix can rule the seek out: with
// prefix_same_as_start, the target's prefix; under a bytewise comparator and
// a full-length extractor (RocksDB's fixed and capped ones), the target's
// prefix when the seek's bound keeps the keys inside it.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SEEK_PREFIX_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SEEK_PREFIX_H_

#include <optional>

#include "absl/strings/string_view.h"
#include "rocksdb/comparator.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"

namespace sstfilter {
namespace presence_internal {

enum class SeekDirection {
  kForward,   // Seek: keys at or after the target, below iterate_upper_bound
  kBackward,  // SeekForPrev: keys at or before it, from iterate_lower_bound
};

// The prefix (a view into target) that every key the seek can return has
// under extractor, which the filter added for every key in its domain; none
// when no single prefix bounds the seek. comparator: the column family's.
std::optional<absl::string_view> SeekPrefix(
    const rocksdb::ReadOptions& options,
    const rocksdb::SliceTransform& extractor,
    const rocksdb::Comparator* comparator, absl::string_view target,
    SeekDirection direction);

}  // namespace presence_internal
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_SEEK_PREFIX_H_
