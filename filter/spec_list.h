// The value of every tool's --filter flag: a comma-separated list of filter
// specs (filter_spec.h, inmemory/spec/) and, in the benchmarks, other
// libraries' filters named as lib: peers. Which families a tool takes is the
// tool's to check; the list's own faults are refused while flags are parsed.
//
//   ABSL_FLAG(sstfilter::SpecList, filter, {}, "what to run");
//   for (const std::string& entry : absl::GetFlag(FLAGS_filter).entries) ...

#ifndef SSTFILTER_FILTER_SPEC_LIST_H_
#define SSTFILTER_FILTER_SPEC_LIST_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

// What another library's filter's name starts with, so that it is never taken
// for a spec family: "lib:rocksdb.fastbloom", "lib:leveldb.bloom".
inline constexpr char kPeerPrefix[] = "lib:";

// Whether entry names another library's filter (starts with kPeerPrefix).
bool IsPeerName(absl::string_view entry);

struct SpecList {
  // In the order given, none twice; empty when the flag is.
  std::vector<std::string> entries;
};

// Splits text at commas; "" is the empty list. InvalidArgumentError, one line
// naming the entry, for an empty entry, an entry given twice, a peer with no
// name or with a colon in it, and a spec SplitSpec refuses.
absl::StatusOr<SpecList> ParseSpecList(absl::string_view text);

// Abseil's flag hooks: ParseSpecList, and the entries joined by commas.
bool AbslParseFlag(absl::string_view text, SpecList* list, std::string* error);
std::string AbslUnparseFlag(const SpecList& list);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_SPEC_LIST_H_
