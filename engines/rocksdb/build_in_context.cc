#include "engines/rocksdb/build_in_context.h"

#include <memory>

#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace test {

// The number of levels RocksDB tells a policy; the policies under test do
// not consult it.
constexpr int kContextLevels = 7;

Built BuildAt(const rocksdb::FilterPolicy& policy, int level,
              const std::vector<std::string>& keys,
              rocksdb::CompactionStyle style,
              rocksdb::TableFileCreationReason reason) {
  rocksdb::BlockBasedTableOptions table_options;
  rocksdb::FilterBuildingContext context(table_options);
  context.compaction_style = style;
  context.num_levels = kContextLevels;
  context.level_at_creation = level;
  context.reason = reason;
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
      policy.GetBuilderWithContext(context));
  Built built;
  if (builder == nullptr) return built;
  built.has_filter = true;
  for (const std::string& key : keys) builder->AddKey(key);
  std::unique_ptr<const char[]> buf;
  built.filter = builder->Finish(&buf).ToString();
  return built;
}

}  // namespace test
}  // namespace sstfilter
