#include "tests/integration/rocksdb_db_util.h"

#include <algorithm>
#include <filesystem>
#include <unordered_set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/metadata.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "table/table_filter.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {
namespace {

constexpr size_t kKeyBytes = 16;

void Record(const rocksdb::Status& s, const std::string& got,
            const Entry& entry, GetOutcomes* outcomes) {
  if (s.ok() && got == entry.value) {
    ++outcomes->found;
    return;
  }
  if (s.IsCorruption()) {
    ++outcomes->corruption;
    return;
  }
  if (s.IsNotFound()) {
    ++outcomes->not_found;
  } else {
    ++outcomes->wrong;
  }
  if (outcomes->first_failure.empty()) {
    outcomes->first_failure =
        absl::StrCat(s.ToString(), " for the key of value ", entry.value);
  }
}

class CountingReader final : public FilterReader {
 public:
  CountingReader(std::unique_ptr<FilterReader> inner,
                 std::shared_ptr<MayMatchCalls> calls)
      : inner_(std::move(inner)), calls_(std::move(calls)) {}

  bool MayMatch(absl::string_view key) const override {
    calls_->single.fetch_add(1, std::memory_order_relaxed);
    return inner_->MayMatch(key);
  }
  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    calls_->batches.fetch_add(1, std::memory_order_relaxed);
    calls_->batched_keys.fetch_add(keys.size(), std::memory_order_relaxed);
    inner_->MayMatch(keys, results);
  }
  double ExpectedFpp() const override { return inner_->ExpectedFpp(); }

 private:
  const std::unique_ptr<FilterReader> inner_;
  const std::shared_ptr<MayMatchCalls> calls_;
};

class CountingPolicyImpl final : public FilterPolicy {
 public:
  CountingPolicyImpl(std::shared_ptr<const FilterPolicy> inner,
                     std::shared_ptr<MayMatchCalls> calls)
      : inner_(std::move(inner)), calls_(std::move(calls)) {}

  const FilterFormat& Format() const override { return inner_->Format(); }
  double BitsPerKey() const override { return inner_->BitsPerKey(); }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return inner_->NewBuilder();
  }
  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    return std::make_unique<CountingReader>(inner_->NewReader(filter), calls_);
  }

 private:
  const std::shared_ptr<const FilterPolicy> inner_;
  const std::shared_ptr<MayMatchCalls> calls_;
};

}  // namespace

std::vector<Entry> RandomEntries(size_t n, size_t value_bytes, uint64_t seed) {
  Random rng(seed);
  std::unordered_set<std::string> seen;
  std::vector<Entry> entries;
  entries.reserve(n);
  while (entries.size() < n) {
    std::string key = rng.Bytes(kKeyBytes);
    if (!seen.insert(key).second) continue;
    std::string value = absl::StrCat("value", entries.size(), "-");
    value.resize(std::max(value_bytes, value.size()), 'v');
    entries.push_back({std::move(key), std::move(value)});
  }
  return entries;
}

std::vector<std::string> AbsentKeys(size_t n, uint64_t seed,
                                    const std::vector<Entry>& entries) {
  std::unordered_set<std::string> taken;
  for (const Entry& entry : entries) taken.insert(entry.key);
  Random rng(seed);
  std::vector<std::string> keys;
  keys.reserve(n);
  while (keys.size() < n) {
    std::string key = rng.Bytes(kKeyBytes);
    if (taken.insert(key).second) keys.push_back(std::move(key));
  }
  return keys;
}

rocksdb::BlockBasedTableOptions CountingTableOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> filter_policy) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = std::move(filter_policy);
  table_options.block_cache = rocksdb::NewLRUCache(0);
  table_options.cache_index_and_filter_blocks = false;
  table_options.index_shortening =
      rocksdb::BlockBasedTableOptions::IndexShorteningMode::kNoShortening;
  return table_options;
}

rocksdb::Options CountingOptions(
    const rocksdb::BlockBasedTableOptions& table_options) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  options.compression = rocksdb::kNoCompression;
  options.max_open_files = -1;
  options.statistics = rocksdb::CreateDBStatistics();
  return options;
}

rocksdb::Options CountingOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> filter_policy) {
  return CountingOptions(CountingTableOptions(std::move(filter_policy)));
}

