#include "table/filter_block.h"

#include "absl/strings/str_cat.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

constexpr size_t kOffsetBytes = 4;   // fixed32 per filter offset
constexpr size_t kTrailerBytes = 5;  // fixed32 array offset + base_lg byte

class FullFilterBlockReader final : public FilterBlockReader {
 public:
  FullFilterBlockReader(const FilterFormat& format, absl::string_view contents)
      : contents_(contents), reader_(format.NewReader(contents)) {}

  bool KeyMayMatch(absl::string_view key, uint64_t) const override {
    return reader_->MayMatch(key);
  }
  bool NeedsDataBlockOffset() const override { return false; }
  size_t NumFilters() const override { return 1; }
  absl::string_view Filter(size_t) const override { return contents_; }
  double ExpectedFpp() const override { return reader_->ExpectedFpp(); }
  absl::Status Corruption() const override { return reader_->Corruption(); }

 private:
  const absl::string_view contents_;
  const std::unique_ptr<FilterReader> reader_;
};

class LevelDbFilterBlockReader final : public FilterBlockReader {
 public:
  LevelDbFilterBlockReader(const FilterFormat& format,
                           absl::string_view contents)
      : format_(format), contents_(contents) {
    const size_t n = contents.size();
    if (n < kTrailerBytes) {
      corruption_ =
          Damage(absl::StrCat(n, " bytes, fewer than ", kTrailerBytes));
      return;
    }
    base_lg_ = static_cast<uint8_t>(contents[n - 1]);
    if (base_lg_ != kLevelDbFilterBaseLg) {
      corruption_ =
          Damage(absl::StrCat("base_lg ", int{base_lg_}, ", LevelDB writes ",
                              kLevelDbFilterBaseLg));
      return;
    }
    const uint64_t array_offset = DecodeFixed32(contents.data() + n - 5);
    if (array_offset > n - kTrailerBytes) {
      corruption_ = Damage(absl::StrCat("offset array at ", array_offset,
                                        " in a block of ", n, " bytes"));
      return;
    }
    array_offset_ = array_offset;
    num_filters_ = (n - kTrailerBytes - array_offset) / kOffsetBytes;
    uint64_t previous = 0;
    for (uint64_t i = 0; i < num_filters_; ++i) {
      const uint64_t start =
          DecodeFixed32(contents.data() + array_offset_ + kOffsetBytes * i);
      if (start < previous || (i == 0 && start != 0)) {
        corruption_ = Damage(absl::StrCat("filter ", i, " starts at ", start,
                                          " after one at ", previous));
        return;
      }
      previous = start;
    }
    valid_ = true;
    // Each filter whose format stores a checksum is verified once here, to
    // report damage; queries stay safe without it (a checked format verifies
    // before answering "no").
    for (uint64_t i = 0; i < num_filters_ && corruption_.ok(); ++i) {
      absl::string_view filter;
      if (!FilterBounds(i, &filter)) {
        corruption_ =
            Damage(absl::StrCat("filter ", i, " ends past the offsets"));
      } else if (!filter.empty()) {
        corruption_ = format.Verify(filter);
      }
    }
  }

  bool KeyMayMatch(absl::string_view key,
                   uint64_t data_block_offset) const override {
    // LevelDB shifts by base_lg as stored. A shift of 64 or more is
    // undefined there and never written; no range is known, so may match.
    if (!valid_) return true;
    const uint64_t index = data_block_offset >> base_lg_;
    if (index >= num_filters_) return true;  // errors are potential matches
    absl::string_view filter;
    if (!FilterBounds(index, &filter)) return true;
    if (filter.empty()) return false;  // no key in this range
    return format_.KeyMayMatch(key, filter);
  }

  bool NeedsDataBlockOffset() const override { return true; }
  size_t NumFilters() const override { return valid_ ? num_filters_ : 0; }
  absl::Status Corruption() const override { return corruption_; }

  absl::string_view Filter(size_t i) const override {
    absl::string_view filter;
    FilterBounds(i, &filter);
    return filter;
  }

  double ExpectedFpp() const override {
    if (!valid_) return 1.0;
    double weighted = 0;
    double bytes = 0;
    for (size_t i = 0; i < num_filters_; ++i) {
      absl::string_view filter;
      if (!FilterBounds(i, &filter)) return 1.0;
      if (filter.empty()) continue;
      weighted += format_.ExpectedFpp(filter) * filter.size();
      bytes += filter.size();
    }
    return bytes > 0 ? weighted / bytes : 0.0;
  }

 private:
  // Filter i spans [offset i, offset i+1), the last ending at the offset
  // array. False when those bounds are inconsistent.
  bool FilterBounds(uint64_t i, absl::string_view* filter) const {
    const char* array = contents_.data() + array_offset_;
    const uint64_t start = DecodeFixed32(array + kOffsetBytes * i);
    const uint64_t limit = i + 1 < num_filters_
                               ? DecodeFixed32(array + kOffsetBytes * (i + 1))
                               : array_offset_;
    if (start > limit || limit > array_offset_) return false;
    *filter = contents_.substr(start, limit - start);
    return true;
  }

  static absl::Status Damage(absl::string_view what) {
    return absl::DataLossError(
        absl::StrCat("LevelDB filter block: ", what, "; every key may match"));
  }

  const FilterFormat& format_;
  const absl::string_view contents_;
  absl::Status corruption_;
  bool valid_ = false;
  uint8_t base_lg_ = 0;
  uint64_t array_offset_ = 0;
  uint64_t num_filters_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<FullFilterBlockBuilder>>
FullFilterBlockBuilder::New(const FilterPolicy& policy,
                            const FilterBlockOptions& options) {
  if (absl::Status s = ValidateFilterBlockOptions(options); !s.ok()) return s;
  return std::unique_ptr<FullFilterBlockBuilder>(
      new FullFilterBlockBuilder(policy, options));
}

std::string FullFilterBlockBuilder::Finish() {
  std::string block;
  builder_->Finish(&block);
  return block;
}

void LevelDbFilterBlockBuilder::StartBlock(uint64_t data_block_offset) {
  const uint64_t index = data_block_offset >> kLevelDbFilterBaseLg;
  while (index > filter_offsets_.size()) GenerateFilter();
}

void LevelDbFilterBlockBuilder::GenerateFilter() {
  filter_offsets_.push_back(static_cast<uint32_t>(result_.size()));
  if (builder_->NumAdded() == 0) return;  // an empty filter: no keys here
  builder_->Finish(&result_);
}

std::string LevelDbFilterBlockBuilder::Finish() {
  if (builder_->NumAdded() > 0) GenerateFilter();
  const uint32_t array_offset = static_cast<uint32_t>(result_.size());
  for (uint32_t offset : filter_offsets_) PutFixed32(&result_, offset);
  PutFixed32(&result_, array_offset);
  result_.push_back(static_cast<char>(kLevelDbFilterBaseLg));  // base_lg
  std::string block;
  block.swap(result_);
  filter_offsets_.clear();
  return block;
}

std::unique_ptr<FilterBlockReader> NewFullFilterBlockReader(
    const FilterFormat& format, absl::string_view contents) {
  return std::make_unique<FullFilterBlockReader>(format, contents);
}

std::unique_ptr<FilterBlockReader> NewLevelDbFilterBlockReader(
    const FilterFormat& format, absl::string_view contents) {
  return std::make_unique<LevelDbFilterBlockReader>(format, contents);
}

}  // namespace sstfilter
