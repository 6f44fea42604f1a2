#include "table/range_test_tables.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "table/filter_block.h"
#include "table/meta_blocks.h"
#include "table/range_filter_key.h"
#include "tests/testing/random.h"
#include "tests/testing/real_tables.h"
#include "tests/testing/table_assembler.h"

namespace sstfilter {
namespace test {
namespace {

constexpr size_t kKeysPerCodeGroup = 4;  // keys sharing their first 8 bytes
constexpr int kRocksDbBloomBitsPerKey = 10;

// Builds the range filter of a table's keys at Finish and stores it as a
// user property, as a RocksDB properties collector for range filters does.
class RangeFilterCollector final : public rocksdb::TablePropertiesCollector {
 public:
  RangeFilterCollector(const FilterPolicy& policy,
                       void (*filter_edit)(std::string*))
      : policy_(policy), filter_edit_(filter_edit) {}

  rocksdb::Status AddUserKey(const rocksdb::Slice& key, const rocksdb::Slice&,
                             rocksdb::EntryType, rocksdb::SequenceNumber,
                             uint64_t) override {
    keys_.push_back(key.ToString());
    return rocksdb::Status::OK();
  }
  rocksdb::Status Finish(rocksdb::UserCollectedProperties* out) override {
    const std::vector<absl::string_view> views(keys_.begin(), keys_.end());
    std::string filter;
    policy_.CreateFilter(views, &filter);
    if (filter_edit_ != nullptr) filter_edit_(&filter);
    (*out)[RangeFilterKey(policy_.Name())] = std::move(filter);
    return rocksdb::Status::OK();
  }
  rocksdb::UserCollectedProperties GetReadableProperties() const override {
    return {};
  }
  const char* Name() const override { return "RangeFilterCollector"; }

 private:
  const FilterPolicy& policy_;
  void (*const filter_edit_)(std::string*);
  std::vector<std::string> keys_;
};

class RangeFilterCollectorFactory final
    : public rocksdb::TablePropertiesCollectorFactory {
 public:
  RangeFilterCollectorFactory(const FilterPolicy& policy,
                              void (*filter_edit)(std::string*))
      : policy_(policy), filter_edit_(filter_edit) {}
  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context) override {
    return new RangeFilterCollector(policy_, filter_edit_);
  }
  const char* Name() const override { return "RangeFilterCollectorFactory"; }

 private:
  const FilterPolicy& policy_;
  void (*const filter_edit_)(std::string*);
};

}  // namespace

std::vector<std::string> MixedRangeKeys(size_t n, uint64_t seed) {
  Random rng(seed);
  std::vector<std::string> keys = RandomKeys(&rng, n / 4, 1, 7);
  for (std::string& key : RandomKeys(&rng, n / 2, 8, 24)) {
    keys.push_back(std::move(key));
  }
  while (keys.size() < n) {
    const std::string code = rng.Bytes(8);
    for (size_t i = 0; i < kKeysPerCodeGroup; ++i) {
      keys.push_back(code + rng.Bytes(rng.Range(1, 8)));
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::string AssembleRangeTable(const std::vector<std::string>& keys,
                               const FilterPolicy* point_policy,
                               const FilterPolicy* range_policy) {
  TableAssembler table;
  table.AddFiller(1000);  // data blocks stand here
  if (point_policy != nullptr) {
    FullFilterBlockBuilder point(*point_policy);
    for (const std::string& key : keys) point.AddKey(key);
    table.AddMetaBlock(absl::StrCat(kFullFilterPrefix, point_policy->Name()),
                       table.AddBlock(point.Finish()));
  }
  if (range_policy != nullptr) table.AddRangeFilterBlock(*range_policy, keys);
  return table.Finish();
}

absl::Status WriteRocksDbRangeTable(const std::string& path,
                                    const std::vector<std::string>& keys,
                                    const FilterPolicy& range_policy,
                                    void (*filter_edit)(std::string* filter)) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy.reset(
      rocksdb::NewBloomFilterPolicy(kRocksDbBloomBitsPerKey));
  rocksdb::Options options;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  options.table_properties_collector_factories.push_back(
      std::make_shared<RangeFilterCollectorFactory>(range_policy, filter_edit));
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status s = writer.Open(path);
  for (size_t i = 0; s.ok() && i < keys.size(); ++i) {
    s = writer.Put(keys[i], ValueOf(keys[i]));
  }
  if (s.ok()) s = writer.Finish();
  if (!s.ok()) return absl::InternalError(s.ToString());
  return absl::OkStatus();
}

}  // namespace test
}  // namespace sstfilter
