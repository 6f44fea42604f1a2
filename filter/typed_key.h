// Typed keys: integers, byte strings and tuples of them turned into the byte
// keys every sstfilter filter takes (FilterBuilder::AddKey,
// FilterReader::MayMatch, CountingBloomFilter), as Guava's Funnel feeds a
// BloomFilter<T>. Different typed values or tuples never give the same bytes,
// so a filter of encoded keys answers for the typed values themselves.
//
// Example:
//
//   std::string key = sstfilter::EncodeKey(uint64_t{42}, "user", int32_t{-1});
//   builder->AddKey(key);
//   ...
//   reader->MayMatch(sstfilter::EncodeKey(uint64_t{42}, "user", int32_t{-1}));
//
// Encoding, byte by byte. A key is the concatenation of its elements'
// encodings, in argument order; each element is one tag byte, then its body:
//
//   type                           tag   body
//   uint8_t, uint16_t, uint32_t,   0x11, the value big-endian: 1, 2, 4 or 8
//   uint64_t                       0x12, bytes
//                                  0x14,
//                                  0x18
//   int8_t, int16_t, int32_t,      0x21, the value's two's complement with
//   int64_t                        0x22, its sign bit flipped, big-endian: 1,
//                                  0x24, 2, 4 or 8 bytes (-1 as int32_t is
//                                  0x28  7f ff ff ff; 0 is 80 00 00 00)
//   byte string (std::string,      0x30  the bytes with each 0x00 written as
//   absl::string_view,                   0x00 0xFF, then the terminator
//   std::string_view, C string,          0x00 0x01
//   absl::Span<const uint8_t> or
//   <const char>, std::vector of
//   uint8_t or char)
//
// The tag's high nibble is the kind (1 unsigned, 2 signed, 3 bytes), its low
// nibble an integer's width in bytes. EncodeKey(uint64_t{42}, "user",
// int32_t{-1}) is
//
//   18 00 00 00 00 00 00 00 2a   30 75 73 65 72 00 01   24 7f ff ff ff
//
// Why it is injective: every element is self-delimiting. The tag fixes an
// integer's width; a byte string's 0x00 is always followed by 0xFF inside it,
// so its first 0x00 0x01 is its end. Reading tags and bodies left to right
// therefore splits any key into elements in exactly one way, and each body
// decodes to exactly one value: ("ab", "c") is 30 61 62 00 01 30 63 00 01 and
// ("a", "bc") is 30 61 00 01 30 62 63 00 01. The tag also keeps types apart:
// int32_t{1}, uint32_t{1}, int64_t{1} and the 4-byte string "\0\0\0\1" are
// four different keys. filter/typed_key_test.cc decodes keys back to values
// with this grammar and pins the bytes.
//
// Why big-endian with the sign bit flipped, and escaped strings rather than a
// length prefix: the encoded keys sort (bytewise, as LevelDB's and RocksDB's
// default comparator does) like the tuples, element by element, numbers by
// value and strings lexicographically, with a tuple before its extensions. So
// the same bytes can be a table's user key as well as its filter key, and the
// key of a leading part of a tuple is a byte prefix of the whole tuple's key
// (what prefix filters need). It costs no more than little-endian integers and
// a length prefix would: one pass over the bytes either way, and one byte more
// per string (the terminator is two bytes, a varint length one for short
// strings).
//
// What to watch:
//  - The C++ type is part of the key: int32_t{7} and int64_t{7} differ, and an
//    integer literal is an int (int32_t). Give a field one type everywhere.
//  - Text and binary are both byte strings: std::string("ab") and the bytes
//    {0x61, 0x62} give the same key.
//  - A C string (const char*) ends at its first NUL; a char array (a string
//    literal) at its first NUL or its end; a null const char* is the empty
//    string. Pass absl::string_view(data, size) for bytes with NULs.
//  - Rejected at compile time, to avoid silent surprises: bool and char (say
//    uint8_t, int8_t or a string), floating point (-0.0 and NaN have no single
//    key), enums (cast to their underlying type), nested tuples.
//
// Stability: the encoding is frozen; keys written to disk today are found
// tomorrow. A change would be a new function.
//
// Cost: one append of the bytes per element; AppendKey reuses a buffer.

#ifndef SSTFILTER_FILTER_TYPED_KEY_H_
#define SSTFILTER_FILTER_TYPED_KEY_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sstfilter {

// Appends the encoding of values, as one key, to *dst. A key is the
// concatenation of its elements, so building one field at a time gives the
// same key: AppendKey(&k, a); AppendKey(&k, b); leaves EncodeKey(a, b) in an
// empty k. Use it to reuse one buffer in a loop, or for keys whose fields are
// known only at run time.
template <typename... Ts>
void AppendKey(std::string* dst, const Ts&... values);

