#include "filter/prefix_extractor.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace sstfilter {
namespace {

// RocksDB's class names, to which the id appends "." and the length.
constexpr absl::string_view kFixedPrefixClass = "rocksdb.FixedPrefix";
constexpr absl::string_view kCappedPrefixClass = "rocksdb.CappedPrefix";

class FixedPrefixExtractor final : public PrefixExtractor {
 public:
  explicit FixedPrefixExtractor(size_t length)
      : length_(length), name_(absl::StrCat(kFixedPrefixClass, ".", length)) {}

  const std::string& Name() const override { return name_; }
  bool InDomain(absl::string_view key) const override {
    return key.size() >= length_;
  }
  absl::string_view Transform(absl::string_view key) const override {
    return key.substr(0, length_);
  }

 private:
  const size_t length_;
  const std::string name_;
};

class CappedPrefixExtractor final : public PrefixExtractor {
 public:
  explicit CappedPrefixExtractor(size_t cap)
      : cap_(cap), name_(absl::StrCat(kCappedPrefixClass, ".", cap)) {}

  const std::string& Name() const override { return name_; }
  bool InDomain(absl::string_view /*key*/) const override { return true; }
  absl::string_view Transform(absl::string_view key) const override {
    return key.substr(0, std::min(cap_, key.size()));
  }

 private:
  const size_t cap_;
  const std::string name_;
};

// The length after "<class>." in name, if name is that class's id.
bool ParseLength(absl::string_view name, absl::string_view class_name,
                 size_t* length) {
  if (name.size() <= class_name.size() + 1 ||
      name.substr(0, class_name.size()) != class_name ||
      name[class_name.size()] != '.') {
    return false;
  }
  const absl::string_view digits = name.substr(class_name.size() + 1);
  // Only the decimal digits RocksDB's std::to_string writes: no sign, no
  // spaces, no leading zeros (which would name another id).
  if (digits.find_first_not_of("0123456789") != absl::string_view::npos ||
      (digits.size() > 1 && digits[0] == '0')) {
    return false;
  }
  uint64_t value = 0;
  if (!absl::SimpleAtoi(digits, &value)) return false;
  *length = static_cast<size_t>(value);
  return static_cast<uint64_t>(*length) == value;
}

}  // namespace

std::unique_ptr<const PrefixExtractor> NewFixedPrefixExtractor(size_t length) {
  return std::make_unique<FixedPrefixExtractor>(length);
}

std::unique_ptr<const PrefixExtractor> NewCappedPrefixExtractor(size_t cap) {
  return std::make_unique<CappedPrefixExtractor>(cap);
}

absl::StatusOr<std::unique_ptr<const PrefixExtractor>> PrefixExtractorFromName(
    absl::string_view name) {
  size_t length = 0;
  if (ParseLength(name, kFixedPrefixClass, &length)) {
    return NewFixedPrefixExtractor(length);
  }
  if (ParseLength(name, kCappedPrefixClass, &length)) {
    return NewCappedPrefixExtractor(length);
  }
  return absl::NotFoundError(absl::StrCat(
      "prefix extractor '", name, "' is not one sstfilter reproduces; it has ",
      kFixedPrefixClass, ".<n> and ", kCappedPrefixClass, ".<n>"));
}

}  // namespace sstfilter
