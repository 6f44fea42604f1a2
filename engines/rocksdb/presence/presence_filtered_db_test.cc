// PresenceFilteredDB on real RocksDB databases in fresh directories: lookups
// it rules out never reach RocksDB (its statistics count every Get that
// does), and every key written by any covered path is found after every kind
// of reopening: a saved close, a close without a save, a damaged or foreign
// saved file, a plain RocksDB open in between, ingestion, and rebuilds.

#include "engines/rocksdb/presence/presence_filtered_db.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/presence_testing.h"
#include "gtest/gtest.h"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "rocksdb/version.h"
#include "rocksdb/write_batch.h"
#include "table/testing/real_tables.h"

#if ROCKSDB_MAJOR < 8
namespace rocksdb {
// RocksDB 7's library exports its timestamp-aware comparator (keys carry a
// fixed64 timestamp after them) without declaring it in a public header.
const Comparator* BytewiseComparatorWithU64Ts();
}  // namespace rocksdb
#endif

namespace sstfilter {
namespace {

using presence_testing::AppendOperator;
using presence_testing::SmallFilter;
using test::TempDir;

constexpr std::chrono::milliseconds kWait = presence_testing::kServingWait;

std::string Key(int i) { return absl::StrCat("key-", i); }
std::string AbsentKey(int i) { return absl::StrCat("absent-", i); }
std::string Value(const std::string& key) { return "v" + key; }

rocksdb::Options BaseOptions() {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  options.merge_operator = std::make_shared<AppendOperator>();
  return options;
}

std::unique_ptr<PresenceFilteredDB> OpenServing(
    const std::string& path, const rocksdb::Options& options = BaseOptions(),
    const PresenceFilterOptions& filter_options = SmallFilter()) {
  return presence_testing::OpenServing(path, options, filter_options);
}

uint64_t GetsThatReachedRocksDb(rocksdb::DB* db) {
  return db->GetOptions().statistics->getTickerCount(rocksdb::NUMBER_KEYS_READ);
}

void PutKeys(rocksdb::DB* db, int begin, int end) {
  for (int i = begin; i < end; ++i) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), Key(i), Value(Key(i))).ok());
  }
}

// Every key in [begin, end) reads back with its value.
void ExpectKeys(rocksdb::DB* db, int begin, int end) {
  int missing = 0;
  for (int i = begin; i < end; ++i) {
    std::string value;
    rocksdb::Status status = db->Get(rocksdb::ReadOptions(), Key(i), &value);
    if (!status.ok() || value != Value(Key(i))) ++missing;
  }
  EXPECT_EQ(missing, 0) << "of keys [" << begin << ", " << end << ")";
}

// How many of n absent keys the filter ruled out without a RocksDB read.
int RuledOut(rocksdb::DB* db, int n) {
  const uint64_t before = GetsThatReachedRocksDb(db);
  for (int i = 0; i < n; ++i) {
    std::string value;
    EXPECT_TRUE(
        db->Get(rocksdb::ReadOptions(), AbsentKey(i), &value).IsNotFound());
  }
  return n - static_cast<int>(GetsThatReachedRocksDb(db) - before);
}

void Corrupt(const std::string& path, size_t offset) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(offset);
  char byte = 0;
  file.get(byte);
  file.seekp(offset);
  file.put(static_cast<char>(byte ^ 0x10));
}

size_t FileSize(const std::string& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  return static_cast<size_t>(file.tellg());
}

TEST(PresenceFilterOptionsTest, InvalidOptionsAreRefusedNamingTheValue) {
  struct Case {
    PresenceFilterOptions options;
    const char* named;
  };
  std::vector<Case> cases(9);
  cases[0].options.fpp = 0;
  cases[0].named = "fpp";
  cases[1].options.fpp = 1.5;
  cases[1].named = "1.5";
  cases[2].options.fpp = std::nan("");
  cases[2].named = "nan";
  cases[3].options.expected_keys = 0;
  cases[3].named = "expected_keys";
  cases[4].options.rebuild_fpp_ratio = 1;
  cases[4].named = "rebuild_fpp_ratio";
  cases[5].options.fpp = 1e-40;
  cases[5].named = "1e-40";
  cases[6].options.save_interval = std::chrono::milliseconds(-1);
  cases[6].named = "save_interval";
  cases[7].options.table_bytes_per_saved_byte = -1;
  cases[7].named = "table_bytes_per_saved_byte";
  cases[8].options.table_bytes_per_saved_byte =
      std::numeric_limits<double>::infinity();
  cases[8].named = "inf";
  TempDir dir;
  for (const Case& c : cases) {
    absl::Status status = ValidatePresenceFilterOptions(c.options);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
    EXPECT_NE(status.message().find(c.named), std::string::npos) << status;
    absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> db =
        PresenceFilteredDB::Open(BaseOptions(), dir.path(), c.options);
    EXPECT_TRUE(absl::IsInvalidArgument(db.status())) << db.status();
  }
  EXPECT_TRUE(ValidatePresenceFilterOptions(PresenceFilterOptions()).ok());
}

