// The bumped Ribbon filter's builder (see burr_builder.h).

#include "filter/burr/burr_builder.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "filter/burr/burr_format.h"
#include "filter/burr/burr_solver.h"
#include "filter/internal/key_hash.h"

namespace sstfilter {
namespace burr_internal {
namespace {

class BumpedRibbonBuilder final : public FilterBuilder {
 public:
  BumpedRibbonBuilder(const BurrSizing& sizing, int forced_failures,
                      int max_layers)
      : sizing_(sizing),
        forced_failures_(forced_failures),
        max_layers_(max_layers) {}

  void AddKey(absl::string_view key) override {
    ++num_added_;
    const uint64_t hash = filter_internal::KeyHash(key);
    // A key added again right away (several versions of one user key) adds
    // nothing; other duplicates give equations the band already implies.
    if (!hashes_.empty() && hash == hashes_.back()) return;
    hashes_.push_back(hash);
  }

  size_t NumAdded() const override { return num_added_; }

  void Finish(std::string* dst) override {
    const uint64_t num_keys = hashes_.size();
    std::vector<LayerShape> layers;
    uint64_t seed = 0;
    if (num_keys > 0) {
      const size_t start = dst->size();
      // Room for the whole filter up front (its expected size and 2% more):
      // growing the string layer by layer would copy the body, and hold it
      // twice for a moment. Geometric growth when filters are appended one
      // after another.
      const size_t needed =
          start + 1024 +
          static_cast<size_t>(static_cast<double>(num_keys) *
                              sizing_.bits_per_key / 8 * 1.02);
      if (dst->capacity() < needed) {
        dst->reserve(std::max(needed, 2 * dst->capacity()));
      }
      for (;; ++seed) {
        const SolveResult result =
            SolveLayers(&hashes_, sizing_, max_layers_, seed, dst);
        const bool forced = seed < static_cast<uint64_t>(forced_failures_);
        if ((result.unplaced == 0 && !forced) || seed == kMaxSeed) {
          layers = result.layers;
          break;
        }
        // Retry with the next seed: one more step of the layer-0 hash.
        dst->resize(start);
        for (uint64_t& h : hashes_) h = Fmix64(h);
      }
    }
    AppendTrailer(num_keys, seed, sizing_.columns, layers, dst);
    hashes_.clear();
    hashes_.shrink_to_fit();
    num_added_ = 0;
  }

 private:
  const BurrSizing sizing_;
  const int forced_failures_;
  const int max_layers_;
  std::vector<uint64_t> hashes_;
  size_t num_added_ = 0;
};

}  // namespace

std::unique_ptr<FilterBuilder> NewBumpedRibbonBuilder(const BurrSizing& sizing,
                                                      int forced_failures,
                                                      int max_layers) {
  return std::make_unique<BumpedRibbonBuilder>(sizing, forced_failures,
                                               max_layers);
}

}  // namespace burr_internal
}  // namespace sstfilter
