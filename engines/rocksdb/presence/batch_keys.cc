#include "engines/rocksdb/presence/batch_keys.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace presence_internal {
namespace {

class VisibleKeys : public rocksdb::WriteBatch::Handler {
 public:
  explicit VisibleKeys(BatchKeys* keys) : keys_(keys) {}

  rocksdb::Status PutCF(uint32_t id, const rocksdb::Slice& key,
                        const rocksdb::Slice&) override {
    return Visible(id, key);
  }
#if ROCKSDB_MAJOR >= 9
  rocksdb::Status TimedPutCF(uint32_t id, const rocksdb::Slice& key,
                             const rocksdb::Slice&, uint64_t) override {
    return Visible(id, key);
  }
#endif
  rocksdb::Status PutEntityCF(uint32_t id, const rocksdb::Slice& key,
                              const rocksdb::Slice&) override {
    return Visible(id, key);
  }
  rocksdb::Status MergeCF(uint32_t id, const rocksdb::Slice& key,
                          const rocksdb::Slice&) override {
    return Visible(id, key);
  }
  rocksdb::Status DeleteCF(uint32_t, const rocksdb::Slice&) override {
    return rocksdb::Status::OK();
  }
  rocksdb::Status SingleDeleteCF(uint32_t, const rocksdb::Slice&) override {
    return rocksdb::Status::OK();
  }
  rocksdb::Status DeleteRangeCF(uint32_t, const rocksdb::Slice&,
                                const rocksdb::Slice&) override {
    return rocksdb::Status::OK();
  }
  // Every other record (blob indexes, transaction markers) keeps the
  // Handler's default, which fails the iteration: such a batch is refused.

 private:
  rocksdb::Status Visible(uint32_t id, const rocksdb::Slice& key) {
    keys_->column_family_ids.push_back(id);
    keys_->keys.push_back(absl::string_view(key.data(), key.size()));
    return rocksdb::Status::OK();
  }

  BatchKeys* keys_;
};

}  // namespace

absl::Status VisibleKeysOf(const rocksdb::WriteBatch& batch, BatchKeys* keys) {
  keys->column_family_ids.clear();
  keys->keys.clear();
  // Every record of most batches makes a key visible.
  const size_t records = static_cast<size_t>(batch.Count());
  keys->column_family_ids.reserve(records);
  keys->keys.reserve(records);
  VisibleKeys handler(keys);
  rocksdb::Status status = batch.Iterate(&handler);
  if (status.ok()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "the write batch holds a record the presence filter cannot account "
      "for: ",
      status.ToString()));
}

}  // namespace presence_internal
}  // namespace sstfilter
