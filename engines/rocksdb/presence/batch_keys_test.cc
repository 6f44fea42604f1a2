// VisibleKeysOf reads common batches from their bytes; on random batches of
// every record kind the WriteBatch API makes, it answers exactly as
// RocksDB's own reading of the batch does. (Bytes no WriteBatch call made
// are not tried: RocksDB's reading asserts on them, as its Write does.)

#include "engines/rocksdb/presence/batch_keys.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/version.h"
#include "rocksdb/wide_columns.h"
#include "rocksdb/write_batch.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace presence_internal {
namespace {

// A column family handle with an id and the bytewise comparator, all a
// WriteBatch asks of one.
class FakeHandle : public rocksdb::ColumnFamilyHandle {
 public:
  explicit FakeHandle(uint32_t id) : id_(id) {}
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return id_; }
  rocksdb::Status GetDescriptor(rocksdb::ColumnFamilyDescriptor*) override {
    return rocksdb::Status::NotSupported();
  }
  const rocksdb::Comparator* GetComparator() const override {
    return rocksdb::BytewiseComparator();
  }

 private:
  uint32_t id_;
  std::string name_ = "fake";
};

// Whether the two readings agree: status and keys.
void ExpectAgree(const rocksdb::WriteBatch& batch, const std::string& what) {
  BatchKeys fast;
  BatchKeys reference;
  const absl::Status fast_status = VisibleKeysOf(batch, &fast);
  const absl::Status reference_status =
      VisibleKeysThroughHandler(batch, &reference);
  ASSERT_EQ(fast_status, reference_status) << what;
  if (!reference_status.ok()) return;
  ASSERT_EQ(fast.keys.size(), reference.keys.size()) << what;
  for (size_t i = 0; i < fast.keys.size(); ++i) {
    ASSERT_EQ(fast.keys[i], reference.keys[i]) << what << ", key " << i;
    ASSERT_EQ(fast.column_family_ids[i], reference.column_family_ids[i])
        << what << ", key " << i;
  }
}

std::string RandomBytes(test::Random* rng, size_t most) {
  std::string bytes(rng->Uniform(most + 1), '\0');
  for (char& c : bytes) c = static_cast<char>(rng->Uniform(256));
  return bytes;
}

// A batch of n random records of every kind the WriteBatch API writes (with
// common_only, of the kinds VisibleKeysOf reads from the bytes), in the
// default column family and in others (ids past one byte of varint).
rocksdb::WriteBatch RandomBatch(test::Random* rng, int n, bool common_only,
                                std::vector<FakeHandle>* handles) {
  rocksdb::WriteBatch batch;
  for (int i = 0; i < n; ++i) {
    const std::string key = RandomBytes(rng, 40);
    const std::string value = RandomBytes(rng, 300);
    rocksdb::ColumnFamilyHandle* cf =
        rng->OneIn(2) ? nullptr : &(*handles)[rng->Uniform(handles->size())];
    const auto put_cf = [&](auto with_cf, auto without_cf) {
      rocksdb::Status status = cf != nullptr ? with_cf() : without_cf();
      EXPECT_TRUE(status.ok()) << status.ToString();
    };
    switch (rng->Uniform(common_only ? 6 : 9)) {
      case 0:
        put_cf([&] { return batch.Put(cf, key, value); },
               [&] { return batch.Put(key, value); });
        break;
      case 1:
        put_cf([&] { return batch.Merge(cf, key, value); },
               [&] { return batch.Merge(key, value); });
        break;
      case 2:
        put_cf([&] { return batch.Delete(cf, key); },
               [&] { return batch.Delete(key); });
        break;
      case 3:
        put_cf([&] { return batch.SingleDelete(cf, key); },
               [&] { return batch.SingleDelete(key); });
        break;
      case 4:
        put_cf([&] { return batch.DeleteRange(cf, key, value); },
               [&] { return batch.DeleteRange(key, value); });
        break;
      case 5: {
        const rocksdb::WideColumns columns{{"a", value}, {"b", key}};
        rocksdb::ColumnFamilyHandle* entity_cf =
            cf != nullptr ? cf : &(*handles)[0];
        EXPECT_TRUE(batch.PutEntity(entity_cf, key, columns).ok());
        break;
      }
      case 6:
        EXPECT_TRUE(batch.PutLogData(value).ok());  // read by RocksDB only
        break;
#if ROCKSDB_MAJOR >= 9
      case 7:
        put_cf([&] { return batch.TimedPut(cf, key, value, 12345); },
               [&] { return batch.TimedPut(nullptr, key, value, 12345); });
        break;
#endif
      default:
        put_cf([&] { return batch.Put(cf, key, value); },
               [&] { return batch.Put(key, value); });
        break;
    }
  }
  return batch;
}

TEST(BatchKeysTest, BothReadingsAgreeOnRandomBatches) {
  test::Random rng(20261128);
  std::vector<FakeHandle> handles;
  for (uint32_t id : {0u, 1u, 2u, 127u, 128u, 300u, 70000u}) {
    handles.emplace_back(id);
  }
  for (int b = 0; b < 400; ++b) {
    const int records = static_cast<int>(rng.Uniform(12));
    rocksdb::WriteBatch batch =
        RandomBatch(&rng, records, /*common_only=*/b % 2 == 0, &handles);
    ExpectAgree(batch, absl::StrCat("batch ", b));
  }
}

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
