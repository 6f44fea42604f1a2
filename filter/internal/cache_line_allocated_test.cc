#include "filter/internal/cache_line_allocated.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace filter_internal {
namespace {

struct Base {
  virtual ~Base() = default;
  virtual size_t Bytes() const = 0;
};

// Objects of several sizes around the heap's size classes, deleted through a
// pointer to a base, as readers are.
template <size_t kBytes>
class alignas(kCacheLineBytes) Sized final : public Base,
                                             public CacheLineAllocated {
 public:
  Sized() { std::memset(payload_, 0xab, sizeof(payload_)); }
  size_t Bytes() const override { return sizeof(payload_); }

 private:
  char payload_[kBytes];
};

template <size_t kBytes>
void ExpectAlignedAndWhole(std::vector<std::unique_ptr<Base>>* live) {
  for (int i = 0; i < 64; ++i) {
    live->push_back(std::make_unique<Sized<kBytes>>());
    const Base* object = live->back().get();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(object) % kCacheLineBytes, 0u)
        << kBytes << " bytes";
    EXPECT_EQ(object->Bytes(), kBytes);
  }
}

TEST(CacheLineAllocatedTest, EveryObjectStartsOnACacheLine) {
  std::vector<std::unique_ptr<Base>> live;
  ExpectAlignedAndWhole<8>(&live);
  ExpectAlignedAndWhole<56>(&live);
  ExpectAlignedAndWhole<500>(&live);
  ExpectAlignedAndWhole<1000>(&live);
  ExpectAlignedAndWhole<5000>(&live);
  // Freed in another order than allocated, then allocated again: a block
  // address kept wrong would make the heap abort (or the sanitizers report).
  for (size_t i = 0; i < live.size(); i += 2) live[i].reset();
  ExpectAlignedAndWhole<500>(&live);
  live.clear();
}

}  // namespace
}  // namespace filter_internal
}  // namespace sstfilter