TEST(PresenceFilteredDbTest,
     AbsentKeysNeverReachRocksDbAndPresentOnesAreFound) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  PutKeys(db.get(), 0, 2000);
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  PutKeys(db.get(), 2000, 3000);  // in the memtable
  ExpectKeys(db.get(), 0, 3000);
  EXPECT_EQ(db->State(db->DefaultColumnFamily()),
            PresenceFilterState::kServing);
  // 10000 expected keys at 1%: nearly every absent key is ruled out.
  EXPECT_GE(RuledOut(db.get(), 2000), 1900);

  std::string value;
  EXPECT_TRUE(db->KeyMayExist(rocksdb::ReadOptions(), Key(5), &value));
  int may_exist = 0;
  for (int i = 0; i < 1000; ++i) {
    may_exist += db->KeyMayExist(rocksdb::ReadOptions(), AbsentKey(i), &value);
  }
  EXPECT_LT(may_exist, 100);
}

TEST(PresenceFilteredDbTest, MultiGetAnswersEachKeyAsGetDoes) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  PutKeys(db.get(), 0, 500);
  for (size_t batch : {1, 7, 64, 65, 300}) {
    std::vector<std::string> keys;
    for (size_t i = 0; i < batch; ++i) {
      keys.push_back(i % 3 == 0 ? AbsentKey(static_cast<int>(i))
                                : Key(static_cast<int>(i)));
    }
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<rocksdb::PinnableSlice> values(batch);
    std::vector<rocksdb::Status> statuses(batch);
    db->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(), batch,
                 slices.data(), values.data(), statuses.data());
    for (size_t i = 0; i < batch; ++i) {
      if (i % 3 == 0) {
        EXPECT_TRUE(statuses[i].IsNotFound()) << keys[i];
      } else {
        EXPECT_TRUE(statuses[i].ok()) << keys[i] << statuses[i].ToString();
        EXPECT_EQ(values[i].ToString(), Value(keys[i]));
      }
    }
  }
}

// The default: a thread whose lookups are mostly of present keys probes one
// lookup in ProbeSampling::kSampleEvery, and probes every lookup again soon
// after absent keys come back. Answers never change.
TEST(PresenceFilteredDbTest, MostlyPresentLookupsSkipProbesUntilAbsentReturn) {
  TempDir dir;
  PresenceFilterOptions skipping = SmallFilter();
  skipping.skip_probes_when_mostly_present = true;
  std::unique_ptr<PresenceFilteredDB> db =
      OpenServing(dir.path(), BaseOptions(), skipping);
  ASSERT_NE(db, nullptr);
  PutKeys(db.get(), 0, 2000);
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  EXPECT_GE(RuledOut(db.get(), 500), 475) << "absent keys first: all probed";

  ExpectKeys(db.get(), 0, 2000);
  // The lookups just after: one in 16 probed, so most reach RocksDB.
  EXPECT_LE(RuledOut(db.get(), 64), 16);
  // Within a few hundred absent lookups every lookup probes again.
  RuledOut(db.get(), 400);
  EXPECT_GE(RuledOut(db.get(), 500), 475);
}

TEST(PresenceFilteredDbTest, ASavedCloseReopensWithoutARebuild) {
  TempDir dir;
  {
    std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
    ASSERT_NE(db, nullptr);
    EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
              PresenceRebuildReason::kNoSavedFilter);
    PutKeys(db.get(), 0, 3000);
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  const PresenceFilterStats stats = db->Stats(db->DefaultColumnFamily());
  EXPECT_EQ(stats.last_rebuild, PresenceRebuildReason::kNone);
  EXPECT_EQ(stats.rebuilds, 0u);
  EXPECT_EQ(stats.state, PresenceFilterState::kServing);
  ExpectKeys(db.get(), 0, 3000);
  EXPECT_GE(RuledOut(db.get(), 1000), 900);
}

