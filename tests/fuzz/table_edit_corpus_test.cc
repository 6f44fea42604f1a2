// Shows that table_edit_fuzzer's checked-in corpus tests the filter reader and
// not only the block checksums: every base table must have inputs whose edit
// passed the block checksum and changed the filter bytes the reader answered
// from (EditReach::kFilterBytesChanged), and every input must pass
// CheckEdit. Also checks that every base table, unedited, reopens as before;
// otherwise no edit could reach its filter.

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "table/testing/real_tables.h"
#include "tests/fuzz/table_edit.h"
#include "tests/fuzz/table_edit_check.h"

namespace sstfilter {
namespace fuzz {
namespace {

// Inputs that must reach each base table's filter past its checksum. Two, so
// that the corpus holds more than one way in per table (an edit of the
// filter block, or of one partition and of the partition index).
constexpr size_t kMinFilterReachingInputsPerTable = 2;

// Relative to the runfiles directory, where Bazel runs the test.
constexpr char kCorpusDir[] = "tests/fuzz/corpus/table_edit_fuzzer";

TEST(TableEditCorpusTest, UneditedTablesReopenAsBefore) {
  const absl::Status status = CheckUneditedTablesReopen();
  EXPECT_TRUE(status.ok()) << status;
}

TEST(TableEditCorpusTest, EditsPassTheChecksumAndReachEveryFilter) {
  const std::vector<BaseTable>& tables = BaseTables();
  std::vector<size_t> reaching(tables.size());
  size_t by_reach[kNumEditReaches] = {};
  size_t inputs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpusDir)) {
    const absl::StatusOr<std::string> input =
        test::ReadFileBytes(entry.path().string());
    ASSERT_TRUE(input.ok()) << input.status();
    ++inputs;
    const EditOutcome outcome = CheckEdit(
        reinterpret_cast<const uint8_t*>(input->data()), input->size());
    EXPECT_TRUE(outcome.status.ok()) << entry.path() << ": " << outcome.status;
    ++by_reach[static_cast<size_t>(outcome.reach)];
    if (outcome.reach == EditReach::kFilterBytesChanged) {
      ++reaching[outcome.table];
    }
  }
  ASSERT_GT(inputs, 0u) << kCorpusDir;
  for (size_t i = 0; i < kNumEditReaches; ++i) {
    std::printf("%zu of %zu inputs: %s\n", by_reach[i], inputs,
                EditReachName(static_cast<EditReach>(i)));
  }
  for (size_t t = 0; t < tables.size(); ++t) {
    EXPECT_GE(reaching[t], kMinFilterReachingInputsPerTable)
        << tables[t].name << ": only " << reaching[t] << " inputs of "
        << kCorpusDir
        << " pass the block checksum and change the filter bytes read";
  }
}

}  // namespace
}  // namespace fuzz
}  // namespace sstfilter
