// PresenceFilteredDB's promise, never a NotFound where RocksDB would find
// the key, on paths of RocksDB's API beyond plain Put and Get: comparators
// that call different bytes equal, null handles, bad arguments, files that
// leave without a compaction, recovery that may roll back, timestamps, and
// MultiGet into the caller's own buffers. Each case compares the wrapper's
// answer with the base database's (GetBaseDB) for the same key at the same
// moment.

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/case_blind_comparator.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/presence_testing.h"
#include "gtest/gtest.h"
#include "rocksdb/comparator.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/trace_reader_writer.h"
#include "rocksdb/utilities/replayer.h"
#include "table/testing/real_tables.h"

namespace sstfilter {
namespace {

using presence_testing::SmallFilter;
using test::TempDir;

constexpr std::chrono::milliseconds kWait = presence_testing::kServingWait;

rocksdb::Options BaseOptions() {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  return options;
}

std::unique_ptr<PresenceFilteredDB> OpenServing(
    const std::string& path, const rocksdb::Options& options = BaseOptions(),
    const PresenceFilterOptions& filter_options = SmallFilter()) {
  return presence_testing::OpenServing(path, options, filter_options);
}

// What a Get answered: its status and value, as one printable string.
std::string Answer(const rocksdb::Status& status,
                   const rocksdb::PinnableSlice& value) {
  return status.ok() ? "OK: " + value.ToString() : status.ToString();
}

std::string GetThrough(rocksdb::DB* db, const rocksdb::ReadOptions& options,
                       rocksdb::ColumnFamilyHandle* family,
                       const std::string& key) {
  rocksdb::PinnableSlice value;
  rocksdb::Status status = db->Get(options, family, key, &value);
  return Answer(status, value);
}

// How many of keys the wrapper answers unlike its base database.
int Disagreements(
    PresenceFilteredDB* db, rocksdb::ColumnFamilyHandle* family,
    const std::vector<std::string>& keys,
    const rocksdb::ReadOptions& options = rocksdb::ReadOptions()) {
  int differ = 0;
  for (const std::string& key : keys) {
    const std::string wrapper = GetThrough(db, options, family, key);
    const std::string base = GetThrough(db->GetBaseDB(), options, family, key);
    if (wrapper != base) {
      ++differ;
      ADD_FAILURE() << "key '" << key << "': the wrapper answers '" << wrapper
                    << "', RocksDB '" << base << "'";
      if (differ > 5) break;
    }
  }
  return differ;
}

using presence_testing::CaseBlindComparator;

// Bytewise order, declaring that only equal bytes are equal keys.
class DeclaredBytewiseComparator : public CaseBlindComparator {
 public:
  const char* Name() const override { return "sstfilter.test.Bytewise"; }
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    return a.compare(b);
  }
  bool CanKeysWithDifferentByteContentsBeEqual() const override {
    return false;
  }
};

// Bytewise keys followed by an 8-byte little-endian timestamp, newest first.
class U64TimestampComparator : public rocksdb::Comparator {
 public:
  U64TimestampComparator() : rocksdb::Comparator(/*ts_sz=*/8) {}
  const char* Name() const override { return "sstfilter.test.U64Timestamp"; }
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    const int keys = CompareWithoutTimestamp(a, true, b, true);
    if (keys != 0) return keys;
    return -CompareTimestamp(Timestamp(a), Timestamp(b));
  }
  int CompareWithoutTimestamp(const rocksdb::Slice& a, bool a_has_ts,
                              const rocksdb::Slice& b,
                              bool b_has_ts) const override {
    return WithoutTimestamp(a, a_has_ts).compare(WithoutTimestamp(b, b_has_ts));
  }
  int CompareTimestamp(const rocksdb::Slice& a,
                       const rocksdb::Slice& b) const override {
    const uint64_t x = Decode(a);
    const uint64_t y = Decode(b);
    return x == y ? 0 : (x < y ? -1 : 1);
  }
  void FindShortestSeparator(std::string*,
                             const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  static rocksdb::Slice Timestamp(const rocksdb::Slice& key) {
    return rocksdb::Slice(key.data() + key.size() - 8, 8);
  }
  static rocksdb::Slice WithoutTimestamp(const rocksdb::Slice& key,
                                         bool has_ts) {
    return has_ts ? rocksdb::Slice(key.data(), key.size() - 8) : key;
  }
  static uint64_t Decode(const rocksdb::Slice& ts) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; --i) {
      value = (value << 8) | static_cast<unsigned char>(ts[i]);
    }
    return value;
  }
};

