// The filter formats a table reader understands, by the name a table persists
// beside its filter (the metaindex key without its "filter." or "fullfilter."
// prefix).
//
//   name                          layouts read      policy
//   leveldb.BuiltinBloomFilter2   per-2 KB, full    NewLevelDbBloomPolicy
//   sstfilter.LocalBloom1         per-2 KB, full    NewBloomFilterPolicy
//   rocksdb.BuiltinBloomFilter    full              NewRocksDbFilterReader
//                                 (FastLocalBloom, legacy Bloom or Ribbon,
//                                 as each filter's trailer says)
//
// A reader takes the probe count and size from the filter's own bytes, so one
// policy reads every filter of its name whatever bits/key wrote it.

#ifndef SSTFILTER_TABLE_FILTER_REGISTRY_H_
#define SSTFILTER_TABLE_FILTER_REGISTRY_H_

#include <string>

#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "table/meta_blocks.h"

namespace sstfilter {

// The policy that reads filters persisted under name in this layout, or
// nullptr when there is none. The policy lives as long as the program.
const FilterPolicy* FindReadPolicy(absl::string_view name, FilterLayout layout);

// The names FindReadPolicy knows, for error messages ("a, b and c").
std::string KnownFilterNames();

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_FILTER_REGISTRY_H_