absl::StatusOr<std::unique_ptr<rocksdb::DB>> OpenDb(
    const rocksdb::Options& options, const std::string& path) {
  rocksdb::DB* raw = nullptr;
  absl::Status s = FromRocksDb(rocksdb::DB::Open(options, path, &raw),
                               absl::StrCat("DB::Open ", path));
  if (!s.ok()) return s;
  return std::unique_ptr<rocksdb::DB>(raw);
}

absl::Status PutAll(rocksdb::DB* db, const std::vector<Entry>& entries) {
  return bench::WriteRocksDbBatches(
      db, entries.size(), [&](uint64_t i, rocksdb::WriteBatch* batch) {
        batch->Put(entries[i].key, entries[i].value);
      });
}

absl::Status WriteFlushAndCompact(const rocksdb::Options& options,
                                  const std::string& dir,
                                  const std::vector<Entry>& entries) {
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(options, dir);
  if (!db.ok()) return db.status();
  absl::Status s = PutAll(db->get(), entries);
  if (s.ok()) s = FromRocksDb((*db)->Flush(rocksdb::FlushOptions()), "Flush");
  if (s.ok()) {
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction =
        rocksdb::BottommostLevelCompaction::kForce;
    s = FromRocksDb((*db)->CompactRange(compact, nullptr, nullptr),
                    "CompactRange");
  }
  if (s.ok()) s = FromRocksDb((*db)->Close(), "Close");
  return s;
}

void ExpectEveryKeyFound(const GetOutcomes& got, size_t n, const char* how) {
  EXPECT_EQ(got.found, n) << how << ": " << got.first_failure;
  EXPECT_EQ(got.not_found, 0u) << how;
  EXPECT_EQ(got.corruption, 0u) << how;
  EXPECT_EQ(got.wrong, 0u) << how;
}

GetOutcomes GetAll(rocksdb::DB* db, const std::vector<Entry>& entries) {
  GetOutcomes outcomes;
  std::string value;
  for (const Entry& entry : entries) {
    const rocksdb::Status s =
        db->Get(rocksdb::ReadOptions(), entry.key, &value);
    Record(s, value, entry, &outcomes);
  }
  return outcomes;
}

namespace {

// Looks up n keys with MultiGet, batch_keys a call, and hands each result to
// visit(i, status, value).
template <typename Key, typename Visit>
void MultiGetInBatches(rocksdb::DB* db, size_t n, size_t batch_keys, Key key,
                       Visit visit) {
  std::vector<rocksdb::Slice> keys(batch_keys);
  std::vector<rocksdb::PinnableSlice> values(batch_keys);
  std::vector<rocksdb::Status> statuses(batch_keys);
  for (size_t start = 0; start < n; start += batch_keys) {
    const size_t count = std::min(batch_keys, n - start);
    for (size_t i = 0; i < count; ++i) {
      keys[i] = key(start + i);
      values[i].Reset();
    }
    db->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(), count,
                 keys.data(), values.data(), statuses.data());
    for (size_t i = 0; i < count; ++i) visit(start + i, statuses[i], values[i]);
  }
}

}  // namespace

GetOutcomes MultiGetAll(rocksdb::DB* db, const std::vector<Entry>& entries,
                        size_t batch_keys) {
  GetOutcomes outcomes;
  MultiGetInBatches(
      db, entries.size(), batch_keys,
      [&](size_t i) { return rocksdb::Slice(entries[i].key); },
      [&](size_t i, const rocksdb::Status& s,
          const rocksdb::PinnableSlice& value) {
        Record(s, value.ToString(), entries[i], &outcomes);
      });
  return outcomes;
}

size_t GetAbsent(rocksdb::DB* db, const std::vector<std::string>& keys) {
  size_t unexpected = 0;
  std::string value;
  for (const std::string& key : keys) {
    if (!db->Get(rocksdb::ReadOptions(), key, &value).IsNotFound()) {
      ++unexpected;
    }
  }
  return unexpected;
}

