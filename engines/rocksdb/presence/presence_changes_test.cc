// Saves after a full one append only the filter blocks changed since; a
// reopening applies them and reads only the tables written after the last;
// a torn append is dropped; and once the changes would outgrow a full save,
// a full save replaces them.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/presence/presence_testing.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "table/testing/real_tables.h"

namespace sstfilter {
namespace {

using presence_testing::OpenServing;
using presence_testing::SmallFilter;
using test::TempDir;
using ::testing::Contains;
using ::testing::HasSubstr;

// A filter of about 19,000 blocks (1.2 MiB), far more than the few hundred
// keys a step writes change.
constexpr uint64_t kExpectedKeys = 1000000;
constexpr int kKeysPerStep = 200;

std::string Key(int i) { return absl::StrCat("changes-key-", i); }

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

// A database whose saves happen only when asked, with its progress lines.
class ChangesTest : public ::testing::Test {
 protected:
  std::unique_ptr<PresenceFilteredDB> Open() {
    rocksdb::Options options;
    options.create_if_missing = true;
    // Each step's table stays as written, so that the tests can count the
    // tables a reopening reads.
    options.disable_auto_compactions = true;
    PresenceFilterOptions filter = SmallFilter();
    filter.expected_keys = kExpectedKeys;
    filter.save_after_background_work = false;
    filter.progress = [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex_);
      progress_.push_back(line);
    };
    return OpenServing(dir_.path(), options, filter);
  }

  // Writes keys [begin, end) and flushes them into a table.
  void Write(PresenceFilteredDB* db, int begin, int end) {
    for (int i = begin; i < end; ++i) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), Key(i), "v").ok());
    }
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }

  void ExpectKeys(PresenceFilteredDB* db, int end) {
    int missing = 0;
    for (int i = 0; i < end; ++i) {
      std::string value;
      missing += !db->Get(rocksdb::ReadOptions(), Key(i), &value).ok();
    }
    EXPECT_EQ(missing, 0) << "of " << end << " keys";
  }

  std::vector<std::string> TakeProgress() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::move(progress_);
  }

  std::string full() const { return PresenceFilterFileName(dir_.path()); }
  std::string changes() const {
    return presence_internal::ChangesFileName(full());
  }

  TempDir dir_;
  std::mutex mutex_;
  std::vector<std::string> progress_;
};

TEST_F(ChangesTest, SavesAppendWhatChangedAndAReopeningAppliesIt) {
  {
    std::unique_ptr<PresenceFilteredDB> db = Open();
    ASSERT_NE(db, nullptr);
    Write(db.get(), 0, kKeysPerStep);
    ASSERT_TRUE(db->SaveFilters().ok());  // the first save is a full one
    const std::string full_save = ReadFile(full());
    ASSERT_GT(full_save.size(), kExpectedKeys);
    EXPECT_FALSE(std::filesystem::exists(changes()));

    size_t appended = 0;
    for (int step = 1; step <= 2; ++step) {
      Write(db.get(), step * kKeysPerStep, (step + 1) * kKeysPerStep);
      ASSERT_TRUE(db->SaveFilters().ok());
      EXPECT_TRUE(ReadFile(full()) == full_save)
          << "step " << step << " wrote a full save";
      const size_t size = std::filesystem::file_size(changes());
      // Each key changes one 64-byte block; a few dozen bytes more say
      // which blocks and list the tables.
      EXPECT_LT(size - appended, kKeysPerStep * 66 + 200) << "step " << step;
      EXPECT_GT(size, appended);
      appended = size;
    }
    Write(db.get(), 3 * kKeysPerStep, 4 * kKeysPerStep);  // after every save
    // Destroyed without CloseAndSave, as after a crash.
  }
  TakeProgress();
  std::unique_ptr<PresenceFilteredDB> db = Open();
  ASSERT_NE(db, nullptr);
  // Only the table written after the last save is read.
  EXPECT_THAT(TakeProgress(), Contains(HasSubstr("restored; read 1 tables")));
  EXPECT_EQ(db->Stats(db->DefaultColumnFamily()).last_rebuild,
            PresenceRebuildReason::kNone);
  ExpectKeys(db.get(), 4 * kKeysPerStep);
}

TEST_F(ChangesTest, ATornAppendIsDroppedAndItsTablesRead) {
  {
    std::unique_ptr<PresenceFilteredDB> db = Open();
    ASSERT_NE(db, nullptr);
    Write(db.get(), 0, kKeysPerStep);
    ASSERT_TRUE(db->SaveFilters().ok());
    for (int step = 1; step <= 2; ++step) {
      Write(db.get(), step * kKeysPerStep, (step + 1) * kKeysPerStep);
      ASSERT_TRUE(db->SaveFilters().ok());
    }
  }
  std::filesystem::resize_file(changes(),
                               std::filesystem::file_size(changes()) - 1);
  TakeProgress();
  std::unique_ptr<PresenceFilteredDB> db = Open();
  ASSERT_NE(db, nullptr);
  const std::vector<std::string> progress = TakeProgress();
  EXPECT_THAT(progress, Contains(HasSubstr("record 1 is torn")));
  // The torn record's table, read as the save before it did not list it.
  EXPECT_THAT(progress, Contains(HasSubstr("restored; read 1 tables")));
  ExpectKeys(db.get(), 3 * kKeysPerStep);
}

TEST_F(ChangesTest, ChangesOutgrowingAFullSaveAreReplacedByOne) {
  std::unique_ptr<PresenceFilteredDB> db = Open();
  ASSERT_NE(db, nullptr);
  Write(db.get(), 0, kKeysPerStep);
  ASSERT_TRUE(db->SaveFilters().ok());
  const std::string full_save = ReadFile(full());
  // Each step changes most of the filter's blocks: the second cannot be
  // appended without the changes outgrowing the full save.
  constexpr int kLargeStep = 30000;
  int written = kKeysPerStep;
  for (int step = 0; step < 2; ++step) {
    Write(db.get(), written, written + kLargeStep);
    written += kLargeStep;
    ASSERT_TRUE(db->SaveFilters().ok());
    if (step == 0) {
      EXPECT_TRUE(std::filesystem::exists(changes()));
    }
  }
  EXPECT_FALSE(std::filesystem::exists(changes()));
  EXPECT_TRUE(ReadFile(full()) != full_save) << "no full save replaced them";
  ASSERT_TRUE(db->Close().ok());
  db = Open();
  ASSERT_NE(db, nullptr);
  ExpectKeys(db.get(), written);
}

}  // namespace
}  // namespace sstfilter
