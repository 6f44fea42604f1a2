#include "filter/spec_list.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "filter/spec_grammar.h"

namespace sstfilter {

bool IsPeerName(absl::string_view entry) {
  return absl::StartsWith(entry, kPeerPrefix);
}

namespace {

absl::Status CheckEntry(absl::string_view entry) {
  if (entry.empty()) {
    return absl::InvalidArgumentError(
        "empty entry (a leading, trailing or doubled comma)");
  }
  if (IsPeerName(entry)) {
    const absl::string_view name = entry.substr(sizeof(kPeerPrefix) - 1);
    if (name.empty() || absl::StrContains(name, ':')) {
      return absl::InvalidArgumentError(absl::StrCat(
          "\"", entry, "\" is not ", kPeerPrefix,
          "NAME (a library's filter, e.g. lib:rocksdb.fastbloom)"));
    }
    return absl::OkStatus();
  }
  return SplitSpec(entry).status();
}

}  // namespace

absl::StatusOr<SpecList> ParseSpecList(absl::string_view text) {
  SpecList list;
  if (text.empty()) return list;
  for (absl::string_view entry : absl::StrSplit(text, ',')) {
    if (absl::Status status = CheckEntry(entry); !status.ok()) return status;
    if (std::find(list.entries.begin(), list.entries.end(), entry) !=
        list.entries.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", entry, "\" listed twice"));
    }
    list.entries.emplace_back(entry);
  }
  return list;
}

bool AbslParseFlag(absl::string_view text, SpecList* list, std::string* error) {
  absl::StatusOr<SpecList> parsed = ParseSpecList(text);
  if (!parsed.ok()) {
    *error = std::string(parsed.status().message());
    return false;
  }
  *list = *std::move(parsed);
  return true;
}

std::string AbslUnparseFlag(const SpecList& list) {
  return absl::StrJoin(list.entries, ",");
}

}  // namespace sstfilter
