#include "filter/internal/verdict.h"

#include <algorithm>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sstfilter {
namespace filter_internal {
namespace {

class ConstantReader final : public FilterReader {
 public:
  explicit ConstantReader(bool answer) : answer_(answer) {}

  bool MayMatch(absl::string_view) const override { return answer_; }

  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    std::fill(results, results + keys.size(), answer_);
  }

  double ExpectedFpp() const override { return answer_ ? 1.0 : 0.0; }

 private:
  const bool answer_;
};

}  // namespace

std::unique_ptr<FilterReader> NewConstantReader(Verdict verdict) {
  return std::make_unique<ConstantReader>(ConstantAnswer(verdict));
}

}  // namespace filter_internal
}  // namespace sstfilter