TEST(PresencePromiseTest, AComparatorThatCallsDifferentBytesEqualGetsNoFilter) {
  TempDir dir;
  CaseBlindComparator comparator;
  rocksdb::Options options = BaseOptions();
  options.comparator = &comparator;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path(), options);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->State(db->DefaultColumnFamily()),
            PresenceFilterState::kUnfiltered);
  EXPECT_NE(db->Stats(db->DefaultColumnFamily())
                .unfiltered_reason.find("different bytes equal"),
            std::string::npos);
  std::vector<std::string> lower;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(
        db->Put(rocksdb::WriteOptions(), absl::StrCat("KEY", i), "v").ok());
    lower.push_back(absl::StrCat("key", i));
  }
  EXPECT_EQ(Disagreements(db.get(), db->DefaultColumnFamily(), lower), 0);
  std::string value;
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "key7", &value).ok());
}

TEST(PresencePromiseTest, AComparatorDeclaringBytesDistinctKeepsItsFilter) {
  TempDir dir;
  DeclaredBytewiseComparator comparator;
  rocksdb::Options options = BaseOptions();
  options.comparator = &comparator;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path(), options);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->State(db->DefaultColumnFamily()),
            PresenceFilterState::kServing);
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "present", "v").ok());
  EXPECT_EQ(
      Disagreements(db.get(), db->DefaultColumnFamily(), {"present", "absent"}),
      0);
}

// A null column family handle: RocksDB 7.8.3 writes such a key to the
// default column family, 9.7.4 refuses the write; the wrapper answers as the
// release under it, and every key RocksDB holds is found, also after the
// filter was saved and restored.
TEST(PresencePromiseTest, ANullHandleBehavesAsTheHostRelease) {
  TempDir dir;
  std::vector<std::string> keys;
  {
    std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
    ASSERT_NE(db, nullptr);
    for (int i = 0; i < 200; ++i) {
      const std::string key = absl::StrCat("null-handle-", i);
      keys.push_back(key);
      const rocksdb::Status put =
          db->Put(rocksdb::WriteOptions(), nullptr, key, "v");
      // The same write through RocksDB alone, to a key of its own.
      const rocksdb::Status base_put = db->GetBaseDB()->Put(
          rocksdb::WriteOptions(), nullptr, "base-" + key, "v");
      EXPECT_EQ(put.ToString(), base_put.ToString());
    }
    EXPECT_EQ(Disagreements(db.get(), db->DefaultColumnFamily(), keys), 0);
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kNone);
  EXPECT_EQ(Disagreements(db.get(), db->DefaultColumnFamily(), keys), 0);
}

// Lookups and Merge naming a null handle: RocksDB 9.7.4 answers
// InvalidArgument, which the wrapper gives too; 7.8.3 would abort (an
// assertion) or dereference the null, so the wrapper gives 9.7.4's answer.
TEST(PresencePromiseTest, LookupsWithANullHandleGetAnErrorNeverACrash) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "k", "v").ok());
  std::vector<std::string> answers;
  rocksdb::PinnableSlice value;
  answers.push_back(
      db->Get(rocksdb::ReadOptions(), nullptr, "k", &value).ToString());
  const rocksdb::Slice keys[] = {"k", "absent"};
  rocksdb::PinnableSlice values[2];
  rocksdb::Status statuses[2];
  db->MultiGet(rocksdb::ReadOptions(), nullptr, 2, keys, values, statuses);
  answers.push_back(statuses[0].ToString());
  answers.push_back(statuses[1].ToString());
  answers.push_back(
      db->Merge(rocksdb::WriteOptions(), nullptr, "k", "w").ToString());
  for (const std::string& answer : answers) {
    EXPECT_EQ(answer, "Invalid argument: column family handle cannot be null");
  }
#if ROCKSDB_MAJOR >= 9
  rocksdb::DB* base = db->GetBaseDB();
  EXPECT_EQ(base->Get(rocksdb::ReadOptions(), nullptr, "k", &value).ToString(),
            answers[0]);
  base->MultiGet(rocksdb::ReadOptions(), nullptr, 2, keys, values, statuses);
  EXPECT_EQ(statuses[0].ToString(), answers[1]);
  EXPECT_EQ(base->Merge(rocksdb::WriteOptions(), nullptr, "k", "w").ToString(),
            answers[3]);
#endif
}

