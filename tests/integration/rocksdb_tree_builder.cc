#include "tests/integration/rocksdb_tree_builder.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"

namespace sstfilter {
namespace test {
namespace {

constexpr char kLevelProperty[] = "sstfilter.test.level_at_creation";

class LevelRecorder final : public rocksdb::TablePropertiesCollector {
 public:
  explicit LevelRecorder(int level) : level_(level) {}
  rocksdb::Status AddUserKey(const rocksdb::Slice&, const rocksdb::Slice&,
                             rocksdb::EntryType, rocksdb::SequenceNumber,
                             uint64_t) override {
    return rocksdb::Status::OK();
  }
  rocksdb::Status Finish(rocksdb::UserCollectedProperties* out) override {
    (*out)[kLevelProperty] = absl::StrCat(level_);
    return rocksdb::Status::OK();
  }
  rocksdb::UserCollectedProperties GetReadableProperties() const override {
    return {{kLevelProperty, absl::StrCat(level_)}};
  }
  const char* Name() const override { return "LevelRecorder"; }

 private:
  const int level_;
};

class LevelRecorderFactory final
    : public rocksdb::TablePropertiesCollectorFactory {
 public:
  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context context) override {
    return new LevelRecorder(context.level_at_creation);
  }
  const char* Name() const override { return "LevelRecorderFactory"; }
};

}  // namespace

std::vector<TreeLevel> ModelTree(absl::Span<const LevelBatch> batches,
                                 int num_levels) {
  std::vector<TreeLevel> tree(num_levels, TreeLevel{0, 0});
  for (const LevelBatch& batch : batches) {
    tree[batch.level].keys += batch.keys;
    ++tree[batch.level].runs;
  }
  return tree;
}

rocksdb::Options TreeOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy, int num_levels) {
  rocksdb::Options options = CountingOptions(std::move(policy));
  options.num_levels = num_levels;
  options.disable_auto_compactions = true;
  options.table_properties_collector_factories.push_back(
      std::make_shared<LevelRecorderFactory>());
  return options;
}

absl::Status BuildTree(const rocksdb::Options& options, const std::string& dir,
                       const std::vector<Entry>& entries,
                       absl::Span<const LevelBatch> batches,
                       uint64_t table_bytes) {
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(options, dir);
  if (!db.ok()) return db.status();
  auto next = entries.begin();
  for (const LevelBatch& batch : batches) {
    const std::vector<Entry> slice(next, next + batch.keys);
    next += batch.keys;
    absl::Status s = PutAll(db->get(), slice);
    if (s.ok()) {
      s = FromRocksDb((*db)->Flush(rocksdb::FlushOptions()), "Flush");
    }
    if (!s.ok()) return s;
    if (batch.level == 0) continue;
    std::vector<rocksdb::LiveFileMetaData> files;
    (*db)->GetLiveFilesMetaData(&files);
    std::vector<std::string> level0;
    for (const rocksdb::LiveFileMetaData& file : files) {
      if (file.level == 0) level0.push_back(file.name);
    }
    rocksdb::CompactionOptions compaction;
    compaction.compression = rocksdb::kNoCompression;
    compaction.output_file_size_limit = table_bytes;
    s = FromRocksDb((*db)->CompactFiles(compaction, level0, batch.level),
                    absl::StrCat("CompactFiles to L", batch.level));
    if (!s.ok()) return s;
  }
  return FromRocksDb((*db)->Close(), "Close");
}

int LevelWrittenAt(const rocksdb::TableProperties& table) {
  const auto level = table.user_collected_properties.find(kLevelProperty);
  int written_at = -1;
  if (level == table.user_collected_properties.end() ||
      !absl::SimpleAtoi(level->second, &written_at)) {
    return -1;
  }
  return written_at;
}

}  // namespace test
}  // namespace sstfilter
