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
#include "table/testing/real_tables.h"
#include "table/testing/table_assembler.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {
namespace {

constexpr size_t kCodeBytes = 8;         // bytes of a key in its code
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

uint64_t CodeOf(absl::string_view key) {
  uint64_t code = 0;
  for (size_t i = 0; i < kCodeBytes; ++i) {
    code = code << 8 | (i < key.size() ? static_cast<uint8_t>(key[i]) : 0);
  }
  return code;
}

std::vector<EmptyRange> EmptyCodeRanges(const std::vector<std::string>& keys,
                                        size_t n, uint64_t max_codes,
                                        uint64_t seed) {
  std::vector<uint64_t> codes;
  for (const std::string& key : keys) codes.push_back(CodeOf(key));
  Random rng(seed);
  // Ranges that start at one place share their fate (a long one holds every
  // false positive of a shorter one), so the count of false positives would
  // vary far more than a Poisson margin allows: each key's code is a start
  // at most once, in random order (Fisher-Yates).
  std::vector<uint64_t> starts = codes;
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  for (size_t i = starts.size(); i > 1; --i) {
    std::swap(starts[i - 1], starts[rng.Uniform(i)]);
  }
  size_t next_start = 0;
  std::vector<EmptyRange> ranges;
  while (ranges.size() < n) {
    const bool after_key = rng.OneIn(2) && next_start < starts.size();
    const uint64_t first = after_key ? starts[next_start++] + 1 : rng.Next64();
    const uint64_t length = rng.Range(1, max_codes);
    if (first > UINT64_MAX - (length - 1)) continue;
    const uint64_t last = first + (length - 1);
    const auto it = std::lower_bound(codes.begin(), codes.end(), first);
    if (it != codes.end() && *it <= last) continue;  // holds a key's code
    ranges.push_back({first, last});
  }
  return ranges;
}

std::vector<std::string> MixedRangeKeys(size_t n, uint64_t seed) {
  Random rng(seed);
  std::vector<std::string> keys = RandomKeys(&rng, n / 4, 1, kCodeBytes - 1);
  for (std::string& key : RandomKeys(&rng, n / 2, kCodeBytes, 24)) {
    keys.push_back(std::move(key));
  }
  while (keys.size() < n) {
    const std::string code = rng.Bytes(kCodeBytes);
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