TEST(PresenceFilteredDbTest, KeysWrittenAfterTheLastSaveAreReadFromTables) {
  TempDir dir;
  {
    PresenceFilterOptions no_automatic_saves = SmallFilter();
    no_automatic_saves.save_after_background_work = false;
    std::unique_ptr<PresenceFilteredDB> db =
        OpenServing(dir.path(), BaseOptions(), no_automatic_saves);
    ASSERT_NE(db, nullptr);
    PutKeys(db.get(), 0, 1000);
    ASSERT_TRUE(db->SaveFilters().ok());
    PutKeys(db.get(), 1000, 2000);
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    ASSERT_TRUE(
        db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr)
            .ok());
    PutKeys(db.get(), 2000, 3000);  // only in the WAL
    // Destroyed without CloseAndSave, as after a crash.
  }
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kNone);
  ExpectKeys(db.get(), 0, 3000);
}

TEST(PresenceFilteredDbTest, ADamagedSavedFileIsRebuiltNeverTrusted) {
  TempDir dir;
  {
    std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
    ASSERT_NE(db, nullptr);
    PutKeys(db.get(), 0, 2000);
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  const std::string saved = PresenceFilterFileName(dir.path());
  const size_t size = FileSize(saved);
  ASSERT_GT(size, 100u);
  for (size_t offset : {size_t{0}, size_t{20}, size / 2, size - 1}) {
    Corrupt(saved, offset);
    {
      std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
      ASSERT_NE(db, nullptr);
      EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
                PresenceRebuildReason::kDamaged)
          << "byte " << offset;
      ExpectKeys(db.get(), 0, 2000);
      ASSERT_TRUE(db->CloseAndSave().ok());
    }
  }
  // A torn save: the file cut short.
  std::filesystem::resize_file(saved, FileSize(saved) / 3);
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kDamaged);
  ExpectKeys(db.get(), 0, 2000);
}

TEST(PresenceFilteredDbTest, ASavedFileOfAnotherDatabaseIsNotUsed) {
  TempDir first;
  TempDir second;
  for (const TempDir* dir : {&first, &second}) {
    std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir->path());
    ASSERT_NE(db, nullptr);
    PutKeys(db.get(), dir == &first ? 0 : 1000, dir == &first ? 1000 : 2000);
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  std::filesystem::copy_file(PresenceFilterFileName(first.path()),
                             PresenceFilterFileName(second.path()),
                             std::filesystem::copy_options::overwrite_existing);
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(second.path());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kOtherDatabase);
  ExpectKeys(db.get(), 1000, 2000);
}

// Writes an SST file of keys [begin, end) for ingestion.
std::string ExternalFile(const TempDir& dir, const std::string& name, int begin,
                         int end) {
  std::vector<std::string> keys;
  for (int i = begin; i < end; ++i) keys.push_back(Key(i));
  std::sort(keys.begin(), keys.end());
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), BaseOptions());
  const std::string path = dir.File(name);
  EXPECT_TRUE(writer.Open(path).ok());
  for (const std::string& key : keys) {
    EXPECT_TRUE(writer.Put(key, Value(key)).ok());
  }
  EXPECT_TRUE(writer.Finish().ok());
  return path;
}

TEST(PresenceFilteredDbTest, WritesOfAPlainOpenInBetweenAreFound) {
  TempDir dir;
  TempDir files;
  {
    std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
    ASSERT_NE(db, nullptr);
    PutKeys(db.get(), 0, 1000);
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  {
    rocksdb::DB* plain = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(BaseOptions(), dir.path(), &plain).ok());
    std::unique_ptr<rocksdb::DB> owned(plain);
    PutKeys(plain, 1000, 2000);
    ASSERT_TRUE(plain->Flush(rocksdb::FlushOptions()).ok());
    ASSERT_TRUE(
        plain
            ->IngestExternalFile({ExternalFile(files, "a.sst", 2000, 3000)},
                                 rocksdb::IngestExternalFileOptions())
            .ok());
    PutKeys(plain, 3000, 4000);  // WAL only
  }
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kNone);
  ExpectKeys(db.get(), 0, 4000);
}

TEST(PresenceFilteredDbTest, IngestedFilesAreInTheFilterBeforeTheyAreVisible) {
  TempDir dir;
  TempDir files;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->IngestExternalFile({ExternalFile(files, "a.sst", 0, 1000)},
                                     rocksdb::IngestExternalFileOptions())
                  .ok());
  rocksdb::IngestExternalFileArg arg;
  arg.column_family = db->DefaultColumnFamily();
  arg.external_files = {ExternalFile(files, "b.sst", 1000, 2000)};
  ASSERT_TRUE(db->IngestExternalFiles({arg}).ok());
  ExpectKeys(db.get(), 0, 2000);
}

