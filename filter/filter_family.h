// The two families of sstfilter's own table filters, named once for every
// place that chooses between them: a hybrid policy (filter/hybrid/hybrid.h)
// builds one of them, and a tree's allocation (engines/tree/) picks one per
// level, or none.

#ifndef SSTFILTER_FILTER_FILTER_FAMILY_H_
#define SSTFILTER_FILTER_FILTER_FAMILY_H_

namespace sstfilter {

enum class FilterFamily {
  kNone,     // no filter: every lookup reads the level's tables
  kNative,   // the cache-local Bloom filter (NewBloomFilterPolicy)
  kCompact,  // the bumped Ribbon filter (NewBurrFilterPolicy)
};

// "none", "native" or "compact": the names spec strings and reports use.
constexpr const char* FilterFamilyName(FilterFamily family) {
  switch (family) {
    case FilterFamily::kNone:
      return "none";
    case FilterFamily::kNative:
      return "native";
    case FilterFamily::kCompact:
      return "compact";
  }
  return "?";
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_FAMILY_H_
