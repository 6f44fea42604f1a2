// Fuzzes the table reader behind its checksums: each input edits one block of
// a small real table (table_edit.h: the script format, and how checksums and
// handles are kept valid), so that mutations reach the metaindex, index,
// properties, partition index, partition and filter parsers, and then checks
// TableFilter's answers, not only that it did not crash (the checks are
// table_edit_check.h's).
//
// Before the first input it aborts unless every base table, edited by a
// script with no edits, reopens to the same file, reading and answers: else
// every edit could fail to open and the fuzzer would test nothing. At exit it
// prints how many inputs reached each stage (EditReach), so that a run shows
// how many edits passed the block checksum and changed what the filter reader
// read ("filter bytes changed").
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/fuzz/fuzz_checks.h"
#include "tests/fuzz/table_edit.h"
#include "tests/fuzz/table_edit_check.h"

namespace sstfilter {
namespace fuzz {
namespace {

// The index of the first block of this kind, or 0.
size_t BlockOf(const BaseTable& table, BlockKind kind, size_t nth = 0) {
  for (size_t i = 0; i < table.blocks.size(); ++i) {
    if (table.blocks[i].kind == kind && nth-- == 0) return i;
  }
  return 0;
}

// Inputs by EditReach, printed at exit.
size_t reaches[kNumEditReaches] = {};

void PrintReaches() {
  std::string line = "table_edit_fuzzer inputs:";
  for (size_t i = 0; i < kNumEditReaches; ++i) {
    absl::StrAppend(&line, i == 0 ? " " : ", ", reaches[i], " ",
                    EditReachName(static_cast<EditReach>(i)));
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

std::vector<Seed> TableEditSeeds() {
  std::vector<Seed> seeds;
  const std::vector<BaseTable>& tables = BaseTables();
  for (size_t t = 0; t < tables.size(); ++t) {
    const BaseTable& table = tables[t];
    auto add = [&](const std::string& what, BlockKind kind, uint8_t flags,
                   const std::vector<Edit>& edits, size_t nth = 0) {
      seeds.push_back(
          {absl::StrCat(table.name, "_", what),
           EncodeEditScript(t, BlockOf(table, kind, nth), flags, 0, edits)});
    };
    add("unchanged", BlockKind::kFilter, 0, {});
    add("filter_overwritten", BlockKind::kFilter, 0, {{0, 20, "\x5a\xa5"}});
    add("metaindex_grown", BlockKind::kMetaIndex, 0,
        {{1, 3, std::string(12, 'm')}});
    if (t % 2 == 0) {
      add("filter_stale_checksum", BlockKind::kFilter, kStaleChecksum,
          {{0, 1, "x"}});
      add("index_cut", BlockKind::kIndex, kSmallTail, {{2, 4, "12345"}});
    }
    if (!table.partitions.empty()) {
      add("partition_grown", BlockKind::kPartition, kSmallTail,
          {{1, 0, std::string(9, 'p')}}, 1);
    }
    if (table.footer.format == TableFormat::kRocksDb) {
      add("properties_overwritten", BlockKind::kProperties, 0,
          {{0, 30, "\x01\x02\x03"}});
    }
  }
  return seeds;
}

[[maybe_unused]] const bool kSeedsRegistered =
    (RegisterSeedGenerator(&TableEditSeeds), true);

}  // namespace
}  // namespace fuzz
}  // namespace sstfilter

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using sstfilter::fuzz::AbortIfError;
  [[maybe_unused]] static const bool unedited_tables_reopen =
      (AbortIfError(sstfilter::fuzz::CheckUneditedTablesReopen(),
                    "unedited tables"),
       std::atexit(sstfilter::fuzz::PrintReaches), true);
  const sstfilter::fuzz::EditOutcome outcome =
      sstfilter::fuzz::CheckEdit(data, size);
  AbortIfError(outcome.status, "table edit check");
  ++sstfilter::fuzz::reaches[static_cast<size_t>(outcome.reach)];
  return 0;
}
