// The inline key hash against the library call (util::Hash64) for every
// length XXH3 treats differently.

#include "filter/internal/key_hash.h"

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "util/hash.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace filter_internal {
namespace {

TEST(KeyHashTest, InlineHashEqualsLibraryCall) {
  // Every length 0..300 (XXH3 has separate code for 0, 1-3, 4-8, 9-16, 17-128,
  // 129-240 and longer inputs), several contents each, and long keys.
  std::string bytes(5000, '\0');
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(test::Mix64(i));
  for (size_t length = 0; length <= 300; ++length) {
    for (size_t offset : {0, 1, 7, 100}) {
      const absl::string_view key(bytes.data() + offset, length);
      ASSERT_EQ(KeyHash(key), Hash64(key)) << length << " " << offset;
    }
  }
  for (size_t length : {1000, 1024, 4096, 4999}) {
    const absl::string_view key(bytes.data(), length);
    ASSERT_EQ(KeyHash(key), Hash64(key)) << length;
  }
  for (uint64_t i = 0; i < 100000; ++i) {
    const std::string key = test::Key16(0, i);
    ASSERT_EQ(KeyHash(key), Hash64(key)) << i;
    ASSERT_EQ(ShortKeyHash(key), Hash64(key)) << i;
  }
}

}  // namespace
}  // namespace filter_internal
}  // namespace sstfilter