TEST(PresencePromiseTest, BadArgumentsGetRocksDbsOwnError) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  const rocksdb::Status wrapper = db->Write(rocksdb::WriteOptions(), nullptr);
  const rocksdb::Status base =
      db->GetBaseDB()->Write(rocksdb::WriteOptions(), nullptr);
  EXPECT_TRUE(wrapper.IsInvalidArgument()) << wrapper.ToString();
  EXPECT_EQ(wrapper.ToString(), base.ToString());
}

// A trace replayer writes into the base database, past the filters.
TEST(PresencePromiseTest, AReplayerIsRefused) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  std::unique_ptr<rocksdb::Replayer> replayer;
  const rocksdb::Status status =
      db->NewDefaultReplayer({db->DefaultColumnFamily()}, nullptr, &replayer);
  EXPECT_TRUE(status.IsNotSupported()) << status.ToString();
  EXPECT_EQ(replayer, nullptr);
}

// A rebuilt filter must hold a deleted key whose value stays in a table
// after its tombstone's table is deleted without a compaction: RocksDB then
// returns the old value.
TEST(PresencePromiseTest, ATableDeletedWithoutACompactionBringsNoKeyItLacks) {
  TempDir dir;
  rocksdb::Options options = BaseOptions();
  options.disable_auto_compactions = true;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path(), options);
  ASSERT_NE(db, nullptr);
  for (const char* key : {"a", "b", "c"}) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, "old").ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  rocksdb::CompactRangeOptions to_level_3;
  to_level_3.change_level = true;
  to_level_3.target_level = 3;
  ASSERT_TRUE(db->CompactRange(to_level_3, nullptr, nullptr).ok());
  ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), "b").ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  // The tombstone alone into level 1, above the value it hides.
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::vector<std::string> level_0;
  for (const rocksdb::LiveFileMetaData& file : files) {
    if (file.level == 0) level_0.push_back(file.name);
  }
  ASSERT_EQ(level_0.size(), 1u);
  ASSERT_TRUE(
      db->CompactFiles(rocksdb::CompactionOptions(), level_0, /*level=*/1)
          .ok());
  ASSERT_TRUE(db->RebuildFilter(db->DefaultColumnFamily()).ok());
  ASSERT_TRUE(db->WaitUntilServing(kWait).ok());
  ASSERT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kRequested);
  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "b", &value).IsNotFound());

  const rocksdb::Slice b("b");
  rocksdb::RangePtr range(&b, &b);
  ASSERT_TRUE(rocksdb::DeleteFilesInRanges(db.get(), db->DefaultColumnFamily(),
                                           &range, 1, /*include_end=*/true)
                  .ok());
  ASSERT_TRUE(db->GetBaseDB()->Get(rocksdb::ReadOptions(), "b", &value).ok())
      << "the case must bring the old value back in RocksDB";
  EXPECT_EQ(Disagreements(db.get(), db->DefaultColumnFamily(), {"a", "b", "c"}),
            0);
}

TEST(PresencePromiseTest, BestEffortsRecoveryRebuildsTheFilter) {
  TempDir dir;
  {
    std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
    ASSERT_NE(db, nullptr);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "kept", "v").ok());
    ASSERT_TRUE(db->CloseAndSave().ok());
  }
  rocksdb::Options options = BaseOptions();
  options.best_efforts_recovery = true;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path(), options);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kRecoveryMayRollBack);
  EXPECT_EQ(Disagreements(db.get(), db->DefaultColumnFamily(), {"kept", "no"}),
            0);
}

TEST(PresencePromiseTest, TimestampedLookupsAnswerAsRocksDb) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  U64TimestampComparator comparator;
  rocksdb::ColumnFamilyOptions with_timestamps;
  with_timestamps.comparator = &comparator;
  rocksdb::ColumnFamilyHandle* family = nullptr;
  ASSERT_TRUE(db->CreateColumnFamily(with_timestamps, "ts", &family).ok());
  EXPECT_EQ(db->State(family), PresenceFilterState::kUnfiltered);
  std::string ts(8, '\0');
  ts[0] = 5;  // little-endian 5
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), family, "k", ts, "v").ok());
  const rocksdb::Slice read_ts(ts);
  rocksdb::ReadOptions at_ts;
  at_ts.timestamp = &read_ts;
  for (rocksdb::DB* target :
       {static_cast<rocksdb::DB*>(db.get()), db->GetBaseDB()}) {
    SCOPED_TRACE(target == db.get() ? "wrapper" : "base");
    rocksdb::PinnableSlice value;
    std::string timestamp;
    const rocksdb::Status status =
        target->Get(at_ts, family, "k", &value, &timestamp);
    EXPECT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(value.ToString(), "v");
    EXPECT_EQ(timestamp, ts);
    const rocksdb::Slice keys[] = {"k", "absent"};
    rocksdb::PinnableSlice values[2];
    std::string timestamps[2];
    rocksdb::Status statuses[2];
    target->MultiGet(at_ts, family, 2, keys, values, timestamps, statuses);
    EXPECT_TRUE(statuses[0].ok()) << statuses[0].ToString();
    EXPECT_EQ(values[0].ToString(), "v");
    EXPECT_TRUE(statuses[1].IsNotFound()) << statuses[1].ToString();
  }
  ASSERT_TRUE(db->DestroyColumnFamilyHandle(family).ok());
}

