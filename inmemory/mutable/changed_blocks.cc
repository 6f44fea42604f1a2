#include "inmemory/mutable/changed_blocks.h"

#include <new>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace sstfilter {
namespace mutable_internal {

absl::StatusOr<std::unique_ptr<ChangedBlocks>> ChangedBlocks::Create(
    uint64_t blocks) {
  const uint64_t words = (blocks + 63) / 64;
  // Value-initialised: every mark clear.
  std::unique_ptr<std::atomic<uint64_t>[]> marks(
      new (std::nothrow) std::atomic<uint64_t>[words]());
  if (marks == nullptr) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot allocate the change marks of ", blocks, " blocks"));
  }
  return std::unique_ptr<ChangedBlocks>(
      new ChangedBlocks(blocks, std::move(marks)));
}

std::vector<uint64_t> ChangedBlocks::Take() {
  std::vector<uint64_t> taken;
  const uint64_t words = (blocks_ + 63) / 64;
  for (uint64_t w = 0; w < words; ++w) {
    if (words_[w].load(std::memory_order_relaxed) == 0) continue;
    uint64_t marks = words_[w].exchange(0, std::memory_order_acquire);
    while (marks != 0) {
      taken.push_back(w * 64 + static_cast<uint64_t>(__builtin_ctzll(marks)));
      marks &= marks - 1;
    }
  }
  return taken;
}

}  // namespace mutable_internal
}  // namespace sstfilter
