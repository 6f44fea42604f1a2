// Fuzzes the table reader with whole files: footer, metaindex, properties,
// index and filter block, partition index and partitions, prefix
// properties, checksums and Snappy. Any bytes must give a table or an error,
// never a crash; an opened table answers key and prefix queries and
// describes itself.
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "filter/prefix_extractor.h"
#include "table/filter_summary.h"
#include "table/random_access_file.h"
#include "table/table_filter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (sstfilter::IndexKeys keys :
       {sstfilter::IndexKeys::kInternal, sstfilter::IndexKeys::kUser}) {
    sstfilter::TableFilterOptions options;
    options.index_keys = keys;
    // A small prefetch also exercises the reads outside the tail.
    options.tail_prefetch_bytes = size % 2 == 0 ? 64 : 1 << 20;
    // The corpus's prefix tables cut 8-byte prefixes; the other iteration
    // reads with the table's own extractor.
    if (keys == sstfilter::IndexKeys::kUser) {
      options.prefix_extractor = sstfilter::NewFixedPrefixExtractor(8);
    }
    auto table =
        sstfilter::TableFilter::Open(sstfilter::NewStringFile(bytes), options);
    if (!table.ok()) continue;
    for (absl::string_view key :
         {"", "a", "key000", "g0000002", "g0000004a", "zzzzzzzz"}) {
      (*table)->KeyMayMatch(key);
      (*table)->PrefixMayMatch(key);
      (*table)->PartitionOf(key);
    }
    sstfilter::SummarizeFilter(**table);
    (*table)->LoadAllPartitions().IgnoreError();
    sstfilter::SummarizeFilter(**table);
  }
  return 0;
}