// The key of values (an empty key for none).
template <typename... Ts>
std::string EncodeKey(const Ts&... values);

// The key of a tuple is the key of its elements: EncodeKey(std::tuple(a, b))
// == EncodeKey(a, b).
template <typename... Ts>
std::string EncodeKey(const std::tuple<Ts...>& values);

namespace typed_key_internal {

// Tags: high nibble the kind, low nibble an integer's width in bytes.
constexpr uint8_t kUnsignedTag = 0x10;  // | width in bytes
constexpr uint8_t kSignedTag = 0x20;    // | width in bytes
constexpr uint8_t kBytesTag = 0x30;

void AppendUnsigned(std::string* dst, uint64_t value, int bytes);
void AppendSigned(std::string* dst, int64_t value, int bytes);
void AppendBytes(std::string* dst, absl::string_view bytes);

template <typename T>
constexpr bool kAlwaysFalse = false;

template <typename T>
struct IsTuple : std::false_type {};
template <typename... Ts>
struct IsTuple<std::tuple<Ts...>> : std::true_type {};
template <typename A, typename B>
struct IsTuple<std::pair<A, B>> : std::true_type {};

template <typename T>
void AppendElement(std::string* dst, const T& value) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    static_assert(kAlwaysFalse<T>, "encode a bool as uint8_t");
  } else if constexpr (std::is_same_v<U, char> || std::is_same_v<U, wchar_t> ||
                       std::is_same_v<U, char16_t> ||
                       std::is_same_v<U, char32_t>) {
    static_assert(kAlwaysFalse<T>,
                  "a char is ambiguous: pass uint8_t, int8_t or a string");
  } else if constexpr (std::is_integral_v<U>) {
    static_assert(
        sizeof(U) == 1 || sizeof(U) == 2 || sizeof(U) == 4 || sizeof(U) == 8,
        "integers of 8, 16, 32 or 64 bits");
    if constexpr (std::is_signed_v<U>) {
      AppendSigned(dst, static_cast<int64_t>(value), sizeof(U));
    } else {
      AppendUnsigned(dst, static_cast<uint64_t>(value), sizeof(U));
    }
  } else if constexpr (std::is_same_v<U, std::string_view>) {
    AppendBytes(dst, absl::string_view(value.data(), value.size()));
  } else if constexpr (std::is_same_v<U, const char*> ||
                       std::is_same_v<U, char*>) {
    AppendBytes(
        dst, value == nullptr ? absl::string_view() : absl::string_view(value));
  } else if constexpr (std::is_array_v<U> &&
                       std::is_same_v<std::remove_cv_t<std::remove_extent_t<U>>,
                                      char>) {
    // Bounded by the array: one without a NUL is not read past its end.
    const char* const end = std::find(value, value + std::extent_v<U>, '\0');
    AppendBytes(dst,
                absl::string_view(value, static_cast<size_t>(end - value)));
  } else if constexpr (std::is_convertible_v<const U&, absl::string_view>) {
    AppendBytes(dst, absl::string_view(value));
  } else if constexpr (std::is_convertible_v<const U&,
                                             absl::Span<const uint8_t>>) {
    const absl::Span<const uint8_t> bytes = value;
    AppendBytes(dst,
                absl::string_view(reinterpret_cast<const char*>(bytes.data()),
                                  bytes.size()));
  } else if constexpr (std::is_convertible_v<const U&,
                                             absl::Span<const char>>) {
    const absl::Span<const char> bytes = value;
    AppendBytes(dst, absl::string_view(bytes.data(), bytes.size()));
  } else if constexpr (IsTuple<U>::value) {
    static_assert(kAlwaysFalse<T>,
                  "a tuple is a key, not an element: pass its elements (or "
                  "the tuple alone to EncodeKey)");
  } else if constexpr (std::is_enum_v<U>) {
    static_assert(kAlwaysFalse<T>, "cast an enum to its underlying type");
  } else {
    static_assert(kAlwaysFalse<T>,
                  "a key element is an integer of 8..64 bits or a byte string");
  }
}

}  // namespace typed_key_internal

template <typename... Ts>
void AppendKey([[maybe_unused]] std::string* dst, const Ts&... values) {
  // [[maybe_unused]]: an empty key appends nothing.
  (typed_key_internal::AppendElement(dst, values), ...);
}

template <typename... Ts>
std::string EncodeKey(const Ts&... values) {
  std::string key;
  AppendKey(&key, values...);
  return key;
}

template <typename... Ts>
std::string EncodeKey(const std::tuple<Ts...>& values) {
  std::string key;
  std::apply([&key](const Ts&... elements) { AppendKey(&key, elements...); },
             values);
  return key;
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_TYPED_KEY_H_
