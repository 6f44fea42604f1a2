// The native Bloom filter's portable and constant readers (see bloom_reader.h).

#include "filter/bloom/bloom_reader.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/bloom/bloom_sizing.h"
#include "util/coding.h"

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

}  // namespace

double ExpectedFppOf(const ParsedFilter& filter) {
  return std::max(FilterFpp(filter.layout, filter.num_keys, filter.num_probes),
                  std::numeric_limits<double>::min());
}

ParsedFilter PackedFilter::ForProbing() const {
  ParsedFilter filter;
  filter.body = body_;
  filter.layout = MakeBodyLayout(body_bits() / 8);
  filter.num_probes = num_probes();
  filter.verdict = Verdict::kProbe;
  return filter;
}

uint64_t PackedFilter::NumKeys() const {
  // ParseFilter checked that a varint starts right after the body and ends
  // before the trailer's last three bytes, so decoding stops inside the filter.
  const char* varint = body_ + body_bits() / 8;
  uint64_t num_keys = 0;
  GetVarint64Ptr(varint, varint + kMaxVarint64Bytes, &num_keys);
  return num_keys;
}

std::unique_ptr<FilterReader> NewScalarReader(const ParsedFilter& filter) {
  return std::make_unique<ScalarReader>(filter);
}

}  // namespace bloom_internal
}  // namespace sstfilter
