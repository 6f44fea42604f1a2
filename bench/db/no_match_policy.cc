#include "bench/db/no_match_policy.h"

#include <algorithm>
#include <utility>

#include "filter/rocksdb/rocksdb_filter_bits.h"

namespace sstfilter {
namespace bench {
namespace {

class NoMatchReader final : public rocksdb::FilterBitsReader {
 public:
  bool MayMatch(const rocksdb::Slice& /*key*/) override { return false; }
  void MayMatch(int num_keys, rocksdb::Slice** /*keys*/,
                bool* may_match) override {
    std::fill(may_match, may_match + num_keys, false);
  }
};

class NoMatchPolicy final : public rocksdb::FilterPolicy {
 public:
  explicit NoMatchPolicy(std::shared_ptr<const rocksdb::FilterPolicy> inner)
      : inner_(std::move(inner)) {}

  // inner's names, so that RocksDB finds the filters inner wrote.
  const char* Name() const override { return inner_->Name(); }
  const char* CompatibilityName() const override {
    return inner_->CompatibilityName();
  }
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    return inner_->GetBuilderWithContext(context);
  }
  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& /*contents*/) const override {
    return new NoMatchReader();
  }

 private:
  const std::shared_ptr<const rocksdb::FilterPolicy> inner_;
};

}  // namespace

std::shared_ptr<const rocksdb::FilterPolicy> NewNoMatchFilterPolicy(
    std::shared_ptr<const rocksdb::FilterPolicy> inner) {
  return std::make_shared<const NoMatchPolicy>(std::move(inner));
}

}  // namespace bench
}  // namespace sstfilter