// A MultiGet whose caller hands its own std::string buffers, with keys the
// filter rules out between keys it looks up: each buffer receives what
// RocksDB alone would put there.
TEST(PresencePromiseTest, MultiGetFillsTheCallersOwnBuffers) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  constexpr size_t kKeys = 40;
  std::vector<std::string> keys;
  for (size_t i = 0; i < kKeys; ++i) {
    keys.push_back(absl::StrCat(i % 3 == 0 ? "absent-" : "present-", i));
    if (i % 3 != 0) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), keys.back(),
                          absl::StrCat("value-", i))
                      .ok());
    }
  }
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<std::string> answers[2];
  for (int target = 0; target < 2; ++target) {
    rocksdb::DB* db_to_ask =
        target == 0 ? static_cast<rocksdb::DB*>(db.get()) : db->GetBaseDB();
    std::vector<std::string> buffers(kKeys, "stale");
    std::vector<rocksdb::PinnableSlice> values;
    values.reserve(kKeys);
    for (size_t i = 0; i < kKeys; ++i) values.emplace_back(&buffers[i]);
    std::vector<rocksdb::Status> statuses(kKeys);
    db_to_ask->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(),
                        kKeys, slices.data(), values.data(), statuses.data());
    for (size_t i = 0; i < kKeys; ++i) {
      answers[target].push_back(absl::StrCat(
          statuses[i].ToString(), " slice '", values[i].ToString(),
          "' buffer '", buffers[i], "' pinned ", values[i].IsPinned(), " self ",
          values[i].GetSelf() == &buffers[i]));
    }
  }
  for (size_t i = 0; i < kKeys; ++i) {
    EXPECT_EQ(answers[0][i], answers[1][i]) << keys[i];
  }
}

// Tiers that stop at memory answer Incomplete where they cannot tell; the
// wrapper gives RocksDB's answer there too.
TEST(PresencePromiseTest, ReadTiersAnswerAsRocksDb) {
  TempDir dir;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  std::vector<std::string> keys;
  for (int i = 0; i < 100; ++i) {
    keys.push_back(absl::StrCat("tier-", i));
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), keys.back(), "v").ok());
    keys.push_back(absl::StrCat("absent-", i));
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  rocksdb::ReadOptions cache_only;
  cache_only.read_tier = rocksdb::kBlockCacheTier;
  EXPECT_EQ(
      Disagreements(db.get(), db->DefaultColumnFamily(), keys, cache_only), 0);
}

// An ingestion whose file the filter cannot read: RocksDB's answer stands,
// and the filter stops serving until a rebuild has read the tables.
TEST(PresencePromiseTest, AnUnreadableIngestionGetsRocksDbsAnswer) {
  TempDir dir;
  TempDir files;
  std::unique_ptr<PresenceFilteredDB> db = OpenServing(dir.path());
  ASSERT_NE(db, nullptr);
  const std::vector<std::string> missing = {files.File("missing.sst")};
  const rocksdb::Status wrapper =
      db->IngestExternalFile(missing, rocksdb::IngestExternalFileOptions());
  const rocksdb::Status base = db->GetBaseDB()->IngestExternalFile(
      missing, rocksdb::IngestExternalFileOptions());
  EXPECT_FALSE(wrapper.ok());
  EXPECT_EQ(wrapper.ToString(), base.ToString());
  ASSERT_TRUE(db->WaitUntilServing(kWait).ok());
  const PresenceFilterStats stats = db->Stats(db->DefaultColumnFamily());
  EXPECT_EQ(stats.state, PresenceFilterState::kServing);
  EXPECT_EQ(stats.last_rebuild, PresenceRebuildReason::kUnreadableIngestedFile);
}

}  // namespace
}  // namespace sstfilter
