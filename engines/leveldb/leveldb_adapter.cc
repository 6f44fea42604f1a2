#include "engines/leveldb/leveldb_adapter.h"

#include <cassert>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "filter/filter_spec.h"
#include "leveldb/slice.h"

namespace sstfilter {
namespace {

absl::string_view View(const leveldb::Slice& s) {
  return absl::string_view(s.data(), s.size());
}

class LevelDbFilterPolicy : public leveldb::FilterPolicy {
 public:
  explicit LevelDbFilterPolicy(
      std::shared_ptr<const sstfilter::FilterPolicy> policy)
      : policy_(std::move(policy)) {}

  const char* Name() const override { return policy_->Name(); }

  // Feeds LevelDB's slices to a builder one by one, rather than through
  // FilterPolicy::CreateFilter, which would first copy them into an array of
  // string_views.
  void CreateFilter(const leveldb::Slice* keys, int n,
                    std::string* dst) const override {
    std::unique_ptr<FilterBuilder> builder = policy_->NewBuilder();
    for (int i = 0; i < n; ++i) builder->AddKey(View(keys[i]));
    builder->Finish(dst);
  }

  // No reader is cached between calls: LevelDB frees a table's filter when it
  // evicts the table, so a cache keyed by the filter's address could answer
  // from a freed filter whose address was reused.
  bool KeyMayMatch(const leveldb::Slice& key,
                   const leveldb::Slice& filter) const override {
    return policy_->KeyMayMatch(View(key), View(filter));
  }

 private:
  const std::shared_ptr<const sstfilter::FilterPolicy> policy_;
};

}  // namespace

std::unique_ptr<leveldb::FilterPolicy> AsLevelDbFilterPolicy(
    std::shared_ptr<const FilterPolicy> policy) {
  assert(policy != nullptr);
  return std::make_unique<LevelDbFilterPolicy>(std::move(policy));
}

absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>> AsLevelDbFilterPolicy(
    absl::string_view spec) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewFilterPolicyFromString(spec);
  if (!policy.ok()) return policy.status();
  return AsLevelDbFilterPolicy(
      std::shared_ptr<const FilterPolicy>(*std::move(policy)));
}

}  // namespace sstfilter
