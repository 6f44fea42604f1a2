// Fuzzes the table reader behind its checksums: each input edits one block of
// a small real table (table_edit.h: the script format, and how checksums and
// handles are kept valid), so that mutations reach the metaindex, index,
// properties, partition index, partition and filter parsers, and then checks
// TableFilter's answers, not only that it did not crash.
//
// After the edit the table may fail to open (any error). If it opens, for
// every key of the table and some absent keys:
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
//    may. The same for PrefixMayMatch of their prefixes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
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

// Each base table opened as written, and what it reads as its filter.
struct Opened {
  std::unique_ptr<TableFilter> table;
  Reading reading;
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
      v->push_back({*std::move(table), std::move(reading)});
    }
    return v;
  }();
  return *opened;
}

absl::Status CheckEdit(const uint8_t* data, size_t size) {
  const EditedTable edited = ApplyEditScript(data, size);
  const BaseTable& base = *edited.base;
  const Reading& before =
      OpenedBaseTables()[static_cast<size_t>(edited.base - &BaseTables()[0])]
          .reading;
  TableFilterOptions options = base.options;
  if (edited.flags & kSmallTail) options.tail_prefetch_bytes = 64;
  const std::string file_copy = edited.file;  // the file reads from it
  absl::StatusOr<std::unique_ptr<TableFilter>> opened =
      TableFilter::Open(NewStringFile(file_copy), options);
  if (!opened.ok()) return absl::OkStatus();
  const TableFilter& table = **opened;
  table.LoadAllPartitions().IgnoreError();
  const Reading after = Read(table, file_copy);
  const TableFilterInfo& info = table.info();
  const bool same_meaning = after.meaning == before.meaning;
  const bool same_filter = after.filter_data == before.filter_data;
  const bool keeps_keys =
      same_meaning && (same_filter || FormatDetectsCorruption(after.format));
  const bool unusable = info.filter.has_value() &&
                        table.filter_block() == nullptr &&
                        info.partitions.empty();
  const bool corrupt = !table.corruption().ok();
  const std::string what =
      absl::StrCat(base.name, ", ", BlockKindName(edited.block.kind),
                   " edited (meaning ", same_meaning ? "same" : "changed",
                   ", filter bytes ", same_filter ? "same" : "changed",
                   ", corruption: ", table.corruption().ToString(), ")");

  std::vector<absl::string_view> keys(base.keys.begin(), base.keys.end());
  keys.insert(keys.end(), base.absent.begin(), base.absent.end());
  std::vector<bool> answers(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool known = i < base.keys.size();
    const bool answer = table.KeyMayMatch(keys[i]);
    answers[i] = answer;
    if (answer) continue;
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

  // The batched reader of the same bytes answers as KeyMayMatch did.
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

// The index of the first block of this kind, or 0.
size_t BlockOf(const BaseTable& table, BlockKind kind, size_t nth = 0) {
  for (size_t i = 0; i < table.blocks.size(); ++i) {
    if (table.blocks[i].kind == kind && nth-- == 0) return i;
  }
  return 0;
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
  sstfilter::fuzz::AbortIfError(sstfilter::fuzz::CheckEdit(data, size),
                                "table edit check");
  return 0;
}
