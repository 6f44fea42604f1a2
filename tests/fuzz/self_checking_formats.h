// The filter formats that detect changes to their own bytes (a checksum inside
// the filter): a reader of such a format answers "may match" for a changed
// filter instead of a wrong "no". table_edit_fuzzer holds these formats to
// that promise; for every other format, a changed filter may lose keys.
#ifndef SSTFILTER_TESTS_FUZZ_SELF_CHECKING_FORMATS_H_
#define SSTFILTER_TESTS_FUZZ_SELF_CHECKING_FORMATS_H_

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace fuzz {

// Registered format names (format_registry.h): version 2 of sstfilter's own
// families, which store a CRC32C of the filter (filter/format_version_2.md). A
// format that checks itself is added here when it is registered.
inline bool FormatDetectsCorruption(absl::string_view format_name) {
  for (absl::string_view name :
       {"sstfilter.LocalBloom2", "sstfilter.BumpedRibbon2",
        "sstfilter.Hybrid2"}) {
    if (name == format_name) return true;
  }
  return false;
}

}  // namespace fuzz
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_FUZZ_SELF_CHECKING_FORMATS_H_
