// A BackgroundWorkListener that keeps the cause of each rebuild of a
// presence filter as it begins (PresenceRebuildReasonName), in order, and
// ignores everything else: for tests that ask why a filter was rebuilt
// without racing the rebuilds that follow (Stats().last_rebuild names only
// the latest).

#ifndef SSTFILTER_TESTS_CRASH_REBUILD_CAUSES_H_
#define SSTFILTER_TESTS_CRASH_REBUILD_CAUSES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "tests/crash/background_work.h"

namespace sstfilter {
namespace test {

class RebuildCauses : public BackgroundWorkListener {
 public:
  void Began(BackgroundKind kind, uint64_t /*id*/,
             const std::string& cause) override {
    if (kind != BackgroundKind::kRebuild) return;
    absl::MutexLock lock(&mu_);
    causes_.push_back(cause);
  }
  void Ended(BackgroundKind /*kind*/, uint64_t /*id*/) override {}

  // The causes of the rebuilds begun so far, the first first.
  std::vector<std::string> causes() const {
    absl::MutexLock lock(&mu_);
    return causes_;
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<std::string> causes_ ABSL_GUARDED_BY(mu_);
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CRASH_REBUILD_CAUSES_H_
