// What a reader makes of a filter's bytes, and the reader of a filter that
// gives the same answer to every key. The rules are LevelDB's and RocksDB's:
// a filter too short to hold anything matches nothing; reserved or
// inconsistent metadata may match everything, since a wrong "no" loses a key
// while a wrong "maybe" only costs a read.
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_VERDICT_H_
#define SSTFILTER_FILTER_INTERNAL_VERDICT_H_

#include <memory>

#include "filter/filter_format.h"

namespace sstfilter {
namespace filter_internal {

enum class Verdict {
  kMatchNothing,  // an empty key set, or too short to be a filter
  kMatchAll,      // unknown format or inconsistent metadata: "may match"
  kProbe,         // a well-formed filter
};

// The answer every key gets from a filter of this verdict.
// REQUIRES: verdict != Verdict::kProbe.
inline bool ConstantAnswer(Verdict verdict) {
  return verdict == Verdict::kMatchAll;
}

// A reader that answers ConstantAnswer(verdict) to every key, with
// ExpectedFpp() 0 or 1. REQUIRES: verdict != Verdict::kProbe.
std::unique_ptr<FilterReader> NewConstantReader(Verdict verdict);

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_VERDICT_H_
