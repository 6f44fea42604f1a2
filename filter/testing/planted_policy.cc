#include "filter/testing/planted_policy.h"

#include <string>
#include <utility>
#include <vector>

#include "filter/leveldb/leveldb_bloom.h"

namespace sstfilter {
namespace fuzz {
namespace {

class DropLastKeyBuilder : public FilterBuilder {
 public:
  explicit DropLastKeyBuilder(std::unique_ptr<FilterBuilder> inner)
      : inner_(std::move(inner)) {}

  void AddKey(absl::string_view key) override { keys_.emplace_back(key); }
  size_t NumAdded() const override { return keys_.size(); }

  void Finish(std::string* dst) override {
    // The planted bug: the loop bound should be keys_.size().
    for (size_t i = 0; i + 1 < keys_.size(); ++i) inner_->AddKey(keys_[i]);
    inner_->Finish(dst);
    keys_.clear();
  }

 private:
  const std::unique_ptr<FilterBuilder> inner_;
  std::vector<std::string> keys_;
};

class DropLastKeyPolicy : public FilterPolicy {
 public:
  explicit DropLastKeyPolicy(std::unique_ptr<const FilterPolicy> inner)
      : inner_(std::move(inner)) {}

  // The inner format: the planted bug loses a key, it does not change bytes.
  const FilterFormat& Format() const override { return inner_->Format(); }
  double BitsPerKey() const override { return inner_->BitsPerKey(); }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return std::make_unique<DropLastKeyBuilder>(inner_->NewBuilder());
  }

 private:
  const std::unique_ptr<const FilterPolicy> inner_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewDropLastKeyPolicy(
    const FilterOptions& options) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> inner =
      NewLevelDbFilterPolicy(options);
  if (!inner.ok()) return inner.status();
  return std::unique_ptr<const FilterPolicy>(
      new DropLastKeyPolicy(*std::move(inner)));
}

}  // namespace fuzz
}  // namespace sstfilter
