#include "bench/db/prefix_section.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/db/lookups.h"
#include "bench/db/prefix_keys.h"
#include "bench/db/rocksdb_tree.h"
#include "bench/keys.h"
#include "rocksdb/iterator.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/version.h"

namespace sstfilter {
namespace bench {
namespace {

// Present prefixes sought before any timing: each must find exactly its
// keys.
constexpr uint64_t kCheckedPresentPrefixes = 2'000;
// Picks the checked groups: any odd constant.
constexpr uint64_t kCheckSalt = 0x9fb21c651e98df25ULL;

rocksdb::Options MakeOptions(const PrefixConfig& config) {
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = config.config.policy;
  table.whole_key_filtering = config.holds != PrefixFilter::kPrefixes;
  rocksdb::Options options =
      RocksDbTreeOptions(table, kDefaultRocksDbTableBytes);
  options.prefix_extractor.reset(
      rocksdb::NewFixedPrefixTransform(kPrefixBytes));
  return options;
}

// Default ReadOptions (prefix mode: total_order_seek is off), and no filling
// of the block cache.
rocksdb::ReadOptions SeekOptions() {
  rocksdb::ReadOptions read;
  read.fill_cache = false;
  return read;
}

bool HasPrefix(const rocksdb::Iterator& it, absl::string_view prefix) {
  return it.Valid() &&
         it.key().starts_with(rocksdb::Slice(prefix.data(), prefix.size()));
}

class PrefixSeekDb final : public SectionDb {
 public:
  using SectionDb::SectionDb;

  // Seeks to prefix; found when the iterator lands on a key with it.
  bool Lookup(absl::string_view prefix) override {
    std::unique_ptr<rocksdb::Iterator> it(
        tree().db()->NewIterator(SeekOptions()));
    it->Seek(rocksdb::Slice(prefix.data(), prefix.size()));
    if (!it->Valid() && !it->status().ok()) CountError();
    return HasPrefix(*it, prefix);
  }

  // Keys with prefix, read through a seek in prefix mode and Next.
  absl::StatusOr<uint64_t> CountKeys(absl::string_view prefix) {
    std::unique_ptr<rocksdb::Iterator> it(
        tree().db()->NewIterator(SeekOptions()));
    uint64_t keys = 0;
    for (it->Seek(rocksdb::Slice(prefix.data(), prefix.size()));
         HasPrefix(*it, prefix); it->Next()) {
      ++keys;
    }
    absl::Status status = FromRocksDb(it->status(), "seek");
    if (!status.ok()) return status;
    return keys;
  }
};

absl::Status CheckPresentPrefixes(const DbShape& shape, PrefixSeekDb* db) {
  const uint64_t groups = PrefixGroups(shape.keys);
  char prefix[kMaxKeyBytes];
  for (uint64_t i = 0; i < kCheckedPresentPrefixes; ++i) {
    const uint64_t group = Mix64(i ^ kCheckSalt) % groups;
    const size_t len = GroupPrefix(group, prefix);
    absl::StatusOr<uint64_t> keys =
        db->CountKeys(absl::string_view(prefix, len));
    if (!keys.ok()) return keys.status();
    if (*keys != KeysWithPrefix(group, shape.keys)) {
      return absl::InternalError(absl::StrFormat(
          "%s: a seek to the prefix of group %d found %d keys, want %d",
          db->result.config, group, *keys, KeysWithPrefix(group, shape.keys)));
    }
  }
  return absl::OkStatus();
}

}  // namespace

const char* PrefixFilterName(PrefixFilter holds) {
  switch (holds) {
    case PrefixFilter::kNone:
      return "none";
    case PrefixFilter::kPrefixes:
      return "prefixes";
    case PrefixFilter::kWholeKeysAndPrefixes:
      return "keys+prefixes";
  }
  return "?";
}

std::vector<PrefixConfig> PrefixConfigs(const DbConfigs& configs) {
  std::vector<PrefixConfig> prefix;
  prefix.push_back(
      {{kNoFilterConfig, "no filter", nullptr}, PrefixFilter::kNone});
  for (const PrefixFilter holds :
       {PrefixFilter::kPrefixes, PrefixFilter::kWholeKeysAndPrefixes}) {
    for (const RocksDbConfig& config : configs.section_policies) {
      if (config.name != kUniformConfig && config.name != kRocksDbBloomConfig) {
        continue;
      }
      prefix.push_back({config, holds});
    }
  }
  return prefix;
}

absl::StatusOr<std::vector<PrefixResult>> RunPrefixSection(
    const std::vector<PrefixConfig>& configs, const DbShape& shape,
    const Progress& progress) {
  std::vector<std::unique_ptr<PrefixSeekDb>> dbs;
  std::vector<SectionDb*> probed;
  for (const PrefixConfig& config : configs) {
    DbResult built;
    absl::StatusOr<std::unique_ptr<RocksDbTree>> tree = RocksDbTree::Build(
        {config.config.name, config.config.filter, PrefixedKey,
         MakeOptions(config), MakeOptions(config), /*one_level=*/true,
         PrefixFilterName(config.holds)},
        shape, progress, &built);
    if (!tree.ok()) return tree.status();
    dbs.push_back(std::make_unique<PrefixSeekDb>(*std::move(tree)));
    dbs.back()->result = std::move(built);
    absl::Status status = CheckPresentPrefixes(shape, dbs.back().get());
    if (!status.ok()) return status;
    probed.push_back(dbs.back().get());
  }
  // A seek's filter checks: RocksDB 7.8 counts them with point lookups';
  // RocksDB 9 counts them apart, by level, a "no" as FILTERED and a "maybe"
  // as FILTER_MATCH.
#if ROCKSDB_MAJOR >= 9
  const std::vector<rocksdb::Tickers> tickers = {
      rocksdb::LAST_LEVEL_SEEK_FILTERED, rocksdb::NON_LAST_LEVEL_SEEK_FILTERED,
      rocksdb::LAST_LEVEL_SEEK_FILTER_MATCH,
      rocksdb::NON_LAST_LEVEL_SEEK_FILTER_MATCH};
  auto useful = [](const ProbeFigures& f) {
    return f.tickers[0] + f.tickers[1];
  };
  auto checked = [&](const ProbeFigures& f) {
    return useful(f) + f.tickers[2] + f.tickers[3];
  };
#else
  const std::vector<rocksdb::Tickers> tickers = {
      rocksdb::BLOOM_FILTER_PREFIX_CHECKED,
      rocksdb::BLOOM_FILTER_PREFIX_USEFUL};
  auto checked = [](const ProbeFigures& f) { return f.tickers[0]; };
  auto useful = [](const ProbeFigures& f) { return f.tickers[1]; };
#endif
  absl::StatusOr<std::vector<ProbeFigures>> figures =
      MeasureAbsentProbes(AbsentPrefix, tickers, shape, probed, progress);
  if (!figures.ok()) return figures.status();
  std::vector<PrefixResult> results;
  for (size_t i = 0; i < dbs.size(); ++i) {
    PrefixResult result;
    result.built = dbs[i]->result;
    result.holds = configs[i].holds;
    result.absent = (*figures)[i];
    result.prefix_checked = checked(result.absent);
    result.prefix_useful = useful(result.absent);
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace bench
}  // namespace sstfilter
