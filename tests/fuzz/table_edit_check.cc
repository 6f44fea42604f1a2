#include "tests/fuzz/table_edit_check.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table/random_access_file.h"
#include "table/table_filter.h"
#include "tests/fuzz/fuzz_checks.h"
#include "tests/fuzz/self_checking_formats.h"
#include "tests/fuzz/table_edit.h"
#include "util/coding.h"

namespace sstfilter {
namespace fuzz {
namespace {

// The keys asked of a table: every key in it, then the absent ones.
std::vector<absl::string_view> Keys(const BaseTable& base) {
  std::vector<absl::string_view> keys(base.keys.begin(), base.keys.end());
  keys.insert(keys.end(), base.absent.begin(), base.absent.end());
  return keys;
}

std::vector<bool> Answers(const TableFilter& table,
                          const std::vector<absl::string_view>& keys) {
  std::vector<bool> answers(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    answers[i] = table.KeyMayMatch(keys[i]);
  }
  return answers;
}

// What TableFilter reads as the filter, and what tells it how to read it.
struct Reading {
  std::string meaning;                   // all but the filter bytes
  std::vector<std::string> filter_data;  // filter block, or each partition
  std::string format;
};

// The per-2 KB layout's index block as the file's footer finds it, or a
// marker when it cannot be read.
std::string IndexContents(absl::string_view file) {
  absl::StatusOr<Footer> footer = DecodeFooter(file, file.size());
  if (!footer.ok() || !BlockFits(footer->index, file.size())) return "\xff?";
  const BlockHandle& h = footer->index;
  std::string scratch;
  absl::StatusOr<absl::string_view> contents =
      UncompressBlock("index", static_cast<uint8_t>(file[h.offset + h.size]),
                      file.substr(h.offset, h.size), &scratch);
  return contents.ok() ? std::string(*contents) : "\xff?";
}

// The bytes of a per-2 KB filter block that route keys to its filters: from
// the offset array to the end (the whole block when it is too short to say).
absl::string_view LevelDbRouting(absl::string_view block) {
  if (block.size() < 5) return block;
  const uint32_t array_offset = DecodeFixed32(block.data() + block.size() - 5);
  return array_offset > block.size() - 5 ? block : block.substr(array_offset);
}

Reading Read(const TableFilter& table, absl::string_view file) {
  const TableFilterInfo& info = table.info();
  Reading r;
  r.format = table.format() == nullptr ? "" : table.format()->Name();
  r.meaning = absl::StrCat(r.format, "|", info.whole_keys, "|",
                           info.prefix_extractor.value_or("(none)"));
  if (info.filter.has_value()) {
    absl::StrAppend(&r.meaning, "|", FilterLayoutName(info.filter->layout), "|",
                    info.filter->policy_name);
    if (info.filter->layout == FilterLayout::kPerDataRange) {
      absl::StrAppend(&r.meaning, "|",
                      absl::BytesToHexString(IndexContents(file)));
    }
  }
  if (info.properties.has_value()) {
    const TableProperties& p = *info.properties;
    absl::StrAppend(&r.meaning, "|", p.index_key_is_user_key.value_or(9), "|",
                    p.index_value_is_delta_encoded.value_or(9));
  }
  for (const FilterPartition& p : info.partitions) {
    absl::StrAppend(&r.meaning, "|", absl::BytesToHexString(p.index_key));
  }
  if (info.partitions.empty()) {
    const absl::string_view block = table.filter_block_contents();
    r.filter_data.emplace_back(block);
    if (info.filter.has_value() &&
        info.filter->layout == FilterLayout::kPerDataRange) {
      // LevelDB's offset array and its own five trailing bytes route a key
      // to a filter; no filter's checksum covers them
      // (filter/format_version_2.md), so they are part of what the block means.
      absl::StrAppend(&r.meaning, "|routing ",
                      absl::BytesToHexString(LevelDbRouting(block)));
    }
  }
  for (size_t i = 0; i < info.partitions.size(); ++i) {
    r.filter_data.emplace_back(table.partition_contents(i));
  }
  return r;
}

// Each base table opened as written, what it reads as its filter, and its
// answers to Keys(base).
struct Opened {
  std::unique_ptr<TableFilter> table;
  Reading reading;
  std::vector<bool> answers;
};

const std::vector<Opened>& OpenedBaseTables() {
  static const std::vector<Opened>* const opened = [] {
    auto* v = new std::vector<Opened>();
    for (const BaseTable& base : BaseTables()) {
      absl::StatusOr<std::unique_ptr<TableFilter>> table =
          TableFilter::Open(NewStringFile(base.file), base.options);
      AbortIfError(table.status(), base.name.c_str());
      (*table)->LoadAllPartitions().IgnoreError();
      AbortIfError((*table)->corruption(), base.name.c_str());
      Reading reading = Read(**table, base.file);
      std::vector<bool> answers = Answers(**table, Keys(base));
      v->push_back({*std::move(table), std::move(reading), std::move(answers)});
    }
    return v;
  }();
  return *opened;
}

// Whether a filter block, or a partition that passed its checksum, holds
// other bytes than before.
bool FilterBytesChanged(const Reading& before, const Reading& after) {
  for (size_t i = 0; i < after.filter_data.size(); ++i) {
    if (after.filter_data[i].empty()) continue;  // failed its checksum
    if (i >= before.filter_data.size() ||
        after.filter_data[i] != before.filter_data[i]) {
      return true;
    }
  }
  return false;
}

// How far an opened edit got (EditReach), from what it reads as its filter.
EditReach ReachOf(const TableFilter& table, const Reading& before,
                  const Reading& after) {
  const TableFilterInfo& info = table.info();
  // The filter block (or partition index) passed its checksum and parsed,
  // and a format reads it; a format's own check of its bytes may still
  // reject them, which is an answer of its reader.
  const bool filter_read =
      info.filter.has_value() && table.format() != nullptr &&
      (table.filter_block() != nullptr || !info.partitions.empty());
  if (!filter_read) return EditReach::kFilterNotRead;
  if (FilterBytesChanged(before, after)) return EditReach::kFilterBytesChanged;
  if (after.meaning != before.meaning) return EditReach::kMeaningChanged;
  // What differs is a partition that failed its checksum.
  if (after.filter_data != before.filter_data) {
    return EditReach::kFilterNotRead;
  }
  return EditReach::kFilterAsBefore;
}

// The checks of the header's comment on an opened table, whose keys got
// these answers.
absl::Status CheckAnswers(const TableFilter& table, const BaseTable& base,
                          const Reading& before, const Reading& after,
                          const std::string& what,
                          const std::vector<absl::string_view>& keys,
                          const std::vector<bool>& answers) {
  const TableFilterInfo& info = table.info();
  const bool same_meaning = after.meaning == before.meaning;
  const bool same_filter = after.filter_data == before.filter_data;
  const bool keeps_keys =
      same_meaning && (same_filter || FormatDetectsCorruption(after.format));
  const bool unusable = info.filter.has_value() &&
                        table.filter_block() == nullptr &&
                        info.partitions.empty();
  const bool corrupt = !table.corruption().ok();
  for (size_t i = 0; i < keys.size(); ++i) {
    if (answers[i]) continue;
    const bool known = i < base.keys.size();
    const char* why = nullptr;
    if (unusable) {
      why = "an unusable filter";
    } else if (known && keeps_keys) {
      why = "a filter read as before";
    } else if (corrupt && !info.partitions.empty()) {
      const std::optional<size_t> p = table.PartitionOf(keys[i]);
      if (p.has_value() && table.partition_contents(*p).empty() &&
          info.partitions[*p].handle.size > 0) {
        why = "an unreadable partition";
      }
    }
    if (why != nullptr) {
      return absl::InternalError(
          absl::StrCat(what, ": ", known ? "table" : "absent", " key \"",
                       absl::CHexEscape(keys[i]), "\" answered no from ", why));
    }
  }
  if (keeps_keys && table.FiltersPrefixes() && base.prefix_extractor) {
    for (const std::string& key : base.keys) {
      if (!base.prefix_extractor->InDomain(key)) continue;
      const absl::string_view prefix = base.prefix_extractor->Transform(key);
      if (!table.PrefixMayMatch(prefix)) {
        return absl::InternalError(
            absl::StrCat(what, ": prefix \"", absl::CHexEscape(prefix),
                         "\" of a table key answered no"));
      }
    }
  }
  return absl::OkStatus();
}

// The batched reader of the same bytes answers as KeyMayMatch did.
absl::Status CheckBatchedAgrees(const TableFilter& table,
                                const std::string& what,
                                const std::vector<absl::string_view>& keys,
                                const std::vector<bool>& answers) {
  const TableFilterInfo& info = table.info();
  if (!info.whole_keys || table.format() == nullptr) return absl::OkStatus();
  const bool full = info.filter.has_value() &&
                    info.filter->layout == FilterLayout::kFull &&
                    table.filter_block() != nullptr;
  for (size_t part = 0; part < std::max<size_t>(1, info.partitions.size());
       ++part) {
    absl::string_view filter;
    std::vector<size_t> asked;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (full) {
        asked.push_back(i);
      } else if (!info.partitions.empty() &&
                 table.PartitionOf(keys[i]) == part) {
        asked.push_back(i);
      }
    }
    if (full) {
      filter = table.filter_block_contents();
    } else if (!info.partitions.empty()) {
      filter = table.partition_contents(part);
    }
    if (asked.empty() || (!full && filter.empty())) continue;
    std::vector<absl::string_view> batch;
    for (size_t i : asked) batch.push_back(keys[i]);
    const std::unique_ptr<bool[]> batched(new bool[batch.size()]);
    table.format()->NewReader(filter)->MayMatch(batch, batched.get());
    for (size_t j = 0; j < batch.size(); ++j) {
      if (batched[j] != answers[asked[j]]) {
        return absl::InternalError(absl::StrCat(
            what, ": key \"", absl::CHexEscape(batch[j]), "\": KeyMayMatch ",
            answers[asked[j]], ", batched reader ", batched[j]));
      }
    }
  }
  return absl::OkStatus();
}

// An edit that left the file as it was reads and answers as the unedited
// table does.
absl::Status CheckUnchanged(const Opened& base, const Reading& after,
                            const std::string& what,
                            const std::vector<absl::string_view>& keys,
                            const std::vector<bool>& answers) {
  if (after.meaning != base.reading.meaning ||
      after.filter_data != base.reading.filter_data) {
    return absl::InternalError(absl::StrCat(
        what, ": the file is unchanged, but its filter reads as \"",
        absl::CHexEscape(after.meaning), "\" (", after.filter_data.size(),
        " filter blocks), not as \"", absl::CHexEscape(base.reading.meaning),
        "\" (", base.reading.filter_data.size(), ")"));
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (answers[i] != base.answers[i]) {
      return absl::InternalError(absl::StrCat(
          what, ": the file is unchanged, but key \"",
          absl::CHexEscape(keys[i]), "\" answers ", answers[i] ? "yes" : "no",
          " where the unedited table answers ",
          base.answers[i] ? "yes" : "no"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

const char* EditReachName(EditReach reach) {
  switch (reach) {
    case EditReach::kNotOpened:
      return "not opened";
    case EditReach::kFilterNotRead:
      return "filter not read";
    case EditReach::kFilterAsBefore:
      return "filter as before";
    case EditReach::kMeaningChanged:
      return "meaning changed";
    case EditReach::kFilterBytesChanged:
      return "filter bytes changed";
  }
  return "?";
}

EditOutcome CheckEdit(const uint8_t* data, size_t size) {
  const EditedTable edited = ApplyEditScript(data, size);
  const BaseTable& base = *edited.base;
  EditOutcome outcome;
  outcome.table = static_cast<size_t>(edited.base - &BaseTables()[0]);
  const Opened& opened_base = OpenedBaseTables()[outcome.table];
  const bool unchanged_file = edited.file == base.file;
  TableFilterOptions options = base.options;
  if (edited.flags & kSmallTail) options.tail_prefetch_bytes = 64;
  const std::string file_copy = edited.file;  // the file reads from it
  absl::StatusOr<std::unique_ptr<TableFilter>> opened =
      TableFilter::Open(NewStringFile(file_copy), options);
  if (!opened.ok()) {
    if (unchanged_file) {
      outcome.status = absl::InternalError(
          absl::StrCat(base.name, ", ", BlockKindName(edited.block.kind),
                       " unedited: the file is unchanged, but it does not "
                       "open: ",
                       opened.status().ToString()));
    }
    return outcome;
  }
  const TableFilter& table = **opened;
  table.LoadAllPartitions().IgnoreError();
  const Reading after = Read(table, file_copy);
  outcome.reach = ReachOf(table, opened_base.reading, after);
  const std::string what =
      absl::StrCat(base.name, ", ", BlockKindName(edited.block.kind),
                   " edited (", EditReachName(outcome.reach),
                   ", corruption: ", table.corruption().ToString(), ")");
  const std::vector<absl::string_view> keys = Keys(base);
  const std::vector<bool> answers = Answers(table, keys);
  outcome.status = CheckAnswers(table, base, opened_base.reading, after, what,
                                keys, answers);
  if (outcome.status.ok()) {
    outcome.status = CheckBatchedAgrees(table, what, keys, answers);
  }
  if (outcome.status.ok() && unchanged_file) {
    outcome.status = CheckUnchanged(opened_base, after, what, keys, answers);
  }
  return outcome;
}

absl::Status CheckUneditedTablesReopen() {
  const std::vector<BaseTable>& tables = BaseTables();
  for (size_t t = 0; t < tables.size(); ++t) {
    for (size_t b = 0; b < tables[t].blocks.size(); ++b) {
      const std::string script = EncodeEditScript(t, b, 0, 0, {});
      const uint8_t* data = reinterpret_cast<const uint8_t*>(script.data());
      const std::string what =
          absl::StrCat(tables[t].name, " block ", b, " (",
                       BlockKindName(tables[t].blocks[b].kind), ")");
      const EditedTable edited = ApplyEditScript(data, script.size());
      if (edited.file != tables[t].file) {
        const size_t at = static_cast<size_t>(
            std::mismatch(edited.file.begin(), edited.file.end(),
                          tables[t].file.begin(), tables[t].file.end())
                .first -
            edited.file.begin());
        return absl::InternalError(absl::StrCat(
            what, ": the edit script with no edits changes the file (",
            tables[t].file.size(), " bytes) at byte ", at, " (now ",
            edited.file.size(), " bytes)"));
      }
      const EditOutcome outcome = CheckEdit(data, script.size());
      if (!outcome.status.ok()) return outcome.status;
      if (outcome.reach != EditReach::kFilterAsBefore) {
        return absl::InternalError(
            absl::StrCat(what, ": unedited, but its filter reads as \"",
                         EditReachName(outcome.reach), "\""));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace fuzz
}  // namespace sstfilter
