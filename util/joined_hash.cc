#include "util/joined_hash.h"

#include <cstring>
#include <string>

#include "util/hash.h"

namespace sstfilter {
namespace joined_hash_internal {

namespace {

// Joined names up to this long are built on the stack: every tail of a key
// of at most 255 bytes.
constexpr size_t kStackNameBytes = 3 + 255;

}  // namespace

uint64_t CopiedHash64(uint32_t head, absl::string_view tail) {
  char stack_name[kStackNameBytes];
  std::string heap_name;
  char* name = stack_name;
  if (3 + tail.size() > sizeof(stack_name)) {
    heap_name.resize(3 + tail.size());
    name = heap_name.data();
  }
  name[0] = static_cast<char>(head);
  name[1] = static_cast<char>(head >> 8);
  name[2] = static_cast<char>(head >> 16);
  if (!tail.empty()) std::memcpy(name + 3, tail.data(), tail.size());
  return Hash64(absl::string_view(name, 3 + tail.size()));
}

}  // namespace joined_hash_internal
}  // namespace sstfilter
