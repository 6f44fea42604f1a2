// The builders of the hybrid policies (see hybrid_builder.h).

#include "filter/hybrid/hybrid_builder.h"

#include <memory>
#include <string>
#include <utility>

#include "filter/bloom/bloom_builder.h"
#include "filter/burr/burr_builder.h"
#include "filter/burr/burr_format.h"
#include "filter/internal/added_hashes.h"
#include "filter/internal/chunk_list.h"

namespace sstfilter {
namespace hybrid_internal {
namespace {

void Count(std::atomic<uint64_t>* counter) {
  counter->fetch_add(1, std::memory_order_relaxed);
}

class NativeBuilder final : public FilterBuilder {
 public:
  NativeBuilder(const bloom::BloomSizing& sizing,
                std::shared_ptr<HybridCounters> counters)
      : builder_(bloom::NewLocalBloomBuilder(sizing.bits_per_key,
                                             sizing.num_probes)),
        counters_(std::move(counters)) {}

  void AddKey(absl::string_view key) override { builder_->AddKey(key); }
  size_t NumAdded() const override { return builder_->NumAdded(); }
  void Finish(std::string* dst) override {
    builder_->Finish(dst);
    if (counters_ != nullptr) Count(&counters_->native_builds);
  }

 private:
  const std::unique_ptr<FilterBuilder> builder_;
  const std::shared_ptr<HybridCounters> counters_;
};

// Keeps the hashes once, whichever family it ends up building (AddedHashes
// serves either).
class CompactBuilder final : public FilterBuilder {
 public:
  CompactBuilder(const burr_internal::BurrSizing& compact,
                 const bloom::BloomSizing& fallback, uint64_t max_compact_keys,
                 std::shared_ptr<HybridCounters> counters)
      : compact_(compact),
        fallback_(fallback),
        max_compact_keys_(max_compact_keys),
        counters_(std::move(counters)) {}

  void AddKey(absl::string_view key) override { added_.Add(key); }

  size_t NumAdded() const override { return added_.num_added(); }

  void Finish(std::string* dst) override {
    filter_internal::ChunkList& hashes = added_.hashes();
    if (hashes.size() <= max_compact_keys_) {
      burr_internal::AppendFilterFromHashes(&hashes, compact_,
                                            /*forced_failures=*/0,
                                            burr_internal::kMaxLayers, dst);
      if (counters_ != nullptr) Count(&counters_->compact_builds);
    } else {
      bloom::AppendFilterFromHashes(hashes, fallback_.bits_per_key,
                                    fallback_.num_probes, dst);
      if (counters_ != nullptr) {
        Count(&counters_->native_builds);
        Count(&counters_->fallbacks);
      }
    }
    added_.Clear();
  }

 private:
  const burr_internal::BurrSizing compact_;
  const bloom::BloomSizing fallback_;
  const uint64_t max_compact_keys_;
  const std::shared_ptr<HybridCounters> counters_;
  filter_internal::AddedHashes<> added_;
};

}  // namespace

std::unique_ptr<FilterBuilder> NewHybridNativeBuilder(
    const bloom::BloomSizing& sizing,
    std::shared_ptr<HybridCounters> counters) {
  return std::make_unique<NativeBuilder>(sizing, std::move(counters));
}

std::unique_ptr<FilterBuilder> NewHybridCompactBuilder(
    const burr_internal::BurrSizing& compact,
    const bloom::BloomSizing& fallback, uint64_t max_compact_keys,
    std::shared_ptr<HybridCounters> counters) {
  return std::make_unique<CompactBuilder>(compact, fallback, max_compact_keys,
                                          std::move(counters));
}

}  // namespace hybrid_internal
}  // namespace sstfilter
