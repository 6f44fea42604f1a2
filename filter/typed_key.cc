// The element encoders behind filter/typed_key.h's templates: a tag byte, then
// util/coding.h's order-preserving encoding of the value.

#include "filter/typed_key.h"

#include "util/coding.h"

namespace sstfilter {
namespace typed_key_internal {

void AppendUnsigned(std::string* dst, uint64_t value, int bytes) {
  dst->push_back(static_cast<char>(kUnsignedTag | bytes));
  PutBigEndian(dst, value, bytes);
}

void AppendSigned(std::string* dst, int64_t value, int bytes) {
  dst->push_back(static_cast<char>(kSignedTag | bytes));
  PutBigEndian(dst, OrderedFromSigned(value, bytes), bytes);
}

void AppendBytes(std::string* dst, absl::string_view bytes) {
  dst->push_back(static_cast<char>(kBytesTag));
  PutEscapedBytes(dst, bytes);
}

}  // namespace typed_key_internal
}  // namespace sstfilter
