// The scalable Bloom filter: layer sizing, adds with a reserved place in the
// newest layer, growth under a mutex, and queries over every layer (see
// scalable_bloom.h).

#include "inmemory/mutable/scalable_bloom.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "filter/internal/key_hash.h"
#include "inmemory/mutable/query_paths.h"
#include "inmemory/mutable/scalable_layer.h"

namespace sstfilter {

namespace {

// Each layer is sized for its share of the bound divided by this: the native
// sizing promises a measured rate within 1.05 times its target
// (filter/bloom/bloom.h), so the layers' measured rates still sum to less
// than the bound.
constexpr double kLayerRateMargin = 1.05;

// A layer's capacity must fit the 64-bit key counts of MutableBloomFilter.
constexpr long double kMaxLayerKeys = 9.2e18L;  // keys, just below 2^63

}  // namespace

ScalableBloomFilter::ScalableBloomFilter(const ScalableBloomOptions& options)
    : options_(options) {
  for (std::atomic<Layer*>& slot : layers_) {
    slot.store(nullptr, std::memory_order_relaxed);
  }
}

ScalableBloomFilter::~ScalableBloomFilter() {
  const size_t n = num_layers_.load(std::memory_order_acquire);
  for (size_t i = 0; i < n; ++i) {
    delete layers_[i].load(std::memory_order_relaxed);
  }
}

absl::StatusOr<std::unique_ptr<ScalableBloomFilter>>
ScalableBloomFilter::Create(const ScalableBloomOptions& options) {
  if (absl::Status valid = ValidateOptions(options); !valid.ok()) return valid;
  std::unique_ptr<ScalableBloomFilter> filter(new ScalableBloomFilter(options));
  absl::StatusOr<std::unique_ptr<Layer>> first = filter->MakeLayer(0);
  if (!first.ok()) {
    return absl::Status(
        first.status().code(),
        absl::StrCat("ScalableBloomOptions: fpp ", options.fpp, ", tightening ",
                     options.tightening, ": ", first.status().message()));
  }
  filter->layers_[0].store(first->release(), std::memory_order_relaxed);
  filter->num_layers_.store(1, std::memory_order_release);
  return filter;
}

absl::Status ScalableBloomFilter::ValidateOptions(
    const ScalableBloomOptions& options) {
  // Each test is written so that NaN fails it.
  if (!(options.fpp > 0.0 && options.fpp < 1.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ScalableBloomOptions: fpp must be in (0, 1), got ", options.fpp));
  }
  if (options.initial_keys == 0) {
    return absl::InvalidArgumentError(
        "ScalableBloomOptions: initial_keys must be at least 1, got 0");
  }
  if (!(options.growth >= 1.0 &&
        options.growth <= std::numeric_limits<double>::max())) {
    return absl::InvalidArgumentError(
        absl::StrCat("ScalableBloomOptions: growth must be a finite number at "
                     "least 1, got ",
                     options.growth));
  }
  if (!(options.tightening > 0.0 && options.tightening < 1.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("ScalableBloomOptions: tightening must be in (0, 1), got ",
                     options.tightening));
  }
  return absl::OkStatus();
}

absl::StatusOr<ScalableBloomFilter::LayerTarget> ScalableBloomFilter::TargetOf(
    size_t index) const {
  const long double capacity =
      std::ceil(static_cast<long double>(options_.initial_keys) *
                std::pow(static_cast<long double>(options_.growth),
                         static_cast<long double>(index)));
  if (!(capacity <= kMaxLayerKeys)) {
    return absl::InvalidArgumentError(
        absl::StrCat("layer ", index, " would hold ",
                     static_cast<double>(capacity), " keys, more than 2^63"));
  }
  const double fpp = options_.fpp * (1.0 - options_.tightening) *
                     std::pow(options_.tightening, static_cast<double>(index)) /
                     kLayerRateMargin;
  return LayerTarget{static_cast<uint64_t>(capacity), fpp};
}

absl::StatusOr<std::unique_ptr<ScalableBloomFilter::Layer>>
ScalableBloomFilter::MakeLayer(size_t index) const {
  absl::StatusOr<LayerTarget> target = TargetOf(index);
  if (!target.ok()) return target.status();
  const uint64_t capacity = target->capacity;
  const double fpp = target->fpp;
  absl::StatusOr<MutableBloomFilter> bloom =
      MutableBloomFilter::Create(FilterOptions::Fpp(fpp), capacity);
  if (!bloom.ok()) {
    return absl::Status(
        bloom.status().code(),
        absl::StrCat("layer ", index, " (", capacity, " keys at fpp ", fpp,
                     "): ", bloom.status().message()));
  }
  return std::make_unique<Layer>(*std::move(bloom), capacity, fpp);
}

absl::Status ScalableBloomFilter::Grow(size_t index) {
  std::lock_guard<std::mutex> lock(grow_mutex_);
  if (num_layers_.load(std::memory_order_relaxed) != index) {
    return absl::OkStatus();  // another thread made it
  }
  if (!full_.ok()) return full_;
  absl::StatusOr<std::unique_ptr<Layer>> layer =
      index < kMaxScalableLayers ? MakeLayer(index)
                                 : absl::ResourceExhaustedError(absl::StrCat(
                                       "all ", kMaxScalableLayers,
                                       " layers (kMaxScalableLayers) used"));
  if (!layer.ok()) {
    full_ = absl::ResourceExhaustedError(absl::StrCat(
        "ScalableBloomFilter is full: ", layer.status().message()));
    return full_;
  }
  // The layer first, then the count that makes queries look at it: a thread
  // that acquires the count sees the layer's pointer and its zeroed words.
  layers_[index].store(layer->release(), std::memory_order_release);
  num_layers_.store(index + 1, std::memory_order_release);
  return absl::OkStatus();
}

absl::StatusOr<bool> ScalableBloomFilter::Add(absl::string_view key) {
  const uint64_t hash = bloom::KeyHash(key);
  for (;;) {
    const size_t n = num_layers_.load(std::memory_order_acquire);
    // Newest first: it holds as many keys as all the others together (at
    // growth 2), so a key added before is likeliest there.
    for (size_t i = n; i-- > 0;) {
      if (layer(i).filter.MayContainHash(hash)) return false;
    }
    Layer& newest = *layers_[n - 1].load(std::memory_order_acquire);
    if (newest.reserved.fetch_add(1, std::memory_order_relaxed) <
        newest.capacity) {
      return newest.filter.AddHash(hash);
    }
    // Full: make the next layer (or wait for the thread making it), then ask
    // again, the new layer included.
    if (absl::Status grown = Grow(n); !grown.ok()) return grown;
  }
}

bool ScalableBloomFilter::MayContain(absl::string_view key) const {
  const uint64_t hash = bloom::KeyHash(key);
  const size_t n = num_layers_.load(std::memory_order_acquire);
  for (size_t i = n; i-- > 0;) {
    if (layer(i).filter.MayContainHash(hash)) return true;
  }
  return false;
}

void ScalableBloomFilter::MayContain(absl::Span<const absl::string_view> keys,
                                     bool* results) const {
  // MutableBloomFilter's batch step: a group's hashes and prefetches come
  // before any of its probes.
  constexpr size_t kGroup = mutable_internal::kQueryGroup;
  uint64_t hashes[kGroup];
  const size_t n = num_layers_.load(std::memory_order_acquire);
  for (size_t start = 0; start < keys.size(); start += kGroup) {
    const size_t count = std::min(kGroup, keys.size() - start);
    bool* out = results + start;
    for (size_t i = 0; i < count; ++i) {
      hashes[i] = bloom::KeyHash(keys[start + i]);
      out[i] = false;
    }
    // Layer by layer, newest first; only the keys no layer has matched yet.
    for (size_t l = n; l-- > 0;) {
      const MutableBloomFilter& filter = layer(l).filter;
      for (size_t i = 0; i < count; ++i) {
        if (!out[i]) filter.PrefetchHash(hashes[i]);
      }
      for (size_t i = 0; i < count; ++i) {
        if (!out[i]) out[i] = filter.MayContainHash(hashes[i]);
      }
    }
  }
}

uint64_t ScalableBloomFilter::ApproximateCount() const {
  uint64_t total = 0;
  const size_t n = NumLayers();
  for (size_t i = 0; i < n; ++i) total += layer(i).filter.ApproximateCount();
  return total;
}

double ScalableBloomFilter::ExpectedFpp() const {
  double all_miss = 1.0;
  const size_t n = NumLayers();
  for (size_t i = 0; i < n; ++i)
    all_miss *= 1.0 - layer(i).filter.ExpectedFpp();
  return 1.0 - all_miss;
}

uint64_t ScalableBloomFilter::MemoryBytes() const {
  uint64_t total = 0;
  const size_t n = NumLayers();
  for (size_t i = 0; i < n; ++i) total += layer(i).filter.MemoryBytes();
  return total;
}

std::vector<ScalableBloomFilter::LayerInfo> ScalableBloomFilter::Layers()
    const {
  std::vector<LayerInfo> infos;
  const size_t n = NumLayers();
  for (size_t i = 0; i < n; ++i) {
    const Layer& l = layer(i);
    infos.push_back(LayerInfo{l.capacity, l.Keys(), l.fpp,
                              l.filter.BitsPerKey(), l.filter.NumProbes(),
                              l.filter.MemoryBytes()});
  }
  return infos;
}

}  // namespace sstfilter
