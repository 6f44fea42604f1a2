// Fuzzes the readers of what PresenceFilteredDB saves: the saved-filters file
// and its column family records (DecodeSavedFilters,
// DecodeColumnFamilyRecord), the changes file that follows it
// (DecodeSavedChanges), and the blocks a change carries
// (MutableBloomFilter::ApplySavedBlocks). Any bytes give a value or an error,
// never a crash or an out-of-bounds read (the bytes sit in a buffer of
// exactly their size), and what a reader accepts it reads back exactly.
//
// Input format: [1 byte: mode % 3] then the bytes to read.
//   mode 0: a saved-filters file. Decoded, it encodes to the very bytes; so
//           does each record it holds that decodes.
//   mode 1: a changes file following kFullSave. Decoded, its header and
//           records encode to the bytes it read: all of them unless a record
//           stopped the reading.
//   mode 2: the blocks of a change, applied to a filter of kExpectedKeys keys
//           holding kHeldKeys: refused, they leave the filter as it was;
//           applied, every held key still matches, and applying them again
//           changes nothing.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engines/rocksdb/presence/saved_filters.h"
#include "filter/filter_policy.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "tests/fuzz/fuzz_checks.h"

namespace sstfilter {
namespace {

using presence_internal::ChangedColumnFamily;
using presence_internal::SavedChanges;
using presence_internal::SavedColumnFamily;
using presence_internal::SavedFilters;

enum Mode { kSavedFile = 0, kChangesFile = 1, kBlocks = 2 };
constexpr int kModes = 3;
constexpr char kFullSave[] = "SSTFPRS1 the full save the changes follow";
constexpr uint64_t kExpectedKeys = 200;  // a few dozen blocks
constexpr int kHeldKeys = 100;

[[noreturn]] void Fail(const std::string& what) {
  fuzz::AbortIfError(absl::InternalError(what), "presence save check");
  __builtin_unreachable();
}

std::string HeldKey(int i) { return absl::StrCat("held", i); }

MutableBloomFilter HoldingFilter() {
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(FilterOptions::Fpp(0.01), kExpectedKeys);
  fuzz::AbortIfError(filter.status(), "creating the filter");
  for (int i = 0; i < kHeldKeys; ++i) filter->Add(HeldKey(i));
  return *std::move(filter);
}

void CheckSavedFile(absl::string_view bytes) {
  absl::StatusOr<SavedFilters> saved =
      presence_internal::DecodeSavedFilters(bytes);
  if (!saved.ok()) {
    if (!absl::IsDataLoss(saved.status())) Fail(saved.status().ToString());
    return;
  }
  if (presence_internal::EncodeSavedFilters(*saved) != bytes) {
    Fail("a decoded saved-filters file encodes to other bytes");
  }
  for (const std::string& encoded : saved->records) {
    absl::StatusOr<SavedColumnFamily> record =
        presence_internal::DecodeColumnFamilyRecord(encoded);
    if (!record.ok()) {
      if (!absl::IsDataLoss(record.status())) Fail(record.status().ToString());
      continue;
    }
    if (presence_internal::EncodeColumnFamilyRecord(*record) != encoded) {
      Fail("a decoded record encodes to other bytes");
    }
  }
}

void CheckChangesFile(absl::string_view bytes) {
  absl::StatusOr<SavedChanges> changes =
      presence_internal::DecodeSavedChanges(bytes, kFullSave);
  if (!changes.ok()) {
    if (!absl::IsDataLoss(changes.status()) &&
        !absl::IsFailedPrecondition(changes.status())) {
      Fail(changes.status().ToString());
    }
    return;
  }
  // A file of the layout before alphabets decodes to records without them,
  // which encode in today's layout: only their fields can be compared.
  if (bytes.substr(0, 8) == "SSTFPRC1") {
    for (const std::vector<ChangedColumnFamily>& record : changes->records) {
      for (const ChangedColumnFamily& changed : record) {
        if (!changed.alphabets.empty()) Fail("SSTFPRC1 gave alphabets");
      }
    }
    return;
  }
  std::string read = presence_internal::EncodeChangesHeader(kFullSave);
  for (const std::vector<ChangedColumnFamily>& record : changes->records) {
    read += presence_internal::EncodeChangesRecord(record);
  }
  if (bytes.substr(0, read.size()) != read) {
    Fail("decoded changes encode to other bytes than those read");
  }
  if (changes->stopped.empty() != (read.size() == bytes.size())) {
    Fail(absl::StrCat("the reading stopped at ", read.size(), " of ",
                      bytes.size(), " bytes, saying '", changes->stopped, "'"));
  }
}

void CheckBlocks(absl::string_view bytes) {
  MutableBloomFilter filter = HoldingFilter();
  const std::string before = filter.Save();
  const absl::Status applied = filter.ApplySavedBlocks(bytes);
  if (!applied.ok()) {
    if (!absl::IsDataLoss(applied)) Fail(applied.ToString());
    if (filter.Save() != before) Fail("refused blocks changed the filter");
    return;
  }
  for (int i = 0; i < kHeldKeys; ++i) {
    if (!filter.MayContain(HeldKey(i))) Fail("applied blocks lost a key");
  }
  const std::string once = filter.Save();
  if (!filter.ApplySavedBlocks(bytes).ok() || filter.Save() != once) {
    Fail("applying the same blocks twice changed the filter");
  }
}

std::vector<fuzz::Seed> Seeds() {
  std::vector<fuzz::Seed> seeds;
  const auto seed = [&](const std::string& name, Mode mode,
                        const std::string& bytes) {
    seeds.push_back({name, std::string(1, static_cast<char>(mode)) + bytes});
  };
  MutableBloomFilter filter = HoldingFilter();
  SavedColumnFamily record;
  record.id = 3;
  record.name = "default";
  record.latest_sequence = 12345;
  record.tables = {{7, 4096}, {9, 1 << 20}};
  record.filter = filter.Save();
  SavedFilters saved;
  saved.db_identity = "fuzz-database";
  saved.records = {presence_internal::EncodeColumnFamilyRecord(record)};
  seed("saved_file_one_record", kSavedFile,
       presence_internal::EncodeSavedFilters(saved));
  seed("saved_file_empty", kSavedFile,
       presence_internal::EncodeSavedFilters(SavedFilters()));

  MutableBloomFilter changed = HoldingFilter();
  changed.TrackChanges().IgnoreError();
  changed.TakeChangedBlocks();
  for (int i = 0; i < 20; ++i) changed.Add(absl::StrCat("new", i));
  const std::string blocks = changed.SaveBlocks(changed.TakeChangedBlocks());
  std::string changes = presence_internal::EncodeChangesHeader(kFullSave);
  changes += presence_internal::EncodeChangesRecord(
      {{3, 12400, {{7, 4096}, {11, 300}}, blocks, ""}});
  changes += presence_internal::EncodeChangesRecord({});
  seed("changes_two_records", kChangesFile, changes);
  seed("changes_torn", kChangesFile, changes.substr(0, changes.size() - 3));
  seed("blocks_of_20_keys", kBlocks, blocks);
  seed("blocks_none", kBlocks, changed.SaveBlocks({}));
  return seeds;
}

[[maybe_unused]] const bool kSeedsRegistered =
    (fuzz::RegisterSeedGenerator(&Seeds), true);

}  // namespace
}  // namespace sstfilter

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // A copy of exactly the bytes read, so that a read past them is caught.
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % sstfilter::kModes) {
    case sstfilter::kSavedFile:
      sstfilter::CheckSavedFile(bytes);
      break;
    case sstfilter::kChangesFile:
      sstfilter::CheckChangesFile(bytes);
      break;
    default:
      sstfilter::CheckBlocks(bytes);
      break;
  }
  return 0;
}