size_t MultiGetAbsent(rocksdb::DB* db, const std::vector<std::string>& keys,
                      size_t batch_keys) {
  size_t unexpected = 0;
  MultiGetInBatches(
      db, keys.size(), batch_keys,
      [&](size_t i) { return rocksdb::Slice(keys[i]); },
      [&](size_t, const rocksdb::Status& s, const rocksdb::PinnableSlice&) {
        unexpected += !s.IsNotFound();
      });
  return unexpected;
}

uint64_t SeekFiltered(const rocksdb::Statistics& statistics) {
#if ROCKSDB_MAJOR >= 9
  return statistics.getTickerCount(rocksdb::LAST_LEVEL_SEEK_FILTERED) +
         statistics.getTickerCount(rocksdb::NON_LAST_LEVEL_SEEK_FILTERED);
#else
  (void)statistics;
  return 0;
#endif
}

uint64_t SeekFilterChecks(const rocksdb::Statistics& statistics) {
#if ROCKSDB_MAJOR >= 9
  return SeekFiltered(statistics) +
         statistics.getTickerCount(rocksdb::LAST_LEVEL_SEEK_FILTER_MATCH) +
         statistics.getTickerCount(rocksdb::NON_LAST_LEVEL_SEEK_FILTER_MATCH);
#else
  (void)statistics;
  return 0;
#endif
}

ReadTickers Tickers(const rocksdb::Statistics& statistics) {
  ReadTickers t;
  t.filter_useful = statistics.getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
  t.data_misses = statistics.getTickerCount(rocksdb::BLOCK_CACHE_DATA_MISS);
  t.data_hits = statistics.getTickerCount(rocksdb::BLOCK_CACHE_DATA_HIT);
  t.prefix_checked =
      statistics.getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_CHECKED);
  t.prefix_useful =
      statistics.getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_USEFUL) +
      SeekFiltered(statistics);
  t.prefix_checked += SeekFilterChecks(statistics);
  t.filter_misses = statistics.getTickerCount(rocksdb::BLOCK_CACHE_FILTER_MISS);
  t.filter_hits = statistics.getTickerCount(rocksdb::BLOCK_CACHE_FILTER_HIT);
  return t;
}

ReadTickers operator-(const ReadTickers& a, const ReadTickers& b) {
  ReadTickers d;
  d.filter_useful = a.filter_useful - b.filter_useful;
  d.data_misses = a.data_misses - b.data_misses;
  d.data_hits = a.data_hits - b.data_hits;
  d.prefix_checked = a.prefix_checked - b.prefix_checked;
  d.prefix_useful = a.prefix_useful - b.prefix_useful;
  d.filter_misses = a.filter_misses - b.filter_misses;
  d.filter_hits = a.filter_hits - b.filter_hits;
  return d;
}

size_t KeysInTableRanges(rocksdb::DB* db,
                         const std::vector<std::string>& keys) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  size_t in_range = 0;
  for (const std::string& key : keys) {
    in_range += std::any_of(
        files.begin(), files.end(), [&key](const rocksdb::LiveFileMetaData& f) {
          return f.smallestkey <= key && key <= f.largestkey;
        });
  }
  return in_range;
}

size_t SeeksReachingATable(rocksdb::DB* db,
                           const std::vector<std::string>& targets) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::string largest;
  for (const rocksdb::LiveFileMetaData& f : files) {
    largest = std::max(largest, f.largestkey);
  }
  return std::count_if(
      targets.begin(), targets.end(),
      [&](const std::string& target) { return target <= largest; });
}

std::vector<std::string> TableFiles(const std::string& dir) {
  std::vector<std::string> tables;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".sst") tables.push_back(entry.path());
  }
  std::sort(tables.begin(), tables.end());
  return tables;
}

absl::StatusOr<double> TableExpectedFpp(const std::string& path) {
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  if (!table.ok()) return table.status();
  if ((*table)->format() == nullptr) return 1.0;
  return (*table)->format()->ExpectedFpp((*table)->filter_block_contents());
}

std::shared_ptr<const FilterPolicy> CountingPolicy(
    std::shared_ptr<const FilterPolicy> inner,
    std::shared_ptr<MayMatchCalls> calls) {
  return std::make_shared<CountingPolicyImpl>(std::move(inner),
                                              std::move(calls));
}

}  // namespace test
}  // namespace sstfilter
