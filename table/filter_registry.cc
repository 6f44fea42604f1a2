#include "table/filter_registry.h"

#include <memory>

#include "absl/strings/str_join.h"
#include "filter/bloom/bloom.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "filter/rocksdb/rocksdb_bloom.h"

namespace sstfilter {
namespace {

// Any valid size: a reader takes k and the size from the filter bytes.
constexpr double kReaderBitsPerKey = 10;

struct Entry {
  const char* name;
  bool per_data_range;  // readable in LevelDB's per-2 KB layout
  bool full;            // readable as a full filter
  const FilterPolicy* (*policy)();
};

const FilterPolicy* LevelDbPolicy() {
  static const FilterPolicy* const policy =
      NewLevelDbBloomPolicy(FilterOptions::BitsPerKey(kReaderBitsPerKey))
          ->release();
  return policy;
}

const FilterPolicy* NativePolicy() {
  static const FilterPolicy* const policy =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(kReaderBitsPerKey))
          ->release();
  return policy;
}

// Its reader takes the format (FastLocalBloom, legacy Bloom, Ribbon) from
// each filter's trailer, whichever RocksDB policy or format_version wrote it.
const FilterPolicy* RocksDbPolicy() {
  static const FilterPolicy* const policy =
      NewRocksDbFastLocalBloomPolicy(
          FilterOptions::BitsPerKey(kReaderBitsPerKey))
          ->release();
  return policy;
}

constexpr Entry kEntries[] = {
    {kLevelDbBloomName, true, true, &LevelDbPolicy},
    {"sstfilter.LocalBloom1", true, true, &NativePolicy},
    // RocksDB writes its builtin filters only as full (or partitioned) filters.
    {kRocksDbBuiltinFilterName, false, true, &RocksDbPolicy},
};

}  // namespace

const FilterPolicy* FindReadPolicy(absl::string_view name,
                                   FilterLayout layout) {
  for (const Entry& entry : kEntries) {
    if (name != entry.name) continue;
    const bool readable =
        (layout == FilterLayout::kPerDataRange && entry.per_data_range) ||
        (layout == FilterLayout::kFull && entry.full);
    if (!readable) return nullptr;
    const FilterPolicy* policy = entry.policy();
    return name == policy->Name() ? policy : nullptr;
  }
  return nullptr;
}

std::string KnownFilterNames() {
  std::vector<std::string> names;
  for (const Entry& entry : kEntries) names.push_back(entry.name);
  return absl::StrJoin(names, ", ");
}

}  // namespace sstfilter
