#include "util/key_shapes.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "util/mix64.h"

namespace sstfilter {
namespace key_shapes {
namespace {

// Room left at the top of each shape's numbers: a range of the widest width
// may start right after any key.
constexpr KeyNumber kTopRoom = 2 * kMaxRangeWidth;

std::string Random16(KeyNumber number) {
  std::string key;
  for (int byte = 15; byte >= 0; --byte) {
    key.push_back(static_cast<char>(number >> (8 * byte)));
  }
  return key;
}

std::string Ycsb(KeyNumber number) {
  return absl::StrFormat("user%019u", static_cast<uint64_t>(number));
}

// The tenant shape's collections: kCollections names of 2 to 18 lowercase
// letters, sorted. Letters sort after '/', so a name's keys all come before
// those of any longer name it begins: the keys keep the numbers' order.
constexpr uint64_t kCollections = 64;
constexpr uint64_t kIdsPerCollection = 100'000'000;  // 8 digits
constexpr char kTenantPrefix[] = "tenant000042/";    // 13 bytes

const std::vector<std::string>& CollectionNames() {
  static const std::vector<std::string>* names = [] {
    auto* sorted = new std::vector<std::string>;
    for (uint64_t draw = 0; sorted->size() < kCollections; ++draw) {
      const uint64_t bits = Mix64(draw + 1);
      std::string name(2 + bits % 17, 'a');
      for (size_t i = 0; i < name.size(); ++i) {
        name[i] = static_cast<char>('a' + Mix64(bits + i) % 26);
      }
      if (std::find(sorted->begin(), sorted->end(), name) == sorted->end()) {
        sorted->push_back(name);
      }
    }
    std::sort(sorted->begin(), sorted->end());
    return sorted;
  }();
  return *names;
}

// 13 + (2 to 18) + 1 + 8 = 24 to 40 bytes.
std::string Tenant(KeyNumber number) {
  const uint64_t n = static_cast<uint64_t>(number);
  return absl::StrFormat("%s%s/%08u", kTenantPrefix,
                         CollectionNames()[n / kIdsPerCollection],
                         n % kIdsPerCollection);
}

std::string Timestamped(KeyNumber number) {
  const uint64_t us = static_cast<uint64_t>(number);
  constexpr uint64_t kSecond = 1'000'000;
  return absl::StrFormat("event/2026-11-28T%02u:%02u:%02u.%06u",
                         us / (3600 * kSecond) % 24, us / (60 * kSecond) % 60,
                         us / kSecond % 60, us % kSecond);
}

const KeyShape kShapes[] = {
    {"random 16 bytes", &Random16, ~KeyNumber{0}, 1},
    {"user + 19 digits", &Ycsb, KeyNumber{10'000'000'000'000'000'000ull}, 2},
    {"tenant000042/<collection>/ + 8 digits", &Tenant,
     KeyNumber{kCollections * kIdsPerCollection}, 2},
    {"event/<date>T<time> (us)", &Timestamped, KeyNumber{86'400ull * 1'000'000},
     2},
};

bool AnyIn(const std::vector<KeyNumber>& sorted, KeyNumber lo, KeyNumber hi) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), lo);
  return it != sorted.end() && *it <= hi;
}

}  // namespace

absl::Span<const KeyShape> KeyShapes() { return kShapes; }

uint64_t NumberDraws::Next() { return Mix64(state_ += 0x9e3779b97f4a7c15ull); }

KeyNumber NumberDraws::Below(KeyNumber bound) {
  const KeyNumber wide = (KeyNumber{Next()} << 64) | Next();
  return bound == ~KeyNumber{0} ? wide : wide % bound;
}

std::vector<KeyNumber> DrawKeyNumbers(const KeyShape& shape, uint64_t count,
                                      NumberDraws* draws) {
  std::vector<KeyNumber> numbers;
  while (numbers.size() < count) {
    while (numbers.size() < count) {
      numbers.push_back(draws->Below(shape.max_number - kTopRoom));
    }
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  }
  return numbers;
}

NumberRange DrawEmptyRange(const KeyShape& shape,
                           const std::vector<KeyNumber>& sorted, uint64_t width,
                           bool correlated, NumberDraws* draws) {
  for (;;) {
    const KeyNumber lo = correlated ? sorted[draws->Next() % sorted.size()] + 1
                                    : draws->Below(shape.max_number - kTopRoom);
    const KeyNumber hi = lo + width - 1;
    if (!AnyIn(sorted, lo, hi)) return {lo, hi};
  }
}

}  // namespace key_shapes
}  // namespace sstfilter
