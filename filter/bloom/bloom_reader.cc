// The native Bloom filter's portable and constant readers (see bloom_reader.h).

#include "filter/bloom/bloom_reader.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/bloom/bloom_sizing.h"

namespace sstfilter {
namespace bloom_internal {
namespace {

class ScalarReader final : public LocalBloomReaderBase {
 public:
  using LocalBloomReaderBase::LocalBloomReaderBase;

  bool MayMatch(absl::string_view key) const override {
    return ScalarMayMatch(filter_, key);
  }

  void MayMatch(absl::Span<const absl::string_view> keys,
                bool* results) const override {
    BatchSlot slots[kQueryBatch];
    for (size_t start = 0; start < keys.size(); start += kQueryBatch) {
      const size_t count = std::min(kQueryBatch, keys.size() - start);
      PrepareBatch(filter_, keys.data() + start, count, slots);
      for (size_t i = 0; i < count; ++i) {
        results[start + i] =
            ScalarProbe(filter_, slots[i].block, slots[i].probe_hash);
      }
    }
  }
};

// A filter that matches nothing (no keys) or everything (unreadable).
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

double LocalBloomReaderBase::ExpectedFpp() const {
  return std::max(
      FilterFpp(filter_.layout, filter_.num_keys, filter_.num_probes),
      std::numeric_limits<double>::min());
}

std::unique_ptr<FilterReader> NewConstantReader(bool answer) {
  return std::make_unique<ConstantReader>(answer);
}

std::unique_ptr<FilterReader> NewScalarReader(const ParsedFilter& filter) {
  return std::make_unique<ScalarReader>(filter);
}

}  // namespace bloom_internal
}  // namespace sstfilter
