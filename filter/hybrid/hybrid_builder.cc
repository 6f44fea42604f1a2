// The builders of the hybrid policies (see hybrid_builder.h).

#include "filter/hybrid/hybrid_builder.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "filter/bloom/bloom_builder.h"
#include "filter/burr/burr_builder.h"
#include "filter/burr/burr_format.h"
#include "filter/internal/key_hash.h"

namespace sstfilter {
namespace hybrid_internal {
namespace {

void Count(std::atomic<uint64_t>* counter) {
  counter->fetch_add(1, std::memory_order_relaxed);
}

class NativeBuilder final : public FilterBuilder {
 public:
  NativeBuilder(const bloom_internal::BloomSizing& sizing,
                std::shared_ptr<HybridCounters> counters)
      : builder_(bloom_internal::NewLocalBloomBuilder(sizing.bits_per_key,
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

// Keeps the hashes once, whichever family it ends up building: both families
// hash a key with KeyHash and keep a key added again right away once, so the
// hashes serve either.
class CompactBuilder final : public FilterBuilder {
 public:
  CompactBuilder(const burr_internal::BurrSizing& compact,
                 const bloom_internal::BloomSizing& fallback,
                 uint64_t max_compact_keys,
                 std::shared_ptr<HybridCounters> counters)
      : compact_(compact),
        fallback_(fallback),
        max_compact_keys_(max_compact_keys),
        counters_(std::move(counters)) {}

  void AddKey(absl::string_view key) override {
    ++num_added_;
    const uint64_t hash = filter_internal::KeyHash(key);
    if (!hashes_.empty() && hash == hashes_.back()) return;
    hashes_.push_back(hash);
  }

  size_t NumAdded() const override { return num_added_; }

  void Finish(std::string* dst) override {
    if (hashes_.size() <= max_compact_keys_) {
      burr_internal::AppendFilterFromHashes(&hashes_, compact_,
                                            /*forced_failures=*/0,
                                            burr_internal::kMaxLayers, dst);
      if (counters_ != nullptr) Count(&counters_->compact_builds);
    } else {
      bloom_internal::AppendFilterFromHashes(hashes_, fallback_.bits_per_key,
                                             fallback_.num_probes, dst);
      hashes_.clear();
      hashes_.shrink_to_fit();
      if (counters_ != nullptr) {
        Count(&counters_->native_builds);
        Count(&counters_->fallbacks);
      }
    }
    num_added_ = 0;
  }

 private:
  const burr_internal::BurrSizing compact_;
  const bloom_internal::BloomSizing fallback_;
  const uint64_t max_compact_keys_;
  const std::shared_ptr<HybridCounters> counters_;
  std::vector<uint64_t> hashes_;  // distinct from the one before each
  size_t num_added_ = 0;
};

}  // namespace

std::unique_ptr<FilterBuilder> NewHybridNativeBuilder(
    const bloom_internal::BloomSizing& sizing,
    std::shared_ptr<HybridCounters> counters) {
  return std::make_unique<NativeBuilder>(sizing, std::move(counters));
}

std::unique_ptr<FilterBuilder> NewHybridCompactBuilder(
    const burr_internal::BurrSizing& compact,
    const bloom_internal::BloomSizing& fallback, uint64_t max_compact_keys,
    std::shared_ptr<HybridCounters> counters) {
  return std::make_unique<CompactBuilder>(compact, fallback, max_compact_keys,
                                          std::move(counters));
}

}  // namespace hybrid_internal
}  // namespace sstfilter
