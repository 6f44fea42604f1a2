#include "bench/db/no_match_range_collector.h"

#include <utility>

namespace sstfilter {
namespace bench {
namespace {

class NoKeysCollector final : public rocksdb::TablePropertiesCollector {
 public:
  explicit NoKeysCollector(rocksdb::TablePropertiesCollector* inner)
      : inner_(inner) {}

  rocksdb::Status AddUserKey(const rocksdb::Slice& /*key*/,
                             const rocksdb::Slice& /*value*/,
                             rocksdb::EntryType /*type*/,
                             rocksdb::SequenceNumber /*seq*/,
                             uint64_t /*file_size*/) override {
    return rocksdb::Status::OK();
  }
  rocksdb::Status Finish(
      rocksdb::UserCollectedProperties* properties) override {
    return inner_->Finish(properties);
  }
  rocksdb::UserCollectedProperties GetReadableProperties() const override {
    return inner_->GetReadableProperties();
  }
  const char* Name() const override { return inner_->Name(); }

 private:
  const std::unique_ptr<rocksdb::TablePropertiesCollector> inner_;
};

class NoKeysCollectorFactory final
    : public rocksdb::TablePropertiesCollectorFactory {
 public:
  explicit NoKeysCollectorFactory(
      std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> inner)
      : inner_(std::move(inner)) {}

  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context context) override {
    return new NoKeysCollector(inner_->CreateTablePropertiesCollector(context));
  }
  const char* Name() const override { return inner_->Name(); }

 private:
  const std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> inner_;
};

}  // namespace

std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>
NewNoMatchRangeCollectorFactory(
    std::shared_ptr<rocksdb::TablePropertiesCollectorFactory> inner) {
  return std::make_shared<NoKeysCollectorFactory>(std::move(inner));
}

}  // namespace bench
}  // namespace sstfilter
