// A comparator that calls keys of different bytes equal, the kind of column
// family PresenceFilteredDB leaves without a filter: for its tests.

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_CASE_BLIND_COMPARATOR_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_CASE_BLIND_COMPARATOR_H_

#include <algorithm>
#include <cctype>
#include <string>

#include "rocksdb/comparator.h"
#include "rocksdb/slice.h"

namespace sstfilter {
namespace presence_testing {

// Orders keys ignoring ASCII case, so that "KEY1" and "key1" are one key.
class CaseBlindComparator : public rocksdb::Comparator {
 public:
  const char* Name() const override { return "sstfilter.test.CaseBlind"; }
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    const size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
      const int x = std::tolower(static_cast<unsigned char>(a[i]));
      const int y = std::tolower(static_cast<unsigned char>(b[i]));
      if (x != y) return x < y ? -1 : 1;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
  }
  void FindShortestSeparator(std::string*,
                             const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

}  // namespace presence_testing
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_CASE_BLIND_COMPARATOR_H_
