// The read side of a format whose filters parse into a struct with a Verdict
// (the native and compact formats' ParsedFilter), as a FilterFormat: every
// call parses the filter, answers a malformed one by its verdict (verdict.h)
// and hands a well-formed one to the query path fixed at construction.
// KeyMayMatch costs one parse and one query, and builds no reader.
//
// A format supplies its pieces as the static members of Parts:
//
//   using Parsed = ...;  // with a member `Verdict verdict`
//   using Path = ...;    // its query paths (scalar, AVX2, ...)
//   static const char* Name();  // FilterFormat::Name
//   static const char* Kind();  // FilterFacts::kind
//   static Parsed Parse(absl::string_view filter);
//   static std::unique_ptr<FilterReader> NewReader(const Parsed&, Path);
//   static bool MayMatch(const Parsed&, absl::string_view key, Path);
//   static void Describe(const Parsed&, FilterFacts*);  // beyond the kind
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_PARSED_FORMAT_H_
#define SSTFILTER_FILTER_INTERNAL_PARSED_FORMAT_H_

#include <memory>

#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace filter_internal {

template <typename Parts>
class ParsedFormat final : public FilterFormat {
 public:
  using Parsed = typename Parts::Parsed;
  using Path = typename Parts::Path;

  explicit ParsedFormat(Path path) : path_(path) {}

  const char* Name() const override { return Parts::Name(); }

  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    const Parsed parsed = Parts::Parse(filter);
    if (parsed.verdict != Verdict::kProbe)
      return NewConstantReader(parsed.verdict);
    return Parts::NewReader(parsed, path_);
  }

  bool KeyMayMatch(absl::string_view key,
                   absl::string_view filter) const override {
    const Parsed parsed = Parts::Parse(filter);
    if (parsed.verdict != Verdict::kProbe)
      return ConstantAnswer(parsed.verdict);
    return Parts::MayMatch(parsed, key, path_);
  }

  FilterFacts Describe(absl::string_view filter) const override {
    FilterFacts facts;
    facts.kind = Parts::Kind();
    const Parsed parsed = Parts::Parse(filter);
    if (parsed.verdict == Verdict::kProbe) Parts::Describe(parsed, &facts);
    return facts;
  }

 private:
  const Path path_;
};

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_PARSED_FORMAT_H_
