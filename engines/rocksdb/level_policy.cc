#include "engines/rocksdb/level_policy.h"

#include <algorithm>
#include <utility>

#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/table_properties.h"

namespace sstfilter {
namespace {

using RocksDbPolicyPtr = std::shared_ptr<const rocksdb::FilterPolicy>;

class LevelPolicy final : public rocksdb::FilterPolicy {
 public:
  LevelPolicy(std::vector<RocksDbPolicyPtr> levels,
              RocksDbPolicyPtr unknown_level, RocksDbPolicyPtr reader)
      : levels_(std::move(levels)),
        unknown_level_(std::move(unknown_level)),
        reader_(std::move(reader)) {}

  const char* Name() const override { return reader_->Name(); }
  const char* CompatibilityName() const override {
    return reader_->CompatibilityName();
  }

  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    const rocksdb::FilterPolicy* chosen = ForContext(context);
    return chosen == nullptr ? nullptr : chosen->GetBuilderWithContext(context);
  }

  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return reader_->GetFilterBitsReader(contents);
  }

 private:
  const rocksdb::FilterPolicy* ForContext(
      const rocksdb::FilterBuildingContext& context) const {
    if (context.reason == rocksdb::TableFileCreationReason::kFlush) {
      return levels_.front().get();
    }
    if (context.compaction_style != rocksdb::kCompactionStyleLevel ||
        context.level_at_creation < 0) {
      return unknown_level_.get();
    }
    const size_t level = std::min(
        static_cast<size_t>(context.level_at_creation), levels_.size() - 1);
    return levels_[level].get();
  }

  const std::vector<RocksDbPolicyPtr> levels_;  // null: no filter
  const RocksDbPolicyPtr unknown_level_;        // null: no filter
  const RocksDbPolicyPtr reader_;
};

}  // namespace

std::shared_ptr<const rocksdb::FilterPolicy> NewLevelPolicy(
    std::vector<RocksDbPolicyPtr> levels, RocksDbPolicyPtr unknown_level,
    RocksDbPolicyPtr reader) {
  return std::make_shared<const LevelPolicy>(
      std::move(levels), std::move(unknown_level), std::move(reader));
}

}  // namespace sstfilter
