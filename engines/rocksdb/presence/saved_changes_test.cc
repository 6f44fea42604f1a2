// The changes file's format (saved_filters.h): records read back as written;
// any cut or flipped byte gives the whole records before it and says where
// it stopped, or a DataLossError, never a record that was not written; and a
// file that follows another save is told apart.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "gtest/gtest.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sstfilter {
namespace presence_internal {
namespace {

std::vector<ChangedColumnFamily> Record(uint32_t seed) {
  std::vector<ChangedColumnFamily> record(2);
  for (uint32_t i = 0; i < record.size(); ++i) {
    record[i].id = seed + i;
    record[i].latest_sequence = 1000 * seed + i;
    record[i].tables = {{seed + 7, 4096 * (i + 1)}, {seed + 9, 123}};
    record[i].blocks = std::string(70 + seed, static_cast<char>('a' + i));
    record[i].alphabets = i == 0 ? "" : std::string(40 + seed, 'z');
  }
  return record;
}

bool Same(const std::vector<ChangedColumnFamily>& a,
          const std::vector<ChangedColumnFamily>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || a[i].latest_sequence != b[i].latest_sequence ||
        !(a[i].tables == b[i].tables) || a[i].blocks != b[i].blocks ||
        a[i].alphabets != b[i].alphabets) {
      return false;
    }
  }
  return true;
}

constexpr char kFullSave[] = "SSTFPRS1 stands in for a full save 1234";

class SavedChangesTest : public ::testing::Test {
 protected:
  SavedChangesTest() {
    file_ = EncodeChangesHeader(kFullSave);
    for (uint32_t r = 0; r < 3; ++r) {
      records_.push_back(Record(r));
      file_ += EncodeChangesRecord(records_.back());
      ends_.push_back(file_.size());
    }
  }
  // Whatever bytes give: the records read are the first ones written.
  void ExpectOnlyWrittenRecords(const std::string& bytes, const char* what) {
    absl::StatusOr<SavedChanges> read = DecodeSavedChanges(bytes, kFullSave);
    if (!read.ok()) {
      EXPECT_TRUE(absl::IsDataLoss(read.status()) ||
                  absl::IsFailedPrecondition(read.status()))
          << what << ": " << read.status();
      return;
    }
    ASSERT_LE(read->records.size(), records_.size()) << what;
    for (size_t r = 0; r < read->records.size(); ++r) {
      EXPECT_TRUE(Same(read->records[r], records_[r])) << what << " " << r;
    }
  }

  std::string file_;
  std::vector<std::vector<ChangedColumnFamily>> records_;
  std::vector<size_t> ends_;  // where each record ends in file_
};

TEST_F(SavedChangesTest, RecordsReadBackAsWritten) {
  absl::StatusOr<SavedChanges> read = DecodeSavedChanges(file_, kFullSave);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->stopped, "");
  ASSERT_EQ(read->records.size(), records_.size());
  for (size_t r = 0; r < records_.size(); ++r) {
    EXPECT_TRUE(Same(read->records[r], records_[r])) << r;
  }
}

TEST_F(SavedChangesTest, AFileOfAnotherSaveIsToldApart) {
  EXPECT_TRUE(absl::IsFailedPrecondition(
      DecodeSavedChanges(file_, "another full save").status()));
  EXPECT_TRUE(absl::IsDataLoss(
      DecodeSavedChanges("not a changes file", kFullSave).status()));
}

TEST_F(SavedChangesTest, CutsAndFlipsGiveOnlyWholeWrittenRecords) {
  for (size_t size = 0; size < file_.size(); ++size) {
    ExpectOnlyWrittenRecords(file_.substr(0, size), "cut");
    absl::StatusOr<SavedChanges> read =
        DecodeSavedChanges(file_.substr(0, size), kFullSave);
    if (size < ends_[0] - EncodeChangesRecord(records_[0]).size()) continue;
    // Past the header: every whole record, and a cut inside one is named.
    ASSERT_TRUE(read.ok()) << size << ": " << read.status();
    size_t whole = 0;
    while (whole < ends_.size() && ends_[whole] <= size) ++whole;
    EXPECT_EQ(read->records.size(), whole) << size;
    const bool at_an_end =
        size == ends_[0] - EncodeChangesRecord(records_[0]).size() ||
        (whole > 0 && ends_[whole - 1] == size);
    EXPECT_EQ(read->stopped.empty(), at_an_end)
        << size << ": " << read->stopped;
  }
  for (size_t at = 0; at < file_.size(); ++at) {
    for (int bit = 0; bit < 8; bit += 3) {
      std::string flipped = file_;
      flipped[at] = static_cast<char>(flipped[at] ^ (1 << bit));
      ExpectOnlyWrittenRecords(flipped, "flipped");
    }
  }
}

// A changes file of the layout before alphabets ("SSTFPRC1"), its records
// ending at each column family's blocks, written here field by field as
// README.md lays it out: read, with no alphabets.
TEST(SavedChangesLayoutTest, TheLayoutBeforeAlphabetsIsRead) {
  const auto length_prefixed = [](std::string* dst, absl::string_view bytes) {
    PutVarint64(dst, bytes.size());
    dst->append(bytes.data(), bytes.size());
  };
  std::string record;
  PutVarint32(&record, 1);  // one column family
  PutFixed32(&record, 5);
  PutFixed64(&record, 777);
  PutVarint64(&record, 1);  // one table: number, size
  PutVarint64(&record, 9);
  PutVarint64(&record, 4096);
  length_prefixed(&record, "blocks");
  std::string file = EncodeChangesHeader(kFullSave);
  file.replace(0, 8, "SSTFPRC1");
  length_prefixed(&file, record);
  PutFixed32(&file, crc32c::Mask(crc32c::Value(record.data(), record.size())));
  absl::StatusOr<SavedChanges> read = DecodeSavedChanges(file, kFullSave);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->stopped, "");
  ASSERT_EQ(read->records.size(), 1u);
  ASSERT_EQ(read->records[0].size(), 1u);
  const ChangedColumnFamily& changed = read->records[0][0];
  EXPECT_EQ(changed.id, 5u);
  EXPECT_EQ(changed.latest_sequence, 777u);
  EXPECT_EQ(changed.tables, (std::vector<SavedTable>{{9, 4096}}));
  EXPECT_EQ(changed.blocks, "blocks");
  EXPECT_EQ(changed.alphabets, "");
  // Read as the new layout, the same record is cut short.
  file.replace(0, 8, "SSTFPRC2");
  read = DecodeSavedChanges(file, kFullSave);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(read->records.empty());
  EXPECT_NE(read->stopped, "");
}

}  // namespace
}  // namespace presence_internal
}  // namespace sstfilter
