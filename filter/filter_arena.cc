#include "filter/filter_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <new>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "filter/internal/cpu_features.h"

namespace sstfilter {
namespace {

static_assert(FilterArena::kAlignment % filter_internal::kCacheLineBytes == 0,
              "a copy starts on a cache line");

size_t RoundUp(size_t n, size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

}  // namespace

FilterArena::~FilterArena() {
  for (const Region& region : regions_) munmap(region.start, region.size);
}

void FilterArena::AddRegion(size_t size) {
  // Mapped with a huge page of slack, then trimmed to start on a huge-page
  // boundary: mmap only promises 4 KiB alignment, and the kernel backs only
  // whole aligned 2 MiB spans with a huge page.
  const size_t padded = size + kHugePageBytes;
  void* mapped = mmap(nullptr, padded, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  char* const base = static_cast<char*>(mapped);
  const uintptr_t address = reinterpret_cast<uintptr_t>(base);
  char* const start = base + (RoundUp(address, kHugePageBytes) - address);
  if (start > base) munmap(base, static_cast<size_t>(start - base));
  const size_t tail = padded - static_cast<size_t>(start - base) - size;
  if (tail > 0) munmap(start + size, tail);
#ifdef MADV_HUGEPAGE
  // Advice only: where the kernel refuses (THP "never", or no such flag), the
  // region keeps ordinary pages.
  if (options_.huge_pages) madvise(start, size, MADV_HUGEPAGE);
#endif
  regions_.push_back(Region{start, size});
  mapped_bytes_ += size;
  next_ = start;
  left_ = size;
}

char* FilterArena::Allocate(size_t size) {
  const size_t rounded = RoundUp(std::max<size_t>(size, 1), kAlignment);
  std::lock_guard<std::mutex> lock(mutex_);
  if (rounded > left_) {
    // Doubling keeps the number of regions, and so of partly used huge
    // pages, logarithmic in the bytes held.
    const size_t doubled =
        std::min(std::max(mapped_bytes_, kHugePageBytes), kMaxRegionBytes);
    AddRegion(std::max(doubled, RoundUp(rounded, kHugePageBytes)));
  }
  char* const at = next_;
  next_ += rounded;
  left_ -= rounded;
  return at;
}

absl::string_view FilterArena::Copy(absl::string_view bytes) {
  char* const at = Allocate(bytes.size());
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
  return absl::string_view(at, bytes.size());
}

size_t FilterArena::MappedBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return mapped_bytes_;
}

size_t FilterArena::HugePageBytes() const {
  // smaps lists each mapping as a "start-end perms ..." line followed by
  // "Field: value kB" lines; the kernel may have split or merged our regions,
  // so count every mapping that starts inside one.
  std::vector<Region> regions;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    regions = regions_;
  }
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool ours = false;
  size_t huge_bytes = 0;
  while (std::getline(smaps, line)) {
    const size_t dash = line.find('-');
    uint64_t start;
    if (dash != std::string::npos && dash > 0 &&
        absl::SimpleHexAtoi(absl::string_view(line).substr(0, dash), &start)) {
      ours = std::any_of(
          regions.begin(), regions.end(), [start](const Region& region) {
            const uintptr_t begin = reinterpret_cast<uintptr_t>(region.start);
            return start >= begin && start < begin + region.size;
          });
      continue;
    }
    constexpr absl::string_view kField = "AnonHugePages:";
    if (!ours || !absl::StartsWith(line, kField)) continue;
    const std::vector<absl::string_view> words = absl::StrSplit(
        absl::string_view(line).substr(kField.size()), ' ', absl::SkipEmpty());
    uint64_t kib;
    if (!words.empty() && absl::SimpleAtoi(words[0], &kib)) {
      huge_bytes += kib * 1024;
    }
  }
  return huge_bytes;
}

}  // namespace sstfilter
