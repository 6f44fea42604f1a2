#include "engines/rocksdb/presence/seek_prefix.h"

#include <string>

namespace sstfilter {
namespace presence_internal {
namespace {

absl::string_view View(const rocksdb::Slice& slice) {
  return absl::string_view(slice.data(), slice.size());
}

// Whether every byte string below bound that is at least prefix starts with
// prefix: bound is at most prefix's successor (prefix with its trailing 0xff
// bytes dropped and its last byte raised), or prefix is all 0xff bytes.
bool BelowPrefixEnd(absl::string_view prefix, absl::string_view bound) {
  std::string successor(prefix);
  while (!successor.empty() &&
         static_cast<unsigned char>(successor.back()) == 0xff) {
    successor.pop_back();
  }
  if (successor.empty()) return true;
  successor.back() = static_cast<char>(successor.back() + 1);
  return bound <= successor;
}

}  // namespace

std::optional<absl::string_view> SeekPrefix(
    const rocksdb::ReadOptions& options,
    const rocksdb::SliceTransform& extractor,
    const rocksdb::Comparator* comparator, absl::string_view target,
    SeekDirection direction) {
  const rocksdb::Slice target_slice(target.data(), target.size());
  if (!extractor.InDomain(target_slice)) return std::nullopt;
  const absl::string_view prefix = View(extractor.Transform(target_slice));
  // RocksDB returns only keys of the target's prefix.
  if (options.prefix_same_as_start) return prefix;

  // Otherwise the bound must keep every key it lets through inside the
  // prefix, which byte order and a prefix of the key's first bytes tell.
  size_t full_length = 0;
  if (comparator != rocksdb::BytewiseComparator() ||
      !extractor.FullLengthEnabled(&full_length) ||
      prefix.size() != full_length || target.substr(0, full_length) != prefix) {
    return std::nullopt;
  }
  if (direction == SeekDirection::kForward) {
    // Keys in [target, bound): at least target, so at least prefix.
    const rocksdb::Slice* bound = options.iterate_upper_bound;
    if (bound == nullptr || !BelowPrefixEnd(prefix, View(*bound))) {
      return std::nullopt;
    }
  } else {
    // Keys in [bound, target]: below target's prefix successor.
    const rocksdb::Slice* bound = options.iterate_lower_bound;
    if (bound == nullptr || View(*bound) < prefix) return std::nullopt;
  }
  return prefix;
}

}  // namespace presence_internal
}  // namespace sstfilter