TEST(PresenceFilteredDbTest, BatchesMergesAndColumnFamiliesAreCovered) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  rocksdb::ColumnFamilyHandle* family = nullptr;
  ASSERT_TRUE(db->CreateColumnFamily(BaseOptions(), "second", &family).ok());
  EXPECT_EQ(db->State(family), PresenceFilterState::kServing);
  rocksdb::WriteBatch batch;
  ASSERT_TRUE(batch.Put("batch-put", "1").ok());
  ASSERT_TRUE(batch.Merge("batch-merge", "a").ok());
  ASSERT_TRUE(batch.Put(family, "family-put", "2").ok());
  ASSERT_TRUE(batch.Delete("batch-put-deleted").ok());
  ASSERT_TRUE(db->Write(rocksdb::WriteOptions(), &batch).ok());
  ASSERT_TRUE(db->Merge(rocksdb::WriteOptions(), "merged", "x").ok());
  ASSERT_TRUE(db->Merge(rocksdb::WriteOptions(), "merged", "y").ok());
  ASSERT_TRUE(db->PutEntity(rocksdb::WriteOptions(), family, "entity",
                            rocksdb::WideColumns{
                                {rocksdb::kDefaultWideColumnName, "e"}})
                  .ok());
  std::string value;
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "batch-put", &value).ok());
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "batch-merge", &value).ok());
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "merged", &value).ok());
  EXPECT_EQ(value, "x,y");
  EXPECT_TRUE(
      db->Get(rocksdb::ReadOptions(), family, "family-put", &value).ok());
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), family, "entity", &value).ok());
  EXPECT_EQ(value, "e");
  // The column family's key is not in the default one's filter.
  EXPECT_TRUE(
      db->Get(rocksdb::ReadOptions(), "family-put", &value).IsNotFound());
  ASSERT_TRUE(db->DestroyColumnFamilyHandle(family).ok());
}

TEST(PresenceFilteredDbTest, SnapshotsOlderThanARebuildGoToRocksDb) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  PutKeys(db.get(), 0, 1000);
  const rocksdb::Snapshot* before_delete = db->GetSnapshot();
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), Key(i)).ok());
  }
  ASSERT_TRUE(db->RebuildFilter(db->DefaultColumnFamily()).ok());
  ASSERT_TRUE(db->WaitUntilServing(kWait).ok());
  ASSERT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kRequested);
  // The rebuilt filter lacks most deleted keys ...
  int ruled_out = 0;
  const uint64_t before = GetsThatReachedRocksDb(db.get());
  std::string value;
  for (int i = 0; i < 1000; ++i) {
    EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).IsNotFound());
  }
  ruled_out =
      1000 - static_cast<int>(GetsThatReachedRocksDb(db.get()) - before);
  EXPECT_GT(ruled_out, 900);
  // ... which the older snapshot still sees.
  rocksdb::ReadOptions at_snapshot;
  at_snapshot.snapshot = before_delete;
  int found = 0;
  for (int i = 0; i < 1000; ++i) {
    found += db->Get(at_snapshot, Key(i), &value).ok();
  }
  EXPECT_EQ(found, 1000);
  rocksdb::ReadOptions ignoring_range_deletions;
  ignoring_range_deletions.ignore_range_deletions = true;
  EXPECT_TRUE(db->Get(ignoring_range_deletions, Key(1), &value).IsNotFound());
  db->ReleaseSnapshot(before_delete);
}

// What a lookup answered, for comparing the wrapper's answers with RocksDB's.
std::string Answer(const rocksdb::Status& status, const std::string& value) {
  return status.ok() ? "value \"" + value + "\"" : status.ToString();
}

// A fixed64 timestamp, as BytewiseComparatorWithU64Ts orders them.
std::string Timestamp(uint64_t t) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(t >> (8 * i));
  return bytes;
}

