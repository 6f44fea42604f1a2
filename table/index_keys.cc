#include "table/index_keys.h"

#include <cstdint>

namespace sstfilter {
namespace {

constexpr uint8_t kMaxValueType = 1;  // LevelDB: deletion 0, value 1

}  // namespace

int CompareInternalToUser(absl::string_view index_key,
                          absl::string_view user_key) {
  return index_key.substr(0, index_key.size() - kInternalKeyTagBytes)
      .compare(user_key);
}

bool IsInternalKey(absl::string_view key) {
  return key.size() >= kInternalKeyTagBytes &&
         static_cast<uint8_t>(key[key.size() - kInternalKeyTagBytes]) <=
             kMaxValueType;
}

bool SeparatorAtOrAfter(absl::string_view separator, absl::string_view key,
                        IndexKeys index_keys) {
  return (index_keys == IndexKeys::kInternal
              ? CompareInternalToUser(separator, key)
              : separator.compare(key)) >= 0;
}

}  // namespace sstfilter
