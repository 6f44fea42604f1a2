// Verified builds (see verified_build.h).

#include "filter/verified_build.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"

namespace sstfilter {
namespace {

// Keys per batched query: the batch overlaps the filter's cache misses.
constexpr size_t kCheckBatchKeys = 64;

}  // namespace

void AddedKeys::Add(absl::string_view key) {
  bytes_.append(key.data(), key.size());
  ends_.push_back(bytes_.size());
}

void AddedKeys::Clear() {
  bytes_.clear();
  ends_.clear();
}

size_t AddedKeys::AllocatedBytes() const {
  return bytes_.capacity() + ends_.capacity() * sizeof(size_t);
}

absl::Status AddedKeys::CheckEveryKeyMatches(const FilterReader& reader) const {
  absl::string_view batch[kCheckBatchKeys];
  bool matches[kCheckBatchKeys];
  uint64_t missed = 0;
  size_t first_missed = 0;
  for (size_t start = 0; start < ends_.size(); start += kCheckBatchKeys) {
    const size_t n = std::min(kCheckBatchKeys, ends_.size() - start);
    for (size_t i = 0; i < n; ++i) {
      const size_t begin = start + i == 0 ? 0 : ends_[start + i - 1];
      batch[i] =
          absl::string_view(bytes_).substr(begin, ends_[start + i] - begin);
    }
    reader.MayMatch(absl::MakeConstSpan(batch, n), matches);
    for (size_t i = 0; i < n; ++i) {
      if (matches[i]) continue;
      if (missed == 0) first_missed = start + i;
      ++missed;
    }
  }
  if (missed == 0) return absl::OkStatus();
  const size_t begin = first_missed == 0 ? 0 : ends_[first_missed - 1];
  return absl::DataLossError(
      absl::StrCat("filter misses ", missed, " of its ", ends_.size(),
                   " keys; the first is key ", first_missed, " (0x",
                   absl::BytesToHexString(absl::string_view(bytes_).substr(
                       begin, ends_[first_missed] - begin)),
                   ")"));
}

VerifiedFilterBuilder::VerifiedFilterBuilder(const FilterPolicy& policy)
    : policy_(policy), builder_(policy.NewBuilder()) {}

void VerifiedFilterBuilder::AddKey(absl::string_view key) {
  keys_.Add(key);
  builder_->AddKey(key);
}

absl::Status VerifiedFilterBuilder::Finish(std::string* dst) {
  const size_t start = dst->size();
  builder_->Finish(dst);
  const absl::Status status = keys_.CheckEveryKeyMatches(
      *policy_.NewReader(absl::string_view(*dst).substr(start)));
  keys_.Clear();
  if (!status.ok()) dst->resize(start);
  return status;
}

}  // namespace sstfilter
