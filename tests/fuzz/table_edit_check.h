// What table_edit_fuzzer checks of one edit script (table_edit.h), and how far
// the edit got: shared by the fuzzer, which counts how many of its inputs
// reach the filter, and table_edit_corpus_test, which requires the checked-in
// corpus to reach it. An edit that stops at a checksum tests only that
// checksum; one that reaches the filter tests the reader behind it.

#ifndef SSTFILTER_TESTS_FUZZ_TABLE_EDIT_CHECK_H_
#define SSTFILTER_TESTS_FUZZ_TABLE_EDIT_CHECK_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"

namespace sstfilter {
namespace fuzz {

// How far an edit got into the table reader.
enum class EditReach {
  kNotOpened,  // TableFilter::Open returned an error
  // Opened, but no filter was read: the table names none or a format no one
  // reads, or the filter block or partition index failed its checksum or did
  // not parse (every key may match), or the only partitions that changed
  // failed theirs.
  kFilterNotRead,
  kFilterAsBefore,  // the filter's bytes and meaning are unchanged
  // The filter's bytes are unchanged, but what says how to read them
  // (format name, layout, properties, partition separators, ...) changed.
  kMeaningChanged,
  // The bytes of the filter block or of a partition changed behind a valid
  // block checksum, and the format's reader answered every key from them (a
  // format that checks its own bytes may reject them: that is its answer).
  kFilterBytesChanged,
};
constexpr size_t kNumEditReaches = 5;

const char* EditReachName(EditReach reach);

struct EditOutcome {
  absl::Status status;  // an error names the violated check
  EditReach reach = EditReach::kNotOpened;
  size_t table = 0;  // which of BaseTables() was edited
};

// Applies the edit script data[0, size) and checks the edited table.
// The checks, after the edit, when the table opens (any error from Open is
// allowed), for every key of the table and some absent keys:
//  - KeyMayMatch agrees with the batched reader of the same filter bytes
//    (full filters and partitions);
//  - a filter that cannot be used (a filter block or partition index that
//    failed its checksum or did not parse, or a corrupt per-2 KB index)
//    answers "may match" for every key, and so does a partition that could
//    not be read, when corruption() reports it;
//  - no key of the table is answered "no" while what TableFilter reads as
//    the filter means what it meant before the edit: the same format name,
//    layout, whole-key and prefix properties, index encoding, partition
//    separators (and, per-2 KB, the same index block), and the same filter
//    bytes (filter block or every partition). When the filter bytes changed
//    and the rest did not, a format that checks its own bytes
//    (self_checking_formats.h) must still not lose a key; any other format
//    may. The same for PrefixMayMatch of their prefixes;
//  - an edit that leaves the file as it was (no edits, or edits that undo
//    each other) reopens to the same reading, and every key, present or
//    absent, gets the answer the unedited table gives.
EditOutcome CheckEdit(const uint8_t* data, size_t size);

// For every block of every base table, the edit script with no edits must
// give the table's file byte for byte, and that file must reopen to the same
// reading and answers as the unedited table (CheckEdit's last rule). Without
// this, a base table that no longer opens would make every edit "not
// opened", and the fuzzer would pass while testing nothing. Returns an error
// naming the table and block.
absl::Status CheckUneditedTablesReopen();

}  // namespace fuzz
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_FUZZ_TABLE_EDIT_CHECK_H_
