// The read side of a format whose filters parse into a struct with a Verdict
// (the native and compact formats' ParsedFilter), as a FilterFormat: every
// call parses the filter, answers a malformed one by its verdict (verdict.h)
// and hands a well-formed one to the query path fixed at construction.
// KeyMayMatch costs one parse and one query, and builds no reader. The
// template's requirements on the format are stated on ParsedFormat below.
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_PARSED_FORMAT_H_
#define SSTFILTER_FILTER_INTERNAL_PARSED_FORMAT_H_

#include <memory>
#include <type_traits>

#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/internal/cpu_features.h"
#include "filter/internal/verdict.h"

namespace sstfilter {
namespace filter_internal {

// Whether the query paths Path include kAvx512.
template <typename Path, typename = void>
struct HasAvx512Path : std::false_type {};
template <typename Path>
struct HasAvx512Path<Path, std::void_t<decltype(Path::kAvx512)>>
    : std::true_type {};

// The template arguments are the format's parsed form, its query paths (an
// enum with kScalar and kAvx2, and kAvx512 where it has that path), its
// parser, and what its Describe adds to the kind. Its readers are found in
// Parsed's namespace, under the names both families use:
//
//   std::unique_ptr<FilterReader> NewScalarReader(const Parsed&);
//   std::unique_ptr<FilterReader> NewAvx2Reader(const Parsed&);
//   std::unique_ptr<FilterReader> NewAvx512Reader(const Parsed&);  // kAvx512
//   bool ScalarMayMatch(const Parsed&, absl::string_view key);
//   bool Avx2MayMatchOutOfLine(const Parsed&, absl::string_view key);
template <typename Parsed, typename Path, Parsed (*kParse)(absl::string_view),
          void (*kDescribe)(const Parsed&, FilterFacts*)>
class ParsedFormat final : public FilterFormat {
 public:
  // name: what Name() returns; kind: FilterFacts::kind. REQUIRES: both live
  // as long as the format.
  ParsedFormat(const char* name, const char* kind, Path path)
      : name_(name), kind_(kind), path_(path) {}

  const char* Name() const override { return name_; }

  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    const Parsed parsed = kParse(filter);
    if (parsed.verdict != Verdict::kProbe)
      return NewConstantReader(parsed.verdict);
#if SSTFILTER_HAVE_AVX2_PATH
    if constexpr (HasAvx512Path<Path>::value) {
      if (path_ == Path::kAvx512) return NewAvx512Reader(parsed);
    }
    if (path_ == Path::kAvx2) return NewAvx2Reader(parsed);
#endif
    return NewScalarReader(parsed);
  }

  bool KeyMayMatch(absl::string_view key,
                   absl::string_view filter) const override {
    const Parsed parsed = kParse(filter);
    if (parsed.verdict != Verdict::kProbe)
      return ConstantAnswer(parsed.verdict);
#if SSTFILTER_HAVE_AVX2_PATH
    // Every vector path asks one key with the AVX2 code: after a parse, a
    // wider vector has no lead.
    if (path_ != Path::kScalar) return Avx2MayMatchOutOfLine(parsed, key);
#endif
    return ScalarMayMatch(parsed, key);
  }

  FilterFacts Describe(absl::string_view filter) const override {
    FilterFacts facts;
    facts.kind = kind_;
    const Parsed parsed = kParse(filter);
    if (parsed.verdict == Verdict::kProbe) kDescribe(parsed, &facts);
    return facts;
  }

 private:
  const char* const name_;
  const char* const kind_;
  const Path path_;
};

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_PARSED_FORMAT_H_
