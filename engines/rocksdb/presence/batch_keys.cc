#include "engines/rocksdb/presence/batch_keys.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "rocksdb/version.h"
#include "util/coding.h"

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

// The record tags of a batch's bytes that ReadCommonRecords reads: RocksDB's
// ValueType (db/dbformat.h), the same in 7.8.3 and 9.7.4, whose batch layout
// db/write_batch.cc describes: a 12-byte header (sequence number, record
// count), then per record its tag, a varint32 column family id for the
// kCf tags, and the key and (for two-string records) the value, each a
// varint32 length and its bytes.
enum RecordTag : uint8_t {
  kDeletion = 0x0,
  kValue = 0x1,
  kMerge = 0x2,
  kCfDeletion = 0x4,
  kCfValue = 0x5,
  kCfMerge = 0x6,
  kSingleDeletion = 0x7,
  kCfSingleDeletion = 0x8,
  kCfRangeDeletion = 0xE,
  kRangeDeletion = 0xF,
  kEntity = 0x16,
  kCfEntity = 0x17,
};
constexpr size_t kBatchHeaderBytes = 12;
constexpr size_t kCountOffset = 8;  // after the sequence number

bool GetLengthPrefixed(absl::string_view* input, absl::string_view* bytes) {
  uint32_t length = 0;
  if (!GetVarint32(input, &length) || length > input->size()) return false;
  *bytes = input->substr(0, length);
  input->remove_prefix(length);
  return true;
}

// The visible keys of a batch whose records are all of the common kinds
// above, read from its bytes without a call per record. False when a record
// is of another kind or the bytes do not parse (keys then holds anything):
// the caller asks RocksDB's own reading, which knows every kind.
bool ReadCommonRecords(absl::string_view rep, BatchKeys* keys) {
  if (rep.size() < kBatchHeaderBytes) return false;
  const uint32_t count = DecodeFixed32(rep.data() + kCountOffset);
  rep.remove_prefix(kBatchHeaderBytes);
  uint32_t records = 0;
  while (!rep.empty()) {
    const uint8_t tag = static_cast<uint8_t>(rep[0]);
    rep.remove_prefix(1);
    uint32_t column_family = 0;
    bool visible = false;
    bool has_value = false;
    switch (tag) {
      case kCfValue:
      case kCfMerge:
      case kCfEntity:
        if (!GetVarint32(&rep, &column_family)) return false;
        [[fallthrough]];
      case kValue:
      case kMerge:
      case kEntity:
        visible = true;
        has_value = true;
        break;
      case kCfRangeDeletion:
        if (!GetVarint32(&rep, &column_family)) return false;
        [[fallthrough]];
      case kRangeDeletion:
        has_value = true;  // the range's end
        break;
      case kCfDeletion:
      case kCfSingleDeletion:
        if (!GetVarint32(&rep, &column_family)) return false;
        [[fallthrough]];
      case kDeletion:
      case kSingleDeletion:
        break;
      default:
        return false;
    }
    absl::string_view key;
    absl::string_view value;
    if (!GetLengthPrefixed(&rep, &key) ||
        (has_value && !GetLengthPrefixed(&rep, &value))) {
      return false;
    }
    if (visible) {
      keys->column_family_ids.push_back(column_family);
      keys->keys.push_back(key);
    }
    ++records;
  }
  return records == count;
}

}  // namespace

absl::Status VisibleKeysOf(const rocksdb::WriteBatch& batch, BatchKeys* keys) {
  keys->column_family_ids.clear();
  keys->keys.clear();
  const std::string& rep = batch.Data();
  if (rep.size() >= kBatchHeaderBytes) {
    // Every record of most batches makes a key visible. A record takes at
    // least two bytes: a count past that is damage, and must not size an
    // allocation.
    const size_t records = std::min<size_t>(
        DecodeFixed32(rep.data() + kCountOffset), rep.size() / 2);
    keys->column_family_ids.reserve(records);
    keys->keys.reserve(records);
    if (ReadCommonRecords(rep, keys)) return absl::OkStatus();
  }
  return VisibleKeysThroughHandler(batch, keys);
}

absl::Status VisibleKeysThroughHandler(const rocksdb::WriteBatch& batch,
                                       BatchKeys* keys) {
  keys->column_family_ids.clear();
  keys->keys.clear();
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