// Lookups with ReadOptions::timestamp go to RocksDB and get its answer: in a
// column family whose comparator carries timestamps (which has no filter)
// and in a plain one (where RocksDB refuses the timestamp, and the filter's
// NotFound would differ).
TEST(PresenceFilteredDbTest, LookupsWithATimestampAnswerAsRocksDb) {
  constexpr int kKeys = 200;
  TempDir dir;
  rocksdb::DBOptions db_options = BaseOptions();
  db_options.create_missing_column_families = true;
  rocksdb::ColumnFamilyOptions timestamped = BaseOptions();
  timestamped.comparator = rocksdb::BytewiseComparatorWithU64Ts();
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> opened =
      PresenceFilteredDB::Open(
          db_options, dir.path(),
          {{rocksdb::kDefaultColumnFamilyName, BaseOptions()},
           {"timestamped", timestamped}},
          &families, SmallFilter());
  ASSERT_TRUE(opened.ok()) << opened.status();
  std::unique_ptr<PresenceFilteredDB> db = *std::move(opened);
  ASSERT_TRUE(db->WaitUntilServing(kWait).ok());
  rocksdb::ColumnFamilyHandle* plain = families[0];
  rocksdb::ColumnFamilyHandle* with_timestamps = families[1];
  EXPECT_EQ(db->State(plain), PresenceFilterState::kServing);
  EXPECT_EQ(db->State(with_timestamps), PresenceFilterState::kUnfiltered);

  PutKeys(db.get(), 0, kKeys);
  for (int i = 0; i < kKeys; ++i) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), with_timestamps, Key(i),
                        Timestamp(10), Value(Key(i)))
                    .ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions(), with_timestamps).ok());
  std::vector<std::string> keys;
  for (int i = 0; i < kKeys; ++i) {
    keys.push_back(Key(i));
    keys.push_back(AbsentKey(i));
  }
  // The plain family's filter would rule the absent keys out.
  EXPECT_GE(RuledOut(db.get(), kKeys), kKeys * 9 / 10);

  rocksdb::DB* base = db->GetBaseDB();
  int differ = 0;
  std::string first_difference;
  const std::string read_times[] = {Timestamp(5), Timestamp(20)};
  for (rocksdb::ColumnFamilyHandle* family : {plain, with_timestamps}) {
    for (const std::string& read_time : read_times) {
      const rocksdb::Slice timestamp(read_time);
      rocksdb::ReadOptions options;
      options.timestamp = &timestamp;
      std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
      std::vector<rocksdb::PinnableSlice> values(keys.size());
      std::vector<rocksdb::Status> statuses(keys.size());
      db->MultiGet(options, family, keys.size(), slices.data(), values.data(),
                   statuses.data());
      std::vector<rocksdb::PinnableSlice> base_values(keys.size());
      std::vector<rocksdb::Status> base_statuses(keys.size());
      base->MultiGet(options, family, keys.size(), slices.data(),
                     base_values.data(), base_statuses.data());
      for (size_t k = 0; k < keys.size(); ++k) {
        std::string got;
        std::string expected;
        const std::string get =
            Answer(db->Get(options, family, keys[k], &got), got);
        const std::string base_get =
            Answer(base->Get(options, family, keys[k], &expected), expected);
        const std::string multi_get = Answer(statuses[k], values[k].ToString());
        const std::string base_multi_get =
            Answer(base_statuses[k], base_values[k].ToString());
        if ((get != base_get || multi_get != base_multi_get) && differ++ == 0) {
          first_difference = absl::StrCat(
              family->GetName(), " ", keys[k], ": Get ", get, ", RocksDB ",
              base_get, "; MultiGet ", multi_get, ", RocksDB ", base_multi_get);
        }
      }
    }
  }
  EXPECT_EQ(differ, 0) << "first: " << first_difference;
  for (rocksdb::ColumnFamilyHandle* family : families) {
    ASSERT_TRUE(db->DestroyColumnFamilyHandle(family).ok());
  }
}

TEST(PresenceFilteredDbTest, AFilterPastItsRateIsRebuiltLarger) {
  TempDir dir;
  PresenceFilterOptions small = SmallFilter();
  small.expected_keys = 500;
  std::unique_ptr<PresenceFilteredDB> db =
      OpenServing(dir.path(), BaseOptions(), small);
  ASSERT_NE(db, nullptr);
  PutKeys(db.get(), 0, 5000);  // ten times what it was sized for
  // The rate is checked after each flush.
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (db->Stats(db->DefaultColumnFamily()).last_rebuild !=
             PresenceRebuildReason::kRateAboveTarget &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(db->WaitUntilServing(kWait).ok());
  const PresenceFilterStats stats = db->Stats(db->DefaultColumnFamily());
  EXPECT_EQ(stats.last_rebuild, PresenceRebuildReason::kRateAboveTarget);
  EXPECT_GE(stats.expected_keys, 5000u);
  EXPECT_LT(stats.expected_fpp, 2 * small.fpp);
  ExpectKeys(db.get(), 0, 5000);
  EXPECT_GE(RuledOut(db.get(), 1000), 950);
}

}  // namespace
}  // namespace sstfilter
