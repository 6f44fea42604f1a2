// Typed keys: integers, byte strings and tuples of them turned into the byte
// keys every sstfilter filter takes, as Guava's Funnel feeds a
// BloomFilter<T>. Different typed values or tuples never give the same bytes,
// and the keys sort bytewise like the tuples; docs/typed_keys.md draws the
// encoding byte by byte.
//
//   std::string key = sstfilter::EncodeKey(uint64_t{42}, "user", int32_t{-1});
//   builder->AddKey(key);
//   ...
//   reader->MayMatch(sstfilter::EncodeKey(uint64_t{42}, "user", int32_t{-1}));

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

// The key of values (an empty key for none). The C++ type is part of the key:
// int32_t{7} and int64_t{7} differ, and an integer literal is an int. Text and
// binary are both byte strings: std::string("ab") and the bytes {0x61, 0x62}
// give the same key. A C string (const char*) ends at its first NUL, a char
// array at its first NUL or its end, and a null const char* is the empty
// string; pass absl::string_view(data, size) for bytes with NULs. Rejected at
// compile time: bool and char (say uint8_t, int8_t or a string), floating
// point (-0.0 and NaN have no single key), enums (cast to their underlying
// type), nested tuples.
//
// Stability: the encoding is frozen; a change would be a new function.
// Cost: one append of the bytes per element.
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
