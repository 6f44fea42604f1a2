// A layer of ScalableBloomFilter: what scalable_bloom.cc grows and
// scalable_bloom_save.cc saves and restores.
//
// Internal header of inmemory/mutable.

#ifndef SSTFILTER_INMEMORY_MUTABLE_SCALABLE_LAYER_H_
#define SSTFILTER_INMEMORY_MUTABLE_SCALABLE_LAYER_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>

#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/scalable_bloom.h"

namespace sstfilter {

struct ScalableBloomFilter::Layer {
  Layer(MutableBloomFilter bloom, uint64_t max_keys, double rate,
        uint64_t keys = 0)
      : filter(std::move(bloom)),
        capacity(max_keys),
        fpp(rate),
        reserved(keys) {}

  MutableBloomFilter filter;
  const uint64_t capacity;
  const double fpp;
  // Places taken by Adds, counted before each adds its key so that the layer
  // never holds more than capacity keys; passes capacity by one per Add that
  // found the layer full.
  std::atomic<uint64_t> reserved;

  // The keys it holds, as Layers() and Save report them.
  uint64_t Keys() const {
    return std::min(capacity, reserved.load(std::memory_order_relaxed));
  }
};

}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_SCALABLE_LAYER_H_
